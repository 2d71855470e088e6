// Package proctree gives end-to-end tests real process trees of the shapes
// that real server configurations have, and a way to see what is left of
// them. A test binary re-executes itself in a role (call Main first in
// TestMain):
//
//	launcher   starts the server and waits for it, exiting with its status
//	           (uvx, npm exec, a wrapper script)
//	holder     starts a child that keeps stdout open and sleeps, then the
//	           server; exits when the server exits (at EOF)
//	daemon     double-forks a daemon (setsid, so out of the process group)
//	           that keeps stdout open and ignores SIGTERM, then starts the
//	           server and waits for it
//	stubborn   ignores SIGTERM, SIGINT and SIGHUP, starts the server, and
//	           keeps running after the server exits: only SIGKILL ends it
//
// Every process of a tree carries a Mark in its environment; Alive scans
// /proc for it, independently of the code under test.
package proctree

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The roles; see the package documentation.
const (
	Launcher = "launcher"
	Holder   = "holder"
	Daemon   = "daemon"
	Stubborn = "stubborn"
)

// Roles are all the tree shapes, for table tests.
var Roles = []string{Launcher, Holder, Daemon, Stubborn}

// Internal roles of the helpers a tree is made of.
const (
	sleeper    = "sleeper"      // sleeps until killed
	hardSleep  = "hard-sleeper" // sleeps, ignoring SIGTERM, SIGINT and SIGHUP
	daemonizer = "daemonizer"   // starts a hard sleeper in a new session and exits
)

// flag is the first argument that selects a role.
const flag = "-proctree="

// watchdog ends every helper eventually, so that a failing test cannot leave
// one behind for long.
const watchdog = 5 * time.Minute

// Main runs the role this process was started in, if any, and exits with
// its status; otherwise it returns. Call it first in TestMain.
func Main() {
	if len(os.Args) < 2 || !strings.HasPrefix(os.Args[1], flag) {
		return
	}
	time.AfterFunc(watchdog, func() { os.Exit(98) })
	os.Exit(run(strings.TrimPrefix(os.Args[1], flag), os.Args[2:]))
}

// Command is the command line that runs server inside a tree of the role:
// this test binary, re-executed.
func Command(t testing.TB, role string, server ...string) (string, []string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatalf("proctree: %v", err)
	}
	exe, _ = filepath.Abs(exe)
	return exe, append([]string{flag + role}, server...)
}

func run(role string, server []string) int {
	switch role {
	case sleeper:
		select {}
	case hardSleep:
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
		select {}
	case daemonizer:
		cmd := helper(hardSleep)
		newSession(cmd)
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "proctree daemonizer:", err)
			return 1
		}
		return 0
	case Launcher:
		return serve(server)
	case Holder:
		if err := helper(sleeper).Start(); err != nil {
			fmt.Fprintln(os.Stderr, "proctree holder:", err)
			return 1
		}
		return serve(server)
	case Daemon:
		if err := helper(daemonizer).Run(); err != nil {
			fmt.Fprintln(os.Stderr, "proctree daemon:", err)
			return 1
		}
		return serve(server)
	case Stubborn:
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
		serve(server)
		select {}
	}
	fmt.Fprintln(os.Stderr, "proctree: unknown role", role)
	return 2
}

// helper is this binary in an internal role, keeping stdout and stderr (not
// stdin: it never sees EOF).
func helper(role string) *exec.Cmd {
	exe, _ := os.Executable()
	cmd := exec.Command(exe, flag+role)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	return cmd
}

// serve runs the server on our stdio and returns its exit status.
func serve(server []string) int {
	if len(server) == 0 {
		fmt.Fprintln(os.Stderr, "proctree: no server command")
		return 2
	}
	cmd := exec.Command(server[0], server[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "proctree:", err)
		return 1
	}
	return 0
}

// Mark is an environment variable unique to one tree.
type Mark struct{ Name, Value string }

// markName is the variable a tree's processes carry. Its value is
// RANDOM.PID.START: a random part, then the test binary that made it, by
// pid and start time (a pid alone may have been reused).
const markName = "PROCTREE_MARK"

// NewMark is a fresh mark; when the test ends, any process still carrying
// it is killed (after the test had its chance to see it). It first kills
// the processes of trees whose test binary is gone: a binary killed
// before its cleanup ran (a go test timeout) left them, and a daemon of
// the tree, out of its group and ignoring SIGTERM, would otherwise live
// on until its watchdog.
func NewMark(t testing.TB) Mark {
	SweepOrphans()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	m := Mark{Name: markName, Value: hex.EncodeToString(b) + "." + owner(os.Getpid())}
	t.Cleanup(func() {
		for _, p := range m.Alive() {
			kill(p.PID)
		}
	})
	return m
}

