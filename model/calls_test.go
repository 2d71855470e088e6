package model

import (
	"testing"
	"time"
)

func TestRequestResponseLifecycle(t *testing.T) {
	s := started(t, Config{Timeout: 30 * time.Second})
	s.Apply(out(1, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}`))
	s.Apply(out(2, `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///a"}}`))

	fl := s.InFlight()
	if len(fl) != 2 || fl[0].Method != "resources/read" || fl[1].Target != "echo" || fl[0].Target != "file:///a" {
		t.Fatalf("in flight = %+v", fl)
	}
	if got := fl[1].Deadline; !got.Equal(at(31)) {
		t.Errorf("deadline from the default timeout = %v", got)
	}
	if left, ok := fl[1].Left(at(11)); !ok || left != 20*time.Second {
		t.Errorf("Left = %v %v", left, ok)
	}
	if c := s.Counters(); c.InFlight != 2 || c.Errors != 0 {
		t.Errorf("counters = %+v", c)
	}

	s.Apply(in(3, `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`))
	s.Apply(in(4, `{"jsonrpc":"2.0","id":2,"error":{"code":-32002,"message":"Resource not found"}}`))
	if n := len(s.InFlight()); n != 0 {
		t.Fatalf("%d still in flight", n)
	}
	rec := s.Recent()
	if rec[0].Outcome.Kind != FailedWithError || rec[0].Outcome.Err.Code != -32002 || rec[1].Outcome.Kind != Succeeded {
		t.Errorf("outcomes = %+v / %+v", rec[0].Outcome, rec[1].Outcome)
	}
	if age := rec[1].Age(at(100)); age != 2*time.Second {
		t.Errorf("age of a finished call = %v", age)
	}
	if c := s.Counters(); c.Errors != 1 {
		t.Errorf("errors = %d", c.Errors)
	}
	h := s.History()
	req, resp := h.BySeq(rec[1].RequestSeq), h.BySeq(rec[1].ResponseSeq)
	if req.Link != resp.Seq || resp.Link != req.Seq || req.Kind != KindRequest || resp.Kind != KindResponse {
		t.Errorf("links: req %+v resp %+v", req, resp)
	}
	if e := h.BySeq(rec[0].ResponseSeq); e.Kind != KindError || e.Summary != "-32002 Resource not found" {
		t.Errorf("error entry = %+v", e)
	}
}

func TestServerRequestsAreInFlightToo(t *testing.T) {
	s := started(t, Config{Timeout: time.Second})
	s.Apply(in(1, `{"jsonrpc":"2.0","id":"s1","method":"roots/list"}`))
	fl := s.InFlight()
	if len(fl) != 1 || fl[0].Dir != In || !fl[0].Deadline.IsZero() {
		t.Fatalf("server request = %+v", fl)
	}
	// Our answer, with the same id as one of ours would have, settles it.
	s.Apply(out(2, `{"jsonrpc":"2.0","id":"s1","result":{"roots":[]}}`))
	if len(s.InFlight()) != 0 {
		t.Fatal("our response did not settle the server's request")
	}
}

func TestIDsNormalized(t *testing.T) {
	s := started(t, Config{})
	s.Apply(out(1, `{"jsonrpc":"2.0","id":7,"method":"ping"}`))
	s.Apply(in(2, `{"jsonrpc":"2.0","id":7.0,"result":{}}`))
	if len(s.InFlight()) != 0 {
		t.Fatal("7.0 did not match 7")
	}
}

func TestProgress(t *testing.T) {
	s := started(t, Config{Timeout: 10 * time.Second, ResetOnProgress: true, MaxTotal: 25 * time.Second})
	s.Apply(out(0, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":1}}}`))
	s.Apply(in(5, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":3,"total":10,"message":"step 3"}}`))
	c := s.InFlight()[0]
	if f, ok := c.Progress.Fraction(); !ok || f != 0.3 || c.Progress.Message != "step 3" {
		t.Errorf("progress = %+v", c.Progress)
	}
	if !c.Deadline.Equal(at(15)) {
		t.Errorf("deadline after progress = %v, want start+15s", c.Deadline)
	}
	s.Apply(in(20, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":4}}`))
	if _, ok := c.Progress.Fraction(); ok || c.Progress.Count != 2 {
		t.Errorf("progress without total = %+v", c.Progress)
	}
	if !c.Deadline.Equal(at(25)) {
		t.Errorf("deadline capped by the max total = %v", c.Deadline)
	}
	// A progress token of another direction, or unknown, changes nothing.
	s.Apply(out(21, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":9}}`))
	if c.Progress.Value != 4 {
		t.Errorf("progress in the wrong direction was applied: %+v", c.Progress)
	}
}

func TestCallOptionsBeforeAndAfter(t *testing.T) {
	s := started(t, Config{Timeout: 30 * time.Second})
	s.Apply(CallOptions{Stamp: Stamp{Time: at(0)}, ID: raw(`1`), Timeout: 5 * time.Second})
	s.Apply(out(1, `{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	s.Apply(out(1, `{"jsonrpc":"2.0","id":2,"method":"ping"}`))
	s.Apply(CallOptions{Stamp: Stamp{Time: at(1)}, ID: raw(`2`), Timeout: 0})
	one, two := s.Call("1/out/1"), s.Call("1/out/2")
	if !one.Deadline.Equal(at(6)) {
		t.Errorf("options before the line: deadline %v", one.Deadline)
	}
	if !two.Deadline.IsZero() {
		t.Errorf("options after the line: deadline %v, want none", two.Deadline)
	}
	s.Apply(Extended{Stamp: Stamp{Time: at(2)}, ID: raw(`1`), By: time.Minute})
	if !one.Deadline.Equal(at(66)) {
		t.Errorf("extended deadline %v", one.Deadline)
	}
}

func TestCancellation(t *testing.T) {
	s := started(t, Config{})
	s.Apply(out(0, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`))
	s.Apply(out(1, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"Cancelled by the user"}}`))
	if len(s.InFlight()) != 0 {
		t.Fatal("cancelled call still in flight")
	}
	c := s.Call("1/out/1")
	if !c.Cancelled || c.CancelReason != "Cancelled by the user" || c.Outcome.Kind != CancelledByCaller {
		t.Errorf("cancelled call = %+v", c)
	}
	// The server's own cancellation of our id means nothing to our call.
	s.Apply(out(2, `{"jsonrpc":"2.0","id":2,"method":"ping"}`))
	s.Apply(in(3, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`))
	if len(s.InFlight()) != 1 {
		t.Error("a server cancellation cancelled one of our requests")
	}
}

func TestExitSettlesEverything(t *testing.T) {
	s := started(t, Config{})
	s.Apply(out(0, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`))
	s.Apply(Stderr{Stamp: Stamp{Time: at(1)}, Line: "panic: boom"})
	s.Apply(Exited{Stamp: Stamp{Time: at(2)}, Status: "exit status 2"})
	if s.Conn().Phase != PhaseExited || s.Conn().ExitStatus != "exit status 2" {
		t.Errorf("conn = %+v", s.Conn())
	}
	if c := s.Call("1/out/1"); c.Outcome.Kind != ConnectionDied {
		t.Errorf("outcome = %v", c.Outcome.Kind)
	}
	if tail := s.StderrTail(5); len(tail) != 1 || tail[0] != "panic: boom" {
		t.Errorf("tail = %q", tail)
	}
}

func TestFailedStart(t *testing.T) {
	s := New(Config{})
	s.Apply(Started{Stamp: Stamp{Time: t0}, Command: []string{"./nope"}})
	s.Apply(Failed{Stamp: Stamp{Time: at(0)}, Err: "Executable not found: ./nope"})
	if c := s.Conn(); c.Phase != PhaseExited || c.ExitStatus != "Executable not found: ./nope" {
		t.Errorf("conn = %+v", c)
	}
	if s.Counters().Errors != 1 {
		t.Error("a failed start is not counted as an error")
	}
}

func TestRestartDrawsABoundary(t *testing.T) {
	s := started(t, Config{})
	s.Apply(out(0, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`))
	s.Apply(Stderr{Stamp: Stamp{Time: at(0)}, Line: "first"})
	s.Apply(Started{Stamp: Stamp{Time: at(1)}, Command: []string{"./server"}, PID: 43})
	if c := s.Conn(); c.Gen != 2 || c.Phase != PhaseStarting || c.PID != 43 || c.ServerName != "" {
		t.Errorf("conn after restart = %+v", c)
	}
	if c := s.Call("1/out/1"); c.Outcome.Kind != ConnectionDied {
		t.Errorf("old call = %+v", c.Outcome)
	}
	h := s.History()
	if last := h.At(h.Len() - 1); last.Kind != KindBoundary || last.Gen != 2 {
		t.Errorf("last entry = %+v", last)
	}
	if last := s.StderrLog().At(s.StderrLog().Len() - 1); !last.Boundary {
		t.Errorf("last stderr line = %+v", last)
	}
	// The new process reuses id 1: a new call, not the old one.
	s.Apply(out(2, `{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if fl := s.InFlight(); len(fl) != 1 || fl[0].Key != "2/out/1" || fl[0].Method != "ping" {
		t.Errorf("in flight after restart = %+v", fl)
	}
	if len(s.StderrTail(5)) != 0 {
		t.Error("the tail mixes generations")
	}
}

// The sender's word on a call's timer can come after the call has ended
// (the demo answers a first round input_required within a millisecond):
// the ended call is not listed again as in flight.
func TestCallOptionsAfterTheEndListNothing(t *testing.T) {
	s := started(t, Config{})
	s.Apply(out(1, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"sample","arguments":{}}}`))
	s.Apply(in(1.001, `{"jsonrpc":"2.0","id":9,"result":{"resultType":"input_required","inputRequests":{"r1":{"method":"roots/list"}}}}`))
	s.Apply(CallOptions{Stamp: Stamp{Time: at(1.002)}, ID: raw(`9`), Method: "tools/call", Timeout: 30 * time.Second})
	if n := len(s.InFlight()); n != 0 {
		t.Errorf("%d calls in flight after the only one ended", n)
	}
}
