// Package tmuxtest drives the real mcptui binary in tmux for end-to-end
// tests: it builds the binary, starts it in a detached session on a private
// socket, sends keys and polls the screen with a deadline (never sleeping
// as synchronization).
package tmuxtest

import (
	"context"
	"fmt"
	"github.com/mcptui/mcptui/internal/testkit/e2e"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Deadline bounds each wait: generous for a loaded machine, never a measure
// of speed.
const Deadline = 2 * time.Minute

// session is the tmux session's name on the private socket.
const session = "e2e"

// Require skips the test, saying why, unless the end-to-end tests are on
// (see package e2e) and tmux is installed.
func Require(t *testing.T) {
	t.Helper()
	e2e.Require(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("SKIP: tmux is not installed: this end-to-end test drives the real binary in tmux (apt-get install tmux)")
	}
}

// Build builds the mcptui binary from this module into a temporary
// directory and returns its path.
func Build(t *testing.T) string {
	t.Helper()
	bin, err := BuildIn(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// BuildIn builds the mcptui binary from this module into dir (for a
// TestMain that shares one build among its tests) and returns its path.
func BuildIn(dir string) (string, error) {
	root, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		return "", fmt.Errorf("finding the module: %w", err)
	}
	bin := filepath.Join(dir, "mcptui")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = strings.TrimSpace(string(root))
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %w\n%s", err, out)
	}
	return bin, nil
}

// Term is one detached tmux session running a command.
type Term struct {
	t      *testing.T
	socket string
}

// Start runs command (a shell command line) in a new session of the given
// size on a socket private to this test; the server is killed when the test
// ends, and also when the test binary dies without ending it (a go test
// timeout): a watcher process, outside the test's process group, holds the
// read end of a pipe only this binary writes to, and kills the tmux server
// once that pipe reaches EOF. Servers that an earlier, killed run left
// behind without a watcher (their binary's pid gone) are ended first.
func Start(t *testing.T, name string, width, height int, command string) *Term {
	t.Helper()
	Require(t)
	sweep()
	x := &Term{t: t, socket: fmt.Sprintf("%s%s-%d", socketPrefix, name, os.Getpid())}
	var socketPath string
	stopWatch := watch(t, x.socket)
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-L", x.socket, "kill-server").Run()
		if socketPath != "" {
			_ = os.Remove(socketPath) // tmux leaves its socket file behind
		}
		stopWatch()
	})
	x.Run("new-session", "-d", "-s", session, "-x", fmt.Sprint(width), "-y", fmt.Sprint(height), command)
	socketPath = x.SocketPath()
	return x
}

// socketPrefix starts the name of every socket Start makes; the name ends
// with "-<pid of the test binary>".
const socketPrefix = "mcptui-"

// socketDir is where tmux puts the sockets of -L names.
func socketDir() string {
	dir := os.Getenv("TMUX_TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	return filepath.Join(dir, fmt.Sprintf("tmux-%d", os.Getuid()))
}

// sweep ends the tmux servers of Start's sockets whose test binary is gone,
// and removes their socket files.
func sweep() {
	entries, err := os.ReadDir(socketDir())
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		i := strings.LastIndexByte(name, '-')
		if !strings.HasPrefix(name, socketPrefix) || i < 0 {
			continue
		}
		pid, err := strconv.Atoi(name[i+1:])
		if err != nil || pid <= 0 || processExists(pid) {
			continue
		}
		_ = exec.Command("tmux", "-L", name, "kill-server").Run()
		_ = os.Remove(filepath.Join(socketDir(), name))
	}
}

// watch starts the watcher of socket's tmux server (see Start) and returns
// what stops it when the test ends normally.
func watch(t *testing.T, socket string) func() {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatalf("tmuxtest: %v", err)
	}
	// cat returns at EOF: when this binary closes w or dies.
	cmd := exec.Command("sh", "-c", `cat >/dev/null; tmux -L "$1" kill-server 2>/dev/null; rm -f "$2"`,
		"tmuxtest-watch", socket, filepath.Join(socketDir(), socket))
	cmd.Stdin = r
	cmd.SysProcAttr = watcherAttr() // its own group, and it outlives this binary: that is its job
	if err := cmd.Start(); err != nil {
		_ = r.Close()
		_ = w.Close()
		t.Fatalf("tmuxtest: starting the watcher: %v", err)
	}
	_ = r.Close()
	return func() {
		_ = w.Close()
		_ = cmd.Wait()
	}
}

// SocketPath is the file of the session's tmux server socket (removed when
// the test ends).
func (x *Term) SocketPath() string {
	x.t.Helper()
	return strings.TrimSpace(x.Run("display-message", "-p", "#{socket_path}"))
}

// Run runs a tmux command on the private socket, failing the test if it
// fails, and returns its output.
func (x *Term) Run(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Keys sends tmux key names (Enter, Escape, C-s, Down, a).
func (x *Term) Keys(names ...string) {
	x.t.Helper()
	x.Run(append([]string{"send-keys", "-t", session}, names...)...)
}

// Text types s literally.
func (x *Term) Text(s string) {
	x.t.Helper()
	x.Run("send-keys", "-t", session, "-l", s)
}

// Screen is the pane's text now ("" once the session is gone).
func (x *Term) Screen() string {
	out, err := exec.Command("tmux", "-L", x.socket, "capture-pane", "-p", "-t", session).CombinedOutput()
	if err != nil {
		return ""
	}
	return string(out)
}

// WaitFor polls the pane until it shows every text, and returns it.
func (x *Term) WaitFor(texts ...string) string {
	x.t.Helper()
	return x.WaitUntil(fmt.Sprintf("%q", texts), func(s string) bool {
		for _, text := range texts {
			if !strings.Contains(s, text) {
				return false
			}
		}
		return true
	})
}

// WaitGone polls the pane until it no longer shows text.
func (x *Term) WaitGone(text string) {
	x.t.Helper()
	x.WaitUntil(fmt.Sprintf("no %q", text), func(s string) bool { return !strings.Contains(s, text) })
}

// WaitUntil polls the pane until ok accepts it, and returns it.
func (x *Term) WaitUntil(what string, ok func(screen string) bool) string {
	x.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Deadline)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		s := x.Screen()
		if ok(s) {
			return s
		}
		select {
		case <-ctx.Done():
			x.t.Fatalf("the terminal never showed %s:\n%s", what, s)
		case <-tick.C:
		}
	}
}

// WaitExit polls until the session has ended (the program quit).
func (x *Term) WaitExit() {
	x.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Deadline)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for exec.Command("tmux", "-L", x.socket, "has-session", "-t", session).Run() == nil {
		select {
		case <-ctx.Done():
			x.t.Fatalf("the program did not quit:\n%s", x.Screen())
		case <-tick.C:
		}
	}
}