// owner is PID.START for a live process, or "" when it is gone.
func owner(pid int) string {
	start, ok := startTime(fmt.Sprintf("/proc/%d", pid))
	if !ok {
		return strconv.Itoa(pid) + ".0"
	}
	return strconv.Itoa(pid) + "." + start
}

// SweepOrphans kills every process that carries a mark whose test binary
// is no longer running, and returns them. (Where there is no /proc, it
// finds none.)
func SweepOrphans() []Proc {
	prefix := []byte(markName + "=")
	names, _ := filepath.Glob("/proc/[0-9]*")
	var killed []Proc
	for _, dir := range names {
		env, err := os.ReadFile(dir + "/environ")
		if err != nil {
			continue
		}
		for kv := range bytes.SplitSeq(env, []byte{0}) {
			value, ok := bytes.CutPrefix(kv, prefix)
			if !ok {
				continue
			}
			parts := strings.Split(string(value), ".")
			if len(parts) != 3 {
				break // a mark of an older kit: its owner is unknown
			}
			pid, err := strconv.Atoi(parts[1])
			if err != nil || owner(pid) == parts[1]+"."+parts[2] {
				break // its test binary still runs
			}
			if p, state, ok := stat(dir); ok && state != 'Z' && state != 'X' {
				kill(p.PID)
				killed = append(killed, p)
			}
			break
		}
	}
	return killed
}

// Env is NAME=VALUE.
func (m Mark) Env() string { return m.Name + "=" + m.Value }

// Proc is one running process.
type Proc struct {
	PID, PPID, PGID int
	Command         string
}

func (p Proc) String() string {
	return fmt.Sprintf("pid %d ppid %d pgid %d %s", p.PID, p.PPID, p.PGID, p.Command)
}

// Alive lists the running processes (zombies excluded) whose environment
// carries the mark.
func (m Mark) Alive() []Proc {
	want := []byte(m.Env())
	names, _ := filepath.Glob("/proc/[0-9]*")
	var out []Proc
	for _, dir := range names {
		env, err := os.ReadFile(dir + "/environ")
		if err != nil || !hasVar(env, want) {
			continue
		}
		p, state, ok := stat(dir)
		if ok && state != 'Z' && state != 'X' {
			out = append(out, p)
		}
	}
	return out
}

func hasVar(env, want []byte) bool {
	for kv := range bytes.SplitSeq(env, []byte{0}) {
		if bytes.Equal(kv, want) {
			return true
		}
	}
	return false
}

// stat reads /proc/<pid>/stat.
func stat(dir string) (Proc, byte, bool) {
	b, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return Proc{}, 0, false
	}
	open, closing := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || closing < open {
		return Proc{}, 0, false
	}
	f := bytes.Fields(b[closing+1:])
	if len(f) < 3 {
		return Proc{}, 0, false
	}
	pid, _ := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	ppid, _ := strconv.Atoi(string(f[1]))
	pgid, _ := strconv.Atoi(string(f[2]))
	return Proc{PID: pid, PPID: ppid, PGID: pgid, Command: string(b[open+1 : closing])}, f[0][0], true
}

// startTime is the start time of the process of /proc/<pid> (in clock
// ticks since boot), as text.
func startTime(dir string) (string, bool) {
	b, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return "", false
	}
	closing := bytes.LastIndexByte(b, ')')
	if closing < 0 {
		return "", false
	}
	f := bytes.Fields(b[closing+1:])
	if len(f) < 20 || f[0][0] == 'Z' || f[0][0] == 'X' {
		return "", false
	}
	return string(f[19]), true
}

// WaitAlive waits until at least n processes carry the mark and returns
// them.
func (m Mark) WaitAlive(t testing.TB, n int) []Proc {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		ps := m.Alive()
		if len(ps) >= n {
			return ps
		}
		if time.Now().After(deadline) {
			t.Fatalf("proctree: %d processes of the tree running, want %d: %v", len(ps), n, ps)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// WaitNone waits until no process carries the mark; it fails the test,
// naming those left, if some still run after a generous deadline (a process
// that was killed takes a moment to go).
func (m Mark) WaitNone(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ps := m.Alive()
		if len(ps) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes of the server's tree outlived it: %v", ps)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
