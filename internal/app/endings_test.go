package app

// Every way mcptui ends — q, ctrl+c, SIGINT, SIGTERM, SIGHUP, a restart,
// its own SIGKILL, a headless result — shuts the server's whole process
// tree down, for every shape of tree real configurations have, and mcptui
// exits with the right status. mcptui is this test binary run as main runs
// it (app.Run on its arguments, nothing else) through a link named mcptui,
// and it runs its own demo server inside trees made of this test binary too
// (see internal/testkit/proctree); the inspector runs in tmux. Every process of a tree, mcptui included,
// carries a unique mark in its environment, and /proc is searched for it.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/testkit/everything"
	"github.com/mcptui/mcptui/internal/testkit/proctree"
	"github.com/mcptui/mcptui/internal/testkit/racechild"
	"github.com/mcptui/mcptui/internal/testkit/tmuxtest"
)

// bin is mcptui for these tests: a link named mcptui to this test binary,
// which runs as mcptui when started by that name (or with asMainEnv set).
// It was a binary built with go build in TestMain, which cost a build of
// the whole program on every run: most of this package's minute under
// -race.
var bin string

// mainName is the name this test binary runs as mcptui by.
const mainName = "mcptui"

// TestMain runs the test binary as a process of a scripted tree
// (proctree), as mcptui itself (by bin's name, or asMainEnv), or as the
// tests.
func TestMain(m *testing.M) {
	proctree.Main()
	if os.Getenv(asMainEnv) != "" || filepath.Base(os.Args[0]) == mainName {
		os.Exit(Run(os.Args[1:], os.Stdout, os.Stderr))
	}
	racechild.NoExitSleep() // mcptui and its demo servers are this binary
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	dir, err := os.MkdirTemp("", "mcptui-endings-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	bin = filepath.Join(dir, mainName)
	if err := os.Symlink(exe, bin); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// grace keeps the runs short: the stages are asserted, not their length.
const grace = "--shutdown-grace=100ms"

// ending is one way for mcptui to end, and the status it must exit with.
type ending struct {
	name   string
	status int
	// act ends mcptui; pid is mcptui's.
	act func(t *testing.T, x *tmuxtest.Term, pid int)
}

func keys(k string) func(*testing.T, *tmuxtest.Term, int) {
	return func(t *testing.T, x *tmuxtest.Term, _ int) { x.Keys(k) }
}

func sendSignal(sig syscall.Signal) func(*testing.T, *tmuxtest.Term, int) {
	return func(t *testing.T, _ *tmuxtest.Term, pid int) {
		if err := signalPID(pid, sig); err != nil {
			t.Fatalf("kill -%d %d: %v", sig, pid, err)
		}
	}
}

var inspectorEndings = []ending{
	{"q", 0, keys("q")},
	{"ctrl+c", 0, keys("C-c")},
	{"SIGINT", 130, sendSignal(syscall.SIGINT)},
	{"SIGTERM", 143, sendSignal(syscall.SIGTERM)},
	{"SIGHUP", 129, sendSignal(syscall.SIGHUP)},
}

// inTree is the mcptui command line that inspects (or runs a headless
// command on) the demo server inside a tree of the role.
func inTree(t *testing.T, role string, mcptuiArgs ...string) []string {
	exe, args := proctree.Command(t, role, bin, "demo-server")
	return append(append(append([]string{bin}, mcptuiArgs...), "--"), append([]string{exe}, args...)...)
}

// shell quotes words for sh.
func shell(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// runInTmux runs the command line in tmux with the mark in its environment
// and returns the terminal and the file its exit status is written to.
func runInTmux(t *testing.T, name string, mark proctree.Mark, argv []string) (*tmuxtest.Term, string) {
	t.Helper()
	status := filepath.Join(t.TempDir(), "status")
	// The shell ignores SIGINT so that a ctrl+c reaches mcptui alone (which
	// catches it again: Go re-enables an ignored SIGINT it is notified of),
	// and survives to write the status.
	line := fmt.Sprintf("trap '' INT; env %s TERM=xterm-256color %s; echo $? > %s", shell(mark.Env()), shell(argv...), shell(status))
	// One tmux server per test: the socket is named after the test.
	unique := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, t.Name())
	x := tmuxtest.Start(t, name+"-"+unique, 120, 40, "sh -c "+shell(line))
	return x, status
}

// mcptuiPID is the pid of the marked mcptui process: the root of the
// marked tree. The demo server is the same binary, so it is called mcptui
// too; it is told apart by its marked parent (the pids' order on /proc,
// sorted as strings, says nothing: 1096 comes before 942).
func mcptuiPID(t *testing.T, mark proctree.Mark) int {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		alive := mark.Alive()
		marked := make(map[int]bool, len(alive))
		for _, p := range alive {
			marked[p.PID] = true
		}
		for _, p := range alive {
			if p.Command == mainName && !marked[p.PPID] {
				return p.PID
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no mcptui process carries the mark: %v", mark.Alive())
	return 0
}

// exitStatus waits for the status file.
func exitStatus(t *testing.T, file string) int {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		b, err := os.ReadFile(file)
		if s, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("no exit status in %s: %v", file, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// treeSize is how many processes a tree of the role has once the demo
// server runs, mcptui not counted.
var treeSize = map[string]int{proctree.Launcher: 2, proctree.Holder: 3, proctree.Daemon: 3, proctree.Stubborn: 2}

func TestInspectorEndings(t *testing.T) {
	tmuxtest.Require(t)
	t.Parallel()
	for _, role := range proctree.Roles {
		for _, e := range inspectorEndings {
			t.Run(role+"/"+e.name, func(t *testing.T) {
				t.Parallel()
				mark := proctree.NewMark(t)
				x, status := runInTmux(t, "end", mark, inTree(t, role, "--no-bell", grace))
				x.WaitFor("● ready")
				mark.WaitAlive(t, treeSize[role]+1)
				e.act(t, x, mcptuiPID(t, mark))
				defer func() {
					// A rare miss (mcptui still running a minute after the
					// signal, at load): say what was left, for the next one.
					if t.Failed() {
						t.Logf("still alive: %+v\nthe terminal:\n%s", mark.Alive(), x.Screen())
					}
				}()
				if got := exitStatus(t, status); got != e.status {
					t.Errorf("mcptui exited with %d, want %d", got, e.status)
				}
				mark.WaitNone(t)
			})
		}
	}
}

// A restart ends the old tree the same way before the new one starts.
func TestInspectorRestartEndsTheOldTree(t *testing.T) {
	tmuxtest.Require(t)
	t.Parallel()
	for _, role := range proctree.Roles {
		t.Run(role, func(t *testing.T) {
			t.Parallel()
			mark := proctree.NewMark(t)
			x, status := runInTmux(t, "restart", mark, inTree(t, role, "--no-bell", grace))
			x.WaitFor("● ready")
			old := mark.WaitAlive(t, treeSize[role]+1)
			root := mcptuiPID(t, mark)
			x.Keys("r")
			x.WaitFor("(restart 1)", "● ready")
			deadline := time.Now().Add(30 * time.Second)
			for {
				var left []proctree.Proc
				for _, p := range mark.Alive() {
					for _, o := range old {
						if p.PID == o.PID && p.PID != root {
							left = append(left, p)
						}
					}
				}
				if len(left) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the old tree outlived the restart: %v", left)
				}
				time.Sleep(20 * time.Millisecond)
			}
			x.Keys("q")
			if got := exitStatus(t, status); got != 0 {
				t.Errorf("mcptui exited with %d, want 0", got)
			}
			mark.WaitNone(t)
		})
	}
}

// The footer says which stage the shutdown is in: with a launcher that
// ignores EOF and SIGTERM and a long grace, it is seen waiting after
// SIGTERM.
func TestInspectorShowsTheShutdownStage(t *testing.T) {
	tmuxtest.Require(t)
	t.Parallel()
	mark := proctree.NewMark(t)
	x, status := runInTmux(t, "stage", mark, inTree(t, proctree.Stubborn, "--no-bell", "--shutdown-grace=3s"))
	x.WaitFor("● ready")
	x.Keys("q")
	x.WaitFor("stopping the server (pid", "SIGTERM sent, waiting")
	if got := exitStatus(t, status); got != 0 {
		t.Errorf("mcptui exited with %d, want 0", got)
	}
	mark.WaitNone(t)
}

// mcptui's own sudden death takes the direct child with it (Linux's
// parent-death signal); the rest of the tree sees stdin's EOF. A child that
// holds stdout and ignores EOF, or a daemon, cannot be reached this way.
func TestInspectorKilledTakesTheServer(t *testing.T) {
	tmuxtest.Require(t)
	t.Parallel()
	for _, role := range []string{proctree.Launcher, proctree.Stubborn} {
		t.Run(role, func(t *testing.T) {
			t.Parallel()
			mark := proctree.NewMark(t)
			x, status := runInTmux(t, "kill", mark, inTree(t, role, "--no-bell", grace))
			x.WaitFor("● ready")
			mark.WaitAlive(t, treeSize[role]+1)
			sendSignal(syscall.SIGKILL)(t, x, mcptuiPID(t, mark))
			if got := exitStatus(t, status); got != 137 {
				t.Errorf("mcptui exited with %d, want 137", got)
			}
			mark.WaitNone(t)
		})
	}
}

// headlessCmd runs a headless command with the mark in its environment.
func headlessCmd(t *testing.T, mark proctree.Mark, argv []string) *exec.Cmd {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), mark.Env())
	return cmd
}

func TestHeadlessResultEndsTheTree(t *testing.T) {
	t.Parallel()
	for _, role := range proctree.Roles {
		t.Run(role, func(t *testing.T) {
			t.Parallel()
			mark := proctree.NewMark(t)
			out, err := headlessCmd(t, mark, inTree(t, role, "call", "echo", "--arg", "message=hi", grace)).Output()
			if err != nil {
				t.Fatalf("mcptui call echo: %v\n%s", err, out)
			}
			if !strings.Contains(string(out), "hi") {
				t.Fatalf("output %s, want the echo", out)
			}
			mark.WaitNone(t)
		})
	}
}

func TestHeadlessSignalsEndTheTree(t *testing.T) {
	t.Parallel()
	sigs := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}
	for _, role := range proctree.Roles {
		for _, sig := range sigs {
			t.Run(role+"/"+sig.String(), func(t *testing.T) {
				t.Parallel()
				mark := proctree.NewMark(t)
				cmd := headlessCmd(t, mark, inTree(t, role, "call", "slow", "--arg", "seconds:=60", grace))
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				mark.WaitAlive(t, treeSize[role]+1)
				_ = cmd.Process.Signal(sig)
				err := cmd.Wait()
				if got := cmd.ProcessState.ExitCode(); got != 128+int(sig) {
					t.Errorf("mcptui exited with %d (%v), want %d", got, err, 128+int(sig))
				}
				mark.WaitNone(t)
			})
		}
	}
}

// A real ctrl+c at the terminal reaches mcptui alone (the server is in a
// process group of its own), and mcptui turns it into a shutdown.
func TestHeadlessCtrlC(t *testing.T) {
	tmuxtest.Require(t)
	t.Parallel()
	for _, role := range proctree.Roles {
		t.Run(role, func(t *testing.T) {
			t.Parallel()
			mark := proctree.NewMark(t)
			x, status := runInTmux(t, "ctrlc", mark, inTree(t, role, "call", "slow", "--arg", "seconds:=60", grace))
			mark.WaitAlive(t, treeSize[role]+1)
			x.Keys("C-c")
			if got := exitStatus(t, status); got != 130 {
				t.Errorf("mcptui exited with %d, want 130", got)
			}
			mark.WaitNone(t)
		})
	}
}

// The README's own command: npx (npm exec → sh → node), ready, q; and a
// headless call through npx. npx finds the package in the test cache's
// node_modules (installed there by the everything helper), so it needs no
// network once installed.
func TestNpxEverything(t *testing.T) {
	tmuxtest.Require(t)
	t.Parallel()
	if _, err := exec.LookPath("npx"); err != nil {
		t.Skip("SKIP: no npx")
	}
	_, args := everything.Server(t)
	dir, _, ok := strings.Cut(args[0], string(filepath.Separator)+"node_modules"+string(filepath.Separator))
	if !ok {
		t.Fatalf("unexpected everything path %s", args[0])
	}
	npx := []string{"--", "npx", "-y", everything.Package, "stdio"}
	t.Run("inspector q", func(t *testing.T) {
		t.Parallel()
		mark := proctree.NewMark(t)
		x, status := runInTmux(t, "npx", mark, append([]string{bin, "--no-bell", "--cwd", dir}, npx...))
		x.WaitFor("● ready")
		x.Keys("q")
		if got := exitStatus(t, status); got != 0 {
			t.Errorf("mcptui exited with %d, want 0", got)
		}
		mark.WaitNone(t)
	})
	t.Run("headless call", func(t *testing.T) {
		t.Parallel()
		mark := proctree.NewMark(t)
		out, err := headlessCmd(t, mark, append([]string{bin, "call", "echo", "--arg", "message=hi", "--cwd", dir}, npx...)).CombinedOutput()
		if err != nil {
			t.Fatalf("mcptui call echo through npx: %v\n%s", err, out)
		}
		mark.WaitNone(t)
	})
	t.Run("headless SIGTERM", func(t *testing.T) {
		t.Parallel()
		mark := proctree.NewMark(t)
		cmd := headlessCmd(t, mark, append([]string{bin, "call", "trigger-long-running-operation",
			"--args", `{"duration":60,"steps":60}`, "--cwd", dir}, npx...))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		mark.WaitAlive(t, 3) // mcptui, npm exec, node at least
		_ = cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		if got := cmd.ProcessState.ExitCode(); got != 143 {
			t.Errorf("mcptui exited with %d, want 143", got)
		}
		mark.WaitNone(t)
	})
}
