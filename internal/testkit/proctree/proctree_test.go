//go:build linux

package proctree

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	Main()
	os.Exit(m.Run())
}

// helperEnv makes the test binary a run that starts a daemon tree (its
// hard sleeper out of the group, deaf to SIGTERM), prints its mark and
// waits to be killed (reading its stdin, which the test holds open).
const helperEnv = "PROCTREE_TEST_HELPER"

// TestHelperTree is the helper, run only with helperEnv set.
func TestHelperTree(t *testing.T) {
	if os.Getenv(helperEnv) == "" {
		t.Skip("the helper of TestKilledRunsTreeIsSwept")
	}
	m := NewMark(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	command, args := Command(t, Daemon, exe, flag+sleeper)
	cmd := exec.Command(command, args...)
	cmd.Env = append(os.Environ(), m.Env())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	m.WaitAlive(t, 3) // the daemon role, its server, the daemon
	fmt.Println(m.Env())
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// TestKilledRunsTreeIsSwept: a test binary killed mid-test (as a go test
// timeout kills it) runs no cleanup, and the daemon of its tree, in a
// session of its own and deaf to SIGTERM, lives on; the next NewMark kills
// it, and every process left of that tree, and nothing of a run that
// still goes on.
func TestKilledRunsTreeIsSwept(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestHelperTree$", "-test.v=false")
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	name, value, ok := strings.Cut(strings.TrimSpace(line), "=")
	if err != nil || !ok || name != markName {
		_ = cmd.Process.Kill()
		t.Fatalf("the helper said %q (%v)", line, err)
	}
	left := Mark{Name: name, Value: value}
	t.Cleanup(func() {
		for _, p := range left.Alive() {
			kill(p.PID)
		}
	})
	mine := NewMark(t) // a run that goes on: the sweep must spare it
	if ps := left.Alive(); len(ps) < 3 {
		t.Fatalf("the helper's tree was swept while the helper ran: %v", ps)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	// The binary is gone; its daemon is not.
	if ps := left.Alive(); len(ps) == 0 {
		t.Fatal("nothing of the killed run's tree is left: the test shows nothing")
	}
	own := exec.Command(exe, flag+sleeper)
	own.Env = append(os.Environ(), mine.Env())
	if err := own.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = own.Process.Kill(); _ = own.Wait() })
	NewMark(t)
	left.WaitNone(t)
	if ps := mine.Alive(); len(ps) != 1 {
		t.Errorf("the sweep killed a running test's process: %v alive, want 1", ps)
	}
}
