//go:build unix

package tap

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
)

// forwarded are the signals a tap passes on to its server.
var forwarded = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT,
	syscall.SIGUSR1, syscall.SIGUSR2}

// tree is the server's process group, which the server leads.
type tree struct{ pid int }

// resolve leaves cmd as exec.Command made it: PATH, no PATHEXT.
func resolve(*exec.Cmd, string, []string) error { return nil }

// own starts cmd (serverAttr put it in a group of its own).
func own(cmd *exec.Cmd) (tree, error) {
	if err := cmd.Start(); err != nil {
		return tree{}, err
	}
	return tree{pid: cmd.Process.Pid}, nil
}

// forward sends the server a signal the tap got.
func (t tree) forward(sig os.Signal, _ func(string)) {
	if s, ok := sig.(syscall.Signal); ok {
		_ = syscall.Kill(t.pid, s)
	}
}

// stop asks the server to exit: SIGTERM.
func (t tree) stop(func()) { _ = syscall.Kill(t.pid, syscall.SIGTERM) }

// kill ends the server's whole group.
func (t tree) kill() { _ = syscall.Kill(-t.pid, syscall.SIGKILL) }

// release has nothing to let go of.
func (t tree) release() {}

// reraise ends the tap by sig, as its server ended; it returns only if
// that did not end it.
func reraise(sig syscall.Signal) {
	signal.Reset(sig)
	_ = syscall.Kill(os.Getpid(), sig)
}

// runtimeDir is $XDG_RUNTIME_DIR/mcptui, or /tmp/mcptui-UID.
func runtimeDir() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "mcptui")
	}
	return filepath.Join(os.TempDir(), "mcptui-"+strconv.Itoa(os.Getuid()))
}

// makeDir creates dir for this user alone.
func makeDir(dir string) error { return os.Mkdir(dir, 0o700) }

// checkOwner refuses a directory another user owns or others may enter.
func checkOwner(dir string, fi os.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("tap: runtime dir %s belongs to uid %d, not to this user (%d)", dir, st.Uid, os.Getuid())
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("tap: runtime dir %s is open to others (%04o; want 0700)", dir, perm)
	}
	return nil
}

// restrict makes the socket the owner's alone.
func restrict(path string) error { return os.Chmod(path, 0o600) }
