package session

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// TestRejectedInputFailsItsRound: on 2026-07-28 the sample tool's sampling
// question comes in an input_required result. Its QuestionAsked names the
// round that asked it (CallID), so the model files it under that request;
// when the person rejects it the request fails with an error that says so
// in words (not the chain of layers it passed through), and the model's
// record of that round says it failed, counted with the errors.
func TestRejectedInputFailsItsRound(t *testing.T) {
	h := startWith(t, Config{}, "2026-07-28")
	waitFor(h, "Ready", anyOf[model.Ready])
	done := make(chan error, 1)
	go func() {
		_, err := h.s.Call(context.Background(), backend.CallRequest{Method: "tools/call", Params: json.RawMessage(`{"name":"sample","arguments":{"prompt":"Say hi"}}`)})
		done <- err
	}()
	q := waitFor(h, "the sampling question", func(e model.QuestionAsked) bool { return e.Method == model.MethodSampling })
	if q.CallID == nil {
		t.Fatalf("the input_required question names no round: %+v", q)
	}
	ref := model.QuestionRef{Gen: q.Gen, InputKey: q.Key}
	if err := h.s.Reject(context.Background(), ref, model.RPCError{Code: -1, Message: "User rejected the request"}); err != nil {
		t.Fatal(err)
	}
	err := <-done
	var rejected *InputRejectedError
	if !errors.As(err, &rejected) {
		t.Fatalf("the call ended with %v; want an InputRejectedError", err)
	}
	if msg := err.Error(); strings.Contains(msg, "answering input request") || strings.Contains(msg, "mcp tools/call") || !strings.Contains(msg, "you rejected its sampling question") {
		t.Errorf("the error reads %q; want the person's act in words", msg)
	}
	ended := waitFor(h, "the call's end", func(e model.CallEnded) bool { return e.Err != "" })
	if string(ended.ID) != string(q.CallID) {
		t.Errorf("CallEnded names request %s, the question round %s", ended.ID, q.CallID)
	}

	// The inspector folds the person's rejection itself (ui's answer
	// overlay), as it sends it: after the question, before the end.
	sess := model.New(model.Config{})
	for _, ev := range h.events {
		sess.Apply(ev)
		if a, ok := ev.(model.QuestionAsked); ok && a.Key == q.Key {
			sess.Apply(model.QuestionResolved{Stamp: a.Stamp, Key: q.Key, State: model.Rejected, Err: &model.RPCError{Code: -1, Message: "User rejected the request"}})
		}
	}
	var round *model.Call
	for _, c := range sess.Recent() {
		if c.Method == "tools/call" && string(c.ID) == string(q.CallID) {
			round = c
		}
	}
	if round == nil {
		t.Fatalf("no record of round %s among %d recent calls", q.CallID, len(sess.Recent()))
	}
	if round.Outcome.Kind != model.FailedLocally {
		t.Errorf("the round's outcome is %v; want failed", round.Outcome.Kind)
	}
	if qs := sess.QuestionsOf(round); len(qs) != 1 || qs[0].State != model.Rejected {
		t.Errorf("the round's questions: %+v; want its one sampling question, rejected", qs)
	}
	if n := sess.Counters().Errors; n != 1 {
		t.Errorf("errors %d; want 1 (the failed request)", n)
	}
}

// TestCatalogCallShowsTheClientsTimeout: a catalog call with no timer of
// its own runs under the client's --timeout (mcp applies it), and the
// model is told that timer, not conn's 30 s (pane 1 said "29s left" under
// --timeout 5s).
func TestCatalogCallShowsTheClientsTimeout(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(roleEnv, "1")
	s, err := Start(context.Background(), Config{Command: exe, Inbox: inbox.New(inbox.Limits{}),
		MCP: mcp.Options{RequestTimeout: 5 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	h := &harness{t: t, s: s}
	waitFor(h, "Ready", anyOf[model.Ready])
	if _, err := s.Catalog("").Call(context.Background(), "tools/call", json.RawMessage(`{"name":"echo","arguments":{"text":"hi"}}`), backend.CatalogCallOptions{}); err != nil {
		t.Fatal(err)
	}
	o := waitFor(h, "the call's options", func(e model.CallOptions) bool { return e.Method == "tools/call" })
	if o.Timeout != 5*time.Second {
		t.Errorf("the model was told a %v timer; want the client's 5s", o.Timeout)
	}
}
