package session

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/model"
)

// TestEveryEventCarriesItsGeneration: after a restart, everything of the
// first process is stamped 1 and everything of the second 2, so a late exit
// of the first cannot end the second.
func TestEveryEventCarriesItsGeneration(t *testing.T) {
	h := start(t)
	waitFor(h, "Ready", func(r model.Ready) bool { return r.Gen == 1 })
	if err := h.s.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitFor(h, "the second Ready", func(r model.Ready) bool { return r.Gen == 2 })
	exit := waitFor(h, "the first process's exit", anyOf[model.Exited])
	if exit.Gen != 1 {
		t.Errorf("the first process's exit is stamped %d", exit.Gen)
	}
	sess := model.New(model.Config{})
	for _, ev := range h.events {
		switch e := ev.(type) {
		case model.Wire:
			if e.Gen != 1 && e.Gen != 2 {
				t.Errorf("line stamped %d: %s", e.Gen, e.Line)
			}
		case model.Stderr:
			if e.Gen != 1 && e.Gen != 2 {
				t.Errorf("stderr stamped %d: %s", e.Gen, e.Line)
			}
		}
		sess.Apply(ev)
	}
	if c := sess.Conn(); c.Phase != model.PhaseReady || c.Gen != 2 {
		t.Errorf("after the restart the model says %+v", c)
	}
}

// TestCallHonoursTheRequestsOptions: a composed call with its own timeout
// and progress reports them to the model, and progress arrives.
func TestCallHonoursTheRequestsOptions(t *testing.T) {
	h := start(t)
	waitFor(h, "Ready", anyOf[model.Ready])
	res, err := h.s.Call(context.Background(), backend.CallRequest{
		Method: "tools/call", Params: json.RawMessage(`{"name":"progress","arguments":{"steps":3,"intervalMs":1}}`),
		Timeout: 42 * time.Second, Progress: true, ResetOnProgress: true,
	})
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	if !strings.Contains(string(res), "content") {
		t.Errorf("result %s", res)
	}
	opts := waitFor(h, "the call's options", anyOf[model.CallOptions])
	if opts.Timeout != 42*time.Second || !opts.ResetOnProgress || opts.Gen != 1 {
		t.Errorf("CallOptions = %+v", opts)
	}
	waitFor(h, "a progress notification", func(w model.Wire) bool {
		return w.Dir == model.In && strings.Contains(string(w.Line), `"notifications/progress"`)
	})

	// Without progress, no token is sent; with no timeout, no timer.
	if _, err := h.s.Call(context.Background(), backend.CallRequest{Method: "tools/list", Timeout: -1}); err != nil {
		t.Fatal(err)
	}
	list := waitFor(h, "tools/list on the wire", func(w model.Wire) bool {
		return w.Dir == model.Out && strings.Contains(string(w.Line), `"tools/list"`)
	})
	if strings.Contains(string(list.Line), "progressToken") {
		t.Errorf("a call without progress asked for it: %s", list.Line)
	}
	o2 := waitFor(h, "the second call's options", func(o model.CallOptions) bool { return string(o.ID) != string(opts.ID) })
	if o2.Timeout != 0 {
		t.Errorf("a call without a timer shows %v", o2.Timeout)
	}
}

// TestListenAndClose opens a subscription to demo://counter on both eras,
// sees an event after bump, and closes it.
func TestListenAndClose(t *testing.T) {
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			h := start(t, version)
			waitFor(h, "Ready", anyOf[model.Ready])
			res, err := h.s.Resources(context.Background())
			if err != nil || len(res) == 0 {
				t.Fatalf("Resources = %v, %v", res, err)
			}
			id, err := h.s.Listen(context.Background(), backend.ListenRequest{ToolsListChanged: true, Resources: []string{"demo://counter"}})
			if err != nil {
				t.Fatalf("Listen: %v", err)
			}
			if _, err := h.s.Send(context.Background(), "tools/call", json.RawMessage(`{"name":"bump","arguments":{}}`), 0); err != nil {
				t.Fatal(err)
			}
			sess := model.New(model.Config{})
			sub := func() *model.Subscription {
				sess.ApplyAll(h.events)
				h.events = nil
				for _, s := range sess.Subscriptions() {
					if string(s.ID) == string(id) {
						return s
					}
				}
				return nil
			}
			waitFor(h, "the update", func(ev model.Event) bool {
				switch e := ev.(type) {
				case model.SubscriptionEvent:
					return true
				case model.Wire:
					return strings.Contains(string(e.Line), "notifications/resources/updated") && strings.Contains(string(e.Line), "subscriptionId")
				}
				return false
			})
			s := sub()
			if s == nil || !s.Open || s.Events != 1 || s.Accepted == nil || !strings.Contains(string(s.Asked), "demo://counter") {
				t.Fatalf("subscription %+v", s)
			}
			t.Logf("subscription %s: asked %s accepted %s, %d events, last %s %s", s.ID, s.Asked, s.Accepted, s.Events, s.LastMethod, s.LastSummary)
			if err := h.s.CloseSubscription(context.Background(), id); err != nil {
				t.Fatal(err)
			}
			waitFor(h, "the end of the subscription", func(ev model.Event) bool {
				switch e := ev.(type) {
				case model.SubscriptionEnded:
					return true
				case model.Wire:
					return e.Dir == model.Out && strings.Contains(string(e.Line), "notifications/cancelled")
				}
				return false
			})
			if s := sub(); s.Open {
				t.Errorf("still open after close: %+v", s)
			}
			if err := h.s.CloseSubscription(context.Background(), id); err == nil {
				t.Error("closing twice succeeded")
			}
		})
	}
}

// TestQuestionDiesWithTheConnection: a question parked when the server
// stops (a restart) ends with that connection: as dead with it, or as
// withdrawn, since the shutdown cancels the call the question belongs to
// and a server may withdraw its question before it exits. It never stays
// waiting.
func TestQuestionDiesWithTheConnection(t *testing.T) {
	h := start(t, "2025-11-25")
	waitFor(h, "Ready", anyOf[model.Ready])
	go func() {
		_, _ = h.s.Send(context.Background(), "tools/call", json.RawMessage(`{"name":"sample","arguments":{"prompt":"hi"}}`), 0)
	}()
	waitFor(h, "the question", anyOf[model.QuestionAsked])
	if err := h.s.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := waitFor(h, "the question's end", anyOf[model.QuestionResolved])
	if (r.State != model.QuestionConnectionDied && r.State != model.CancelledByServer) || r.Gen != 1 {
		t.Errorf("resolved %+v", r)
	}
}
