//go:build unix

package conn_test

// Process trees: the server leads its own process group, its exit is noticed
// whatever holds its stdout, Shutdown ends every shape of tree that real
// configurations have (launchers, a child holding stdout, a setsid daemon,
// a launcher that ignores EOF and SIGTERM), and mcptui's own death takes
// the direct child with it.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/testkit/proctree"
)

// stages records the shutdown stages told to OnShutdownStage.
type stages struct {
	mu   sync.Mutex
	seen []conn.ShutdownStage
}

func (s *stages) add(st conn.ShutdownStage) {
	s.mu.Lock()
	s.seen = append(s.seen, st)
	s.mu.Unlock()
}

func (s *stages) all() []conn.ShutdownStage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.seen)
}

// startTree dials the fake server inside a tree of the role, every process
// of it marked.
func startTree(t *testing.T, role string, st *stages, serverArgs ...string) (*harness, proctree.Mark) {
	t.Helper()
	return startTreeWith(t, role, st, nil, serverArgs...)
}

// startTreeWith is startTree with onNote as the OnNotification handler.
func startTreeWith(t *testing.T, role string, st *stages, onNote func(conn.Notification), serverArgs ...string) (*harness, proctree.Mark) {
	t.Helper()
	mark := proctree.NewMark(t)
	value := mark.Value
	exe, args := proctree.Command(t, role, append([]string{fakeExe}, serverArgs...)...)
	h := &harness{t: t, events: &watch[conn.Event]{}, notes: &watch[conn.Notification]{}, stderr: &textWatch{}, grace: 5 * time.Second}
	opts := conn.Options{
		Env:    []conn.EnvVar{{Name: mark.Name, Value: &value}},
		Stderr: h.stderr,
		Observer: func(e conn.Event) {
			if e.Line != nil {
				e.Line = slices.Clone(e.Line)
			}
			h.events.add(e)
		},
		OnShutdownStage: st.add,
		OnNotification: func(n conn.Notification) {
			h.notes.add(n)
			if onNote != nil {
				onNote(n)
			}
		},
	}
	c, err := conn.Dial(context.Background(), exe, args, opts)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	h.c = c
	t.Cleanup(func() { h.shutdown() })
	return h, mark
}

func TestShutdownProcessTrees(t *testing.T) {
	t.Parallel()
	const grace = 200 * time.Millisecond
	cases := []struct {
		role   string
		procs  int // processes of the tree once it is up
		signal syscall.Signal
		strays int
		stages []conn.ShutdownStage
	}{
		{proctree.Launcher, 2, 0, 0, []conn.ShutdownStage{conn.StageClosing, conn.StageWaiting, conn.StageDone}},
		{proctree.Holder, 3, syscall.SIGTERM, 0, []conn.ShutdownStage{conn.StageClosing, conn.StageWaiting, conn.StageTerminating, conn.StageDone}},
		{proctree.Daemon, 3, syscall.SIGKILL, 1, []conn.ShutdownStage{conn.StageClosing, conn.StageWaiting, conn.StageTerminating, conn.StageKilling, conn.StageDone}},
		{proctree.Stubborn, 2, syscall.SIGKILL, 0, []conn.ShutdownStage{conn.StageClosing, conn.StageWaiting, conn.StageTerminating, conn.StageKilling, conn.StageDone}},
	}
	for _, tc := range cases {
		t.Run(tc.role, func(t *testing.T) {
			t.Parallel()
			st := &stages{}
			h, mark := startTree(t, tc.role, st)
			h.ping()
			tree := mark.WaitAlive(t, tc.procs)
			for _, p := range tree {
				if p.PGID == syscall.Getpgrp() {
					t.Errorf("%v shares the test's process group", p)
				}
			}
			err := h.c.Shutdown(grace)
			if got := st.all(); !slices.Equal(got, tc.stages) {
				t.Errorf("stages %v, want %v", got, tc.stages)
			}
			var se *conn.ShutdownError
			switch {
			case tc.signal == 0 && err != nil:
				t.Errorf("Shutdown: %v, want nil (the tree exits at EOF)", err)
			case tc.signal != 0 && !errors.As(err, &se):
				t.Errorf("Shutdown: %v, want a *conn.ShutdownError", err)
			case tc.signal != 0 && se.Signal != tc.signal:
				t.Errorf("Shutdown: %v, want the last signal to be %v", err, tc.signal)
			case tc.signal != 0 && len(se.Strays) != tc.strays:
				t.Errorf("Shutdown: %v, want %d strays named", err, tc.strays)
			}
			if tc.strays > 0 && se != nil && !strings.Contains(err.Error(), "pid "+strconv.Itoa(se.Strays[0].PID)) {
				t.Errorf("Shutdown: %v, want the stray named by its pid", err)
			}
			closed(t, h.c.Done(), "Done")
			if len(h.eventsOf(conn.Exited)) != 1 {
				t.Errorf("want one Exited event before Shutdown returned")
			}
			mark.WaitNone(t)
		})
	}
}

