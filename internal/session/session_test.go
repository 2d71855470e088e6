package session

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/demo"
	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/internal/testkit/proctree"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// The test binary re-executes itself as the demo server when this is set.
const roleEnv = "SESSION_TEST_DEMO_SERVER"

const waitTimeout = 20 * time.Second

func TestMain(m *testing.M) {
	if os.Getenv(floodEnv) == "1" {
		os.Exit(floodServer())
	}
	proctree.Main()
	if os.Getenv(roleEnv) == "1" {
		if err := demo.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	// A race-enabled child would otherwise sleep a second before exiting,
	// past the shutdown grace.
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Exit(m.Run())
}

// harness is a session on the demo server and the events it produced.
type harness struct {
	t      *testing.T
	s      *Session
	events []model.Event
}

func start(t *testing.T, versions ...string) *harness {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(roleEnv, "1")
	s, err := Start(context.Background(), Config{
		Command: exe,
		MCP:     mcp.Options{Versions: versions},
		Inbox:   inbox.New(inbox.Limits{}),
	})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, s: s}
	t.Cleanup(func() {
		if err := s.Shutdown(context.Background()); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
	})
	return h
}

// waitFor reads events until one satisfies match, and returns it.
func waitFor[T model.Event](h *harness, what string, match func(T) bool) T {
	h.t.Helper()
	for _, ev := range h.events {
		if e, ok := ev.(T); ok && match(e) {
			return e
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	for {
		batch, err := h.s.Next(ctx)
		if err != nil {
			h.t.Fatalf("waiting for %s: %v", what, err)
		}
		h.events = append(h.events, batch...)
		for _, ev := range batch {
			if e, ok := ev.(T); ok && match(e) {
				return e
			}
		}
	}
}

func anyOf[T any](T) bool { return true }

func TestStartReportsTheServerAndItsTraffic(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		t.Run("version="+version, func(t *testing.T) {
			var versions []string
			if version != "" {
				versions = []string{version}
			}
			h := start(t, versions...)
			waitFor(h, "Started", anyOf[model.Started])
			ready := waitFor(h, "Ready", anyOf[model.Ready])
			want := version
			if want == "" {
				want = "2026-07-28"
			}
			if ready.ServerName != "mcptui-demo" || ready.Protocol != want || ready.PID == 0 {
				t.Fatalf("Ready = %+v, want the demo on %s", ready, want)
			}
			waitFor(h, "the first line sent", func(w model.Wire) bool { return w.Dir == model.Out })
			waitFor(h, "a stderr line", anyOf[model.Stderr])
		})
	}
}

// TestQuestionsWaitForAPerson: a tool that asks for sampling parks the
// question until Answer, and the tool's result reflects the answer.
func TestQuestionsWaitForAPerson(t *testing.T) {
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			h := start(t, version)
			waitFor(h, "Ready", anyOf[model.Ready])
			type outcome struct {
				res json.RawMessage
				err error
			}
			done := make(chan outcome, 1)
			go func() {
				res, err := h.s.Send(context.Background(), "tools/call",
					json.RawMessage(`{"name":"sample","arguments":{"prompt":"Say hi"}}`), 0)
				done <- outcome{res, err}
			}()
			q := waitFor(h, "the sampling question", func(q model.QuestionAsked) bool {
				return q.Method == "sampling/createMessage"
			})
			ref := model.QuestionRef{Gen: 1, RequestID: q.RequestID, InputKey: q.Key}
			answer := `{"role":"assistant","content":{"type":"text","text":"typed by hand 42"},"model":"person","stopReason":"endTurn"}`
			if err := h.s.Answer(context.Background(), ref, json.RawMessage(answer)); err != nil {
				t.Fatal(err)
			}
			select {
			case o := <-done:
				if o.err != nil || !strings.Contains(string(o.res), "typed by hand 42") {
					t.Fatalf("tool result %s, %v; want it to carry the typed reply", o.res, o.err)
				}
			case <-time.After(waitTimeout):
				t.Fatal("the tool never answered")
			}
			if err := h.s.Answer(context.Background(), ref, json.RawMessage(answer)); err == nil {
				t.Fatal("answering twice succeeded")
			}
		})
	}
}

// TestCancelStopsARequestTheServerWasWorkingOn cancels the slow tool by its
// wire id, and a second request sees its timer extended.
func TestCancelAndExtend(t *testing.T) {
	h := start(t)
	waitFor(h, "Ready", anyOf[model.Ready])
	errs := make(chan error, 1)
	go func() {
		_, err := h.s.Send(context.Background(), "tools/call", json.RawMessage(`{"name":"slow","arguments":{"seconds":60}}`), time.Hour)
		errs <- err
	}()
	opts := waitFor(h, "the call's options", anyOf[model.CallOptions])
	if opts.Timeout != time.Hour {
		t.Fatalf("CallOptions.Timeout = %v, want 1h", opts.Timeout)
	}
	if err := h.s.Extend(context.Background(), opts.ID, time.Minute); err != nil {
		t.Fatalf("Extend: %v", err)
	}
	if err := h.s.Cancel(context.Background(), opts.ID); err != nil {
		t.Fatalf("Cancel: %v", err)
	}
	select {
	case err := <-errs:
		if err == nil {
			t.Fatal("a cancelled call returned a result")
		}
	case <-time.After(waitTimeout):
		t.Fatal("the cancelled call never returned")
	}
	waitFor(h, "the cancellation on the wire", func(w model.Wire) bool {
		return w.Dir == model.Out && strings.Contains(string(w.Line), `"notifications/cancelled"`)
	})
	if err := h.s.Cancel(context.Background(), opts.ID); err == nil {
		t.Fatal("cancelling a finished call succeeded")
	}
}

// TestRestartStartsANewGeneration: a restart stops the old process and
// starts a new one, reported as a second Started and Ready.
func TestRestartStartsANewGeneration(t *testing.T) {
	h := start(t)
	first := waitFor(h, "Ready", anyOf[model.Ready])
	if err := h.s.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	second := waitFor(h, "a second Ready", func(r model.Ready) bool { return r.PID != first.PID })
	if second.ServerName != "mcptui-demo" {
		t.Fatalf("after restart: %+v", second)
	}
	waitFor(h, "the old process's exit", anyOf[model.Exited])
}

// TestFailureIsAnEvent: a command that does not exist is reported, not
// fatal.
func TestFailureIsAnEvent(t *testing.T) {
	in := inbox.New(inbox.Limits{})
	s, err := Start(context.Background(), Config{Command: "/nonexistent/mcp-server", Inbox: in})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	h := &harness{t: t, s: s}
	f := waitFor(h, "Failed", anyOf[model.Failed])
	if !strings.Contains(f.Err, "Executable not found: /nonexistent/mcp-server") {
		t.Fatalf("Failed.Err = %q", f.Err)
	}
}
