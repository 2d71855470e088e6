package model

import (
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/rpccall"
)

// TestGaveUpInEitherOrder: a call mcptui gave up on ends the same way
// whichever comes first, the cancellation it sent (stdio writes it before
// the caller hears its timer's error) or the caller's error (over HTTP the
// error comes first): cancelled, with the timer that fired, and no error
// counted. A cancellation for a call that ended on the wire changes nothing.
func TestGaveUpInEitherOrder(t *testing.T) {
	g := &rpccall.GaveUp{Why: rpccall.WhyTimeout, Timeout: time.Second, After: time.Second}
	cancel := func(sec float64, id string) Wire {
		w := out(sec, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+id+`,"reason":"`+rpccall.ReasonTimedOut+`"}}`)
		w.GaveUp = g
		return w
	}
	for _, order := range []string{"cancellation first", "error first"} {
		s := started(t, Config{})
		s.Apply(out(1, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"slow"}}`))
		ended := CallEnded{Stamp: Stamp{Time: at(2)}, ID: raw("4"), Err: "Request timed out"}
		if order == "cancellation first" {
			s.Apply(cancel(2, "4"))
			s.Apply(ended)
		} else {
			s.Apply(ended)
			s.Apply(cancel(2.01, "4"))
		}
		c := s.Recent()[0]
		if c.Outcome.Kind != CancelledByCaller || c.GaveUp != g || !c.Cancelled || c.CancelReason != rpccall.ReasonTimedOut {
			t.Errorf("%s: %+v (gave up: %v); want cancelled, with the timer that fired", order, c.Outcome, c.GaveUp)
		}
		if !c.Outcome.Time.Equal(at(2)) {
			t.Errorf("%s: ended at %v; want at its first word, %v", order, c.Outcome.Time, at(2))
		}
		if n := s.Counters().Errors; n != 0 {
			t.Errorf("%s: errors %d; want 0", order, n)
		}
	}

	s := started(t, Config{})
	s.Apply(out(1, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo"}}`))
	s.Apply(in(2, `{"jsonrpc":"2.0","id":5,"result":{"content":[]}}`))
	s.Apply(cancel(3, "5"))
	if c := s.Recent()[0]; c.Outcome.Kind != Succeeded || c.GaveUp != nil {
		t.Errorf("answered call: %+v (gave up: %v); want left as it ended on the wire", c.Outcome, c.GaveUp)
	}
}

// TestIDLessErrorBodyCountsOnce: a POST's 4xx answer whose JSON-RPC error
// has no id is shown as a discarded line, and mcptui ends the request the
// POST carried with an error of its own: one failure, one error counted;
// none for the probe, which a server of an older revision answers so.
func TestIDLessErrorBodyCountsOnce(t *testing.T) {
	body := `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}`
	idless := Wire{Stamp: Stamp{Time: at(1)}, Dir: In, Line: []byte(body), Size: len(body), Discarded: true, Reason: rpccall.ReasonIDLessErrorBody}
	failed := func(id string) Wire {
		return in(1, `{"jsonrpc":"2.0","id":`+id+`,"error":{"code":-32000,"message":"no JSON-RPC answer (shown by mcptui): The HTTP request failed: HTTP 400"}}`)
	}
	s := New(Config{})
	s.Apply(Started{Stamp: Stamp{Time: t0}, Command: []string{"http://127.0.0.1/mcp"}})
	s.Apply(out(0.5, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`))
	s.Apply(idless)
	s.Apply(failed("1"))
	if n := s.Counters().Errors; n != 0 {
		t.Errorf("errors %d after the probe's 400; want 0 (a negotiation step)", n)
	}
	s.Apply(Ready{Stamp: Stamp{Time: at(2)}, ServerName: "demo", ServerVersion: "1.0", Protocol: "2025-11-25"})
	s.Apply(out(3, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo"}}`))
	s.Apply(idless)
	s.Apply(failed("4"))
	if n := s.Counters().Errors; n != 1 {
		t.Errorf("errors %d after one request's 400; want 1", n)
	}
}
