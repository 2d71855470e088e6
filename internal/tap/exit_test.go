//go:build unix

package tap

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// outcome is what a host sees of a server process: its stdout and how it
// ended.
type outcome struct {
	stdout string
	code   int
	signal syscall.Signal
}

// runAsHost starts cmd as a host would, waits for a first line on stdout,
// then does act (send a signal, close stdin) and collects the outcome.
func runAsHost(t *testing.T, cmd *exec.Cmd, prime string, act func(p *os.Process, stdin io.WriteCloser)) outcome {
	t.Helper()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if prime != "" {
		if _, err := io.WriteString(stdin, prime); err != nil {
			t.Fatal(err)
		}
	}
	r := bufio.NewReader(stdout)
	first, err := r.ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	if act != nil {
		act(cmd.Process, stdin)
	}
	rest, _ := io.ReadAll(r)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(deadline):
		_ = cmd.Process.Kill()
		t.Fatalf("%s did not end; stderr: %s", cmd.Path, stderr.String())
	}
	o := outcome{stdout: first + string(rest), code: cmd.ProcessState.ExitCode()}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		o.signal = ws.Signal()
	}
	return o
}

// tapCmd is the test binary as mcptui tap in front of the server in role.
func tapCmd(t *testing.T, role string) *exec.Cmd {
	t.Helper()
	command, args := server(t, role)
	cmd := execSelf("tap")
	cmd.Args = append(cmd.Args, append([]string{"--", command}, args...)...)
	cmd.Env = append(cmd.Env, "MCPTUI_TAP_TEST_DIR="+testDir(t))
	return cmd
}

// bareCmd is the server in role as the host would start it without a tap.
func bareCmd(t *testing.T, role string) *exec.Cmd {
	t.Helper()
	command, args := server(t, role)
	return exec.Command(command, args...)
}

// TestEndsLikeTheBareServer: a crash, a death by signal, a signal from the
// host (handled or not) and EOF end the tapped server exactly as they end
// the bare one, as far as the host can see: the same stdout, the same exit
// status or signal.
func TestEndsLikeTheBareServer(t *testing.T) {
	term := func(p *os.Process, _ io.WriteCloser) { _ = p.Signal(syscall.SIGTERM) }
	eof := func(_ *os.Process, stdin io.WriteCloser) { stdin.Close() }
	cases := []struct {
		name, role, prime string
		act               func(*os.Process, io.WriteCloser)
	}{
		{"crash exit 3", "crash", "", nil},
		{"killed by SIGKILL", "selfkill", "", nil},
		{"SIGTERM handled, exit 42", "term", "", term},
		{"SIGTERM default: dies of it", "termdie", "", term},
		{"EOF after a line", "echo", "one\n", eof},
		{"EOF after a request", "lines", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n", eof},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bare := runAsHost(t, bareCmd(t, c.role), c.prime, c.act)
			tapped := runAsHost(t, tapCmd(t, c.role), c.prime, c.act)
			if bare != tapped {
				t.Fatalf("the host saw\n  bare:   %+v\n  tapped: %+v", bare, tapped)
			}
			t.Logf("both: %+v", bare)
		})
	}
}

// TestNothingOutlivesTheTap: a child the server leaves behind is ended
// with the tap.
func TestNothingOutlivesTheTap(t *testing.T) {
	var pid int
	o := runAsHost(t, tapCmd(t, "grandchild"), "", nil)
	if _, err := fmt.Sscan(o.stdout, &pid); err != nil || pid <= 0 {
		t.Fatalf("the server did not say its child's pid: %q", o.stdout)
	}
	end := time.Now().Add(deadline)
	for processAlive(pid) {
		if time.Now().After(end) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the server's child %d outlived the tap", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// processAlive reports whether pid is a live process (a zombie is not).
func processAlive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}