// The server's exit is noticed on its own: a child that keeps stdout open
// does not keep the connection up, nor hide the exit status.
func TestExitNoticedWhileChildHoldsStdout(t *testing.T) {
	t.Parallel()
	h, mark := startTree(t, proctree.Holder, &stages{})
	h.ping()
	mark.WaitAlive(t, 3)
	_, err := h.call("exit/3", nil)
	wantErr(t, err, conn.CodeConnection, "The stdio server exited")
	if got := exitCode(err); got != 3 {
		t.Fatalf("exit status %d in %v, want 3", got, err)
	}
	if n := len(mark.Alive()); n == 0 {
		t.Fatal("the child holding stdout is gone already: the test proves nothing")
	}
	h.c.Shutdown(50 * time.Millisecond)
	mark.WaitNone(t)
}

// Shutdown answers the server's open question with an error saying the
// client is going away, and cancels the client's request in flight, before
// stdin's EOF.
func TestShutdownSaysGoodbye(t *testing.T) {
	t.Parallel()
	asked := make(chan struct{})
	h := start(t, conn.Options{OnServerRequest: func(ctx context.Context, req *conn.Request) (json.RawMessage, error) {
		close(asked)
		<-ctx.Done()
		return nil, ctx.Err()
	}})
	go h.call("ask", map[string]string{"line": `{"jsonrpc":"2.0","id":"s1","method":"roots/list"}`})
	recv(t, asked, "the server's question")
	h.c.Shutdown(waitTimeout)
	var answered, cancelled bool
	for _, e := range h.eventsOf(conn.Sent) {
		line := string(e.Line)
		answered = answered || strings.Contains(line, `"id":"s1"`) && strings.Contains(line, "The client is shutting down")
		cancelled = cancelled || strings.Contains(line, "notifications/cancelled") && strings.Contains(line, "The client is shutting down")
	}
	if !answered || !cancelled {
		t.Fatalf("answered the question %v, cancelled the call %v; want both; sent:\n%s", answered, cancelled, dump(h.eventsOf(conn.Sent)))
	}
}

// The direct child is SIGKILLed by the kernel when the program that dialed
// it dies without shutting it down, even after the thread that called Dial
// (and many others) ended: the parent-death signal follows the thread that
// forked, and conn forks from a thread of its own.
func TestParentDeathKillsServer(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("SKIP: the parent-death signal is Linux's")
	}
	mark := proctree.NewMark(t)
	cmd := exec.Command(fakeExe, "orphan")
	cmd.Env = append(os.Environ(), roleEnv+"=dialer", mark.Env())
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if !strings.HasPrefix(line, "alive ") {
		cmd.Process.Kill()
		t.Fatalf("the dialer said %q (%v), want alive <pid>", line, err)
	}
	if n := len(mark.Alive()); n < 2 {
		t.Fatalf("%d marked processes, want the dialer and its server", n)
	}
	cmd.Process.Kill()
	cmd.Wait()
	mark.WaitNone(t)
}
