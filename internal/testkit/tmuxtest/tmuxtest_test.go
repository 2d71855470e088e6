package tmuxtest

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestCleanupRemovesTheSocket: a finished test leaves no tmux socket file
// behind (the e2e suites start hundreds of servers; their files piled up in
// /tmp/tmux-UID).
func TestCleanupRemovesTheSocket(t *testing.T) {
	Require(t)
	var path string
	t.Run("term", func(t *testing.T) {
		x := Start(t, "cleanup", 40, 10, "sleep 600")
		path = x.SocketPath()
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("the socket %s is not there while the session runs: %v", path, err)
		}
	})
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the socket %s is still there after the test ended (stat: %v)", path, err)
	}
}

// helperEnv makes the test binary a program that starts a session on the
// socket named by its value, prints "ready" and waits to be killed.
const helperEnv = "TMUXTEST_HELPER_SOCKET_NAME"

// TestHelperSession is the helper, run only with helperEnv set.
func TestHelperSession(t *testing.T) {
	name := os.Getenv(helperEnv)
	if name == "" {
		t.Skip("the helper of TestKilledBinaryLeavesNoServer")
	}
	Start(t, name, 40, 10, "sleep 600")
	fmt.Println("ready")
	select {}
}

// serverRuns reports whether a tmux server answers on the -L socket name.
func serverRuns(socket string) bool {
	return exec.Command("tmux", "-L", socket, "list-sessions").Run() == nil
}

// waitNoServer waits, with a generous deadline, until no tmux server
// answers on socket and its file is gone.
func waitNoServer(t *testing.T, socket string) {
	t.Helper()
	deadline := time.Now().Add(Deadline)
	for serverRuns(socket) || fileExists(filepath.Join(socketDir(), socket)) {
		if time.Now().After(deadline) {
			t.Fatalf("the tmux server on %s still runs %v after its test binary was killed", socket, Deadline)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestKilledBinaryLeavesNoServer: a test binary killed mid-test (as a go
// test timeout kills it) does not leave its tmux server running: before,
// TestNpxEverything's session, the mcptui under test and its server ran on
// for hours after such a run.
func TestKilledBinaryLeavesNoServer(t *testing.T) {
	Require(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestHelperSession$", "-test.v=false")
	cmd.Env = append(os.Environ(), helperEnv+"=killed")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "ready\n" {
		_ = cmd.Process.Kill()
		t.Fatalf("the helper said %q (%v)", line, err)
	}
	socket := fmt.Sprintf("%skilled-%d", socketPrefix, cmd.Process.Pid)
	if !serverRuns(socket) {
		_ = cmd.Process.Kill()
		t.Fatalf("no tmux server on %s while the helper runs", socket)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	waitNoServer(t, socket)
}

// TestStartEndsServersOfDeadRuns: a server left by a run whose binary is
// gone and that had no watcher (a run before the watchers, a killed
// watcher) is ended by the next Start.
func TestStartEndsServersOfDeadRuns(t *testing.T) {
	Require(t)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	socket := fmt.Sprintf("%sleft-%d", socketPrefix, dead.Process.Pid)
	if out, err := exec.Command("tmux", "-L", socket, "new-session", "-d", "-s", session, "sleep 600").CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", socket, "kill-server").Run() })
	Start(t, "sweeper", 40, 10, "sleep 600")
	waitNoServer(t, socket)
}
