package model

import (
	"strings"
	"testing"
	"time"
)

// TestLateEventsOfARestartedProcess: after a restart, the old process's
// exit, lines and stderr arrive late; they are listed under their own
// generation and never touch the new connection.
func TestLateEventsOfARestartedProcess(t *testing.T) {
	s := New(Config{})
	s.Apply(Started{Stamp: Stamp{Time: at(0), Gen: 1}, Command: []string{"./server"}})
	s.Apply(Ready{Stamp: Stamp{Time: at(0.1), Gen: 1}, ServerName: "demo", PID: 10})
	s.Apply(Wire{Stamp: Stamp{Time: at(1), Gen: 1}, Dir: Out, Line: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`), Size: 10})
	s.Apply(Started{Stamp: Stamp{Time: at(2), Gen: 2}, Command: []string{"./server"}})
	s.Apply(Ready{Stamp: Stamp{Time: at(2.1), Gen: 2}, ServerName: "demo", PID: 11})
	s.Apply(Wire{Stamp: Stamp{Time: at(3), Gen: 2}, Dir: Out, Line: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fast"}}`), Size: 10})

	// The old process: a late response to its id 1, stderr, its exit and a
	// late Ready of a connect that lost the race.
	s.Apply(Wire{Stamp: Stamp{Time: at(4), Gen: 1}, Dir: In, Line: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), Size: 10})
	s.Apply(Stderr{Stamp: Stamp{Time: at(4), Gen: 1}, Line: "old process: bye"})
	s.Apply(Exited{Stamp: Stamp{Time: at(4.5), Gen: 1}, Status: "signal: terminated"})
	s.Apply(Ready{Stamp: Stamp{Time: at(4.6), Gen: 1}, ServerName: "stale", PID: 10})
	s.Apply(Failed{Stamp: Stamp{Time: at(4.7), Gen: 1}, Err: "stale failure"})
	s.Apply(Started{Stamp: Stamp{Time: at(4.8), Gen: 1}})

	c := s.Conn()
	if c.Phase != PhaseReady || c.Gen != 2 || c.PID != 11 || c.ServerName != "demo" || c.ExitStatus != "" {
		t.Fatalf("the new connection was touched: %+v", c)
	}
	fl := s.InFlight()
	if len(fl) != 1 || fl[0].Target != "fast" || fl[0].Outcome.Kind != Pending {
		t.Fatalf("in flight = %+v", fl)
	}
	h := s.History()
	last := h.At(h.Len() - 1)
	if last.Gen != 1 || last.Kind != KindResponse {
		t.Errorf("the late line is listed as %+v", last)
	}
	if s.Counters().Errors != 0 {
		t.Errorf("errors = %d", s.Counters().Errors)
	}
	if tail := s.StderrTail(5); len(tail) != 0 {
		t.Errorf("the new process's stderr tail shows %q", tail)
	}
	if l := s.StderrLog().At(s.StderrLog().Len() - 1); l.Gen != 1 || l.Text != "old process: bye" {
		t.Errorf("late stderr line = %+v", l)
	}

	// The new process's own exit still counts.
	s.Apply(Exited{Stamp: Stamp{Time: at(5), Gen: 2}, Status: "exit status 3"})
	if c := s.Conn(); c.Phase != PhaseExited || c.ExitStatus != "exit status 3" {
		t.Errorf("after the new process exits: %+v", c)
	}
}

// TestStderrTailSkipsOtherGenerations: a late line of the old process in
// the middle does not hide the current process's lines.
func TestStderrTailSkipsOtherGenerations(t *testing.T) {
	s := New(Config{})
	s.Apply(Started{Stamp: Stamp{Time: at(0), Gen: 1}})
	s.Apply(Started{Stamp: Stamp{Time: at(1), Gen: 2}})
	s.Apply(Stderr{Stamp: Stamp{Time: at(2), Gen: 2}, Line: "a"})
	s.Apply(Stderr{Stamp: Stamp{Time: at(2), Gen: 1}, Line: "old"})
	s.Apply(Stderr{Stamp: Stamp{Time: at(2), Gen: 2}, Line: "b"})
	if got := strings.Join(s.StderrTail(5), ","); got != "a,b" {
		t.Errorf("tail = %s", got)
	}
}

func TestNegotiationStepsFollowTheWire(t *testing.T) {
	s := New(Config{})
	s.Apply(Started{Stamp: Stamp{Time: at(0)}, Command: []string{"./server"}})
	s.Apply(Negotiating{Stamp: Stamp{Time: at(0)}, Step: "probing with server/discover"})
	s.Apply(out(0.1, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`))
	if c := s.Conn(); c.Phase != PhaseNegotiating || c.Step != "probe sent: server/discover" {
		t.Fatalf("after the probe: %+v", c)
	}
	s.Apply(in(0.181, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`))
	if c := s.Conn(); c.Step != "probe answered in 81ms with error -32601: an initialize-era server" {
		t.Fatalf("after the answer: %q", c.Step)
	}
	s.Apply(out(0.2, `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`))
	s.Apply(in(1.4, `{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-06-18"}}`))
	var texts []string
	for _, st := range s.Conn().Steps {
		texts = append(texts, st.Text)
	}
	want := []string{
		"probing with server/discover",
		"probe sent: server/discover",
		"probe answered in 81ms with error -32601: an initialize-era server",
		"initialize sent, asking for 2025-11-25",
		"initialize answered in 1.2s: protocol 2025-06-18",
	}
	if strings.Join(texts, "\n") != strings.Join(want, "\n") {
		t.Errorf("steps:\n%s\nwant:\n%s", strings.Join(texts, "\n"), strings.Join(want, "\n"))
	}
	s.Apply(Ready{Stamp: Stamp{Time: at(1.5)}, ServerName: "x"})
	s.Apply(out(2, `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{}}`))
	if c := s.Conn(); c.Phase != PhaseReady || len(c.Steps) != len(want) {
		t.Errorf("a request after Ready changed the start steps: %+v", c)
	}
}

func TestProbeAnsweredWithVersions(t *testing.T) {
	s := New(Config{})
	s.Apply(Started{Stamp: Stamp{Time: at(0)}})
	s.Apply(out(0, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`))
	s.Apply(in(0.05, `{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"]}}`))
	if c := s.Conn(); c.Step != `probe answered in 50ms: versions ["2026-07-28"]` {
		t.Errorf("step = %q", c.Step)
	}
}

func TestFailureKeepsExitStatusAndReason(t *testing.T) {
	s := New(Config{})
	s.Apply(Started{Stamp: Stamp{Time: at(0)}})
	s.Apply(Exited{Stamp: Stamp{Time: at(0.1)}, Status: "exit status 1"})
	s.Apply(Failed{Stamp: Stamp{Time: at(0.1)}, Err: "initialize: the stdio server exited"})
	c := s.Conn()
	if c.Phase != PhaseExited || c.ExitStatus != "exit status 1" || c.Failure != "initialize: the stdio server exited" {
		t.Errorf("conn = %+v", c)
	}
	s2 := New(Config{})
	s2.Apply(Started{Stamp: Stamp{Time: at(0)}})
	s2.Apply(Failed{Stamp: Stamp{Time: at(0.1)}, Err: "Executable not found: ./nope"})
	if c := s2.Conn(); c.ExitStatus != "Executable not found: ./nope" || c.Failure != "" {
		t.Errorf("conn = %+v", c)
	}
}

// TestLocalSubscription: an initialize-era subscription, described by the
// backend rather than by a listen request on the wire.
func TestLocalSubscription(t *testing.T) {
	s := started(t, Config{})
	s.Apply(SubscriptionOpened{Stamp: Stamp{Time: at(1)}, ID: raw(`"legacy-1"`), Asked: raw(`{"resourceSubscriptions":["file:///a"]}`), Accepted: raw(`{"resourceSubscriptions":["file:///a"]}`)})
	s.Apply(SubscriptionEvent{Stamp: Stamp{Time: at(2)}, ID: raw(`"legacy-1"`), Method: "notifications/resources/updated", Params: raw(`{"uri":"file:///a"}`)})
	s.Apply(SubscriptionEvent{Stamp: Stamp{Time: at(3)}, ID: raw(`"legacy-1"`), Method: "notifications/resources/updated", Params: raw(`{"uri":"file:///a"}`)})
	subs := s.Subscriptions()
	if len(subs) != 1 || subs[0].Events != 2 || !subs[0].Open || string(subs[0].Accepted) != `{"resourceSubscriptions":["file:///a"]}` {
		t.Fatalf("subs = %+v", subs)
	}
	if subs[0].LastSummary != "file:///a" {
		t.Errorf("last = %q", subs[0].LastSummary)
	}
	s.Apply(SubscriptionEnded{Stamp: Stamp{Time: at(4)}, ID: raw(`"legacy-1"`), Reason: "closed by client"})
	if subs[0].Open || subs[0].EndReason != "closed by client" {
		t.Errorf("after the end: %+v", subs[0])
	}
	// A listen request has no timer.
	s.Apply(out(5, `{"jsonrpc":"2.0","id":9,"method":"subscriptions/listen","params":{"notifications":{}}}`))
	if c := s.InFlight()[0]; !c.Deadline.IsZero() {
		t.Errorf("the listen request has a deadline %v", c.Deadline)
	}
}

// TestAbandonedProbeProcess: a probe that gets no answer is cancelled and
// its process abandoned; that process's exit, arriving after the new
// process was sent initialize, does not end the connection.
func TestAbandonedProbeProcess(t *testing.T) {
	s := New(Config{})
	s.Apply(Started{Stamp: Stamp{Time: at(0)}})
	s.Apply(out(0, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`))
	s.Apply(out(10, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"Request timed out"}}`))
	s.Apply(out(10, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`))
	s.Apply(Exited{Stamp: Stamp{Time: at(10.1)}})
	c := s.Conn()
	if c.Phase != PhaseNegotiating || len(s.InFlight()) != 1 {
		t.Fatalf("the abandoned process's exit ended the connection: %+v, in flight %d", c, len(s.InFlight()))
	}
	if c.Step != "the abandoned process exited (exit status 0)" {
		t.Errorf("step %q", c.Step)
	}
	// The second process's own exit does end it.
	s.Apply(Exited{Stamp: Stamp{Time: at(11)}, Status: "exit status 1"})
	if c := s.Conn(); c.Phase != PhaseExited || c.ExitStatus != "exit status 1" {
		t.Errorf("after the real exit: %+v", c)
	}
}

// TestLateAnswerToACancelledRequest: the server answers a request after we
// cancelled it; conn drops the answer, and that is not an error.
func TestLateAnswerToACancelledRequest(t *testing.T) {
	s := started(t, Config{})
	s.Apply(out(0, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow"}}`))
	s.Apply(out(1, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`))
	late := `{"jsonrpc":"2.0","id":3,"result":{}}`
	s.Apply(Wire{Stamp: Stamp{Time: at(2)}, Dir: In, Line: []byte(late), Size: len(late), Discarded: true, Reason: "no request is waiting for id 3"})
	if n := s.Counters().Errors; n != 0 {
		t.Errorf("errors = %d", n)
	}
	h := s.History()
	if e := h.At(h.Len() - 1); !strings.HasPrefix(e.Summary, "late answer to cancelled request 3") {
		t.Errorf("summary %q", e.Summary)
	}
	// Any other dropped line still counts.
	s.Apply(Wire{Stamp: Stamp{Time: at(3)}, Dir: In, Line: []byte("junk"), Size: 4, Discarded: true, Reason: "not JSON"})
	if n := s.Counters().Errors; n != 1 {
		t.Errorf("errors = %d after junk", n)
	}
}

// TestQueuedCall: a request whose line is not written yet (a server that
// does not read) is listed from its options, completed by its line, or
// ended by its sender.
func TestQueuedCall(t *testing.T) {
	s := started(t, Config{})
	s.Apply(CallOptions{Stamp: Stamp{Time: at(1)}, ID: raw(`7`), Method: "tools/call", Timeout: 2 * time.Second})
	fl := s.InFlight()
	if len(fl) != 1 || !fl[0].Queued || fl[0].Method != "tools/call" || !fl[0].Deadline.Equal(at(3)) {
		t.Fatalf("queued call %+v", fl)
	}
	s.Apply(CallEnded{Stamp: Stamp{Time: at(3)}, ID: raw(`7`), Code: -32001, Err: "Request timed out"})
	c := s.Call(fl[0].Key)
	if c.Outcome.Kind != FailedLocally || c.Outcome.Err.Message != "Request timed out" || len(s.InFlight()) != 0 {
		t.Errorf("after the sender gave up: %+v", c.Outcome)
	}

	// Written: the line completes it; the answer ends it; a late
	// CallEnded changes nothing.
	s.Apply(CallOptions{Stamp: Stamp{Time: at(4)}, ID: raw(`8`), Method: "tools/call", Timeout: time.Minute})
	s.Apply(out(4.1, `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":8}}}`))
	c = s.InFlight()[0]
	if c.Queued || c.Target != "x" || c.RequestSeq == 0 {
		t.Fatalf("written call %+v", c)
	}
	s.Apply(in(4.2, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":8,"progress":1}}`))
	if c.Progress == nil {
		t.Error("progress of a call that was queued is lost")
	}
	s.Apply(in(5, `{"jsonrpc":"2.0","id":8,"error":{"code":-1,"message":"no"}}`))
	s.Apply(CallEnded{Stamp: Stamp{Time: at(5)}, ID: raw(`8`), Err: "no"})
	if c.Outcome.Kind != FailedWithError {
		t.Errorf("outcome %v", c.Outcome.Kind)
	}
	// Cancelled by its sender before its line went out.
	s.Apply(CallOptions{Stamp: Stamp{Time: at(6)}, ID: raw(`9`), Method: "ping"})
	s.Apply(CallEnded{Stamp: Stamp{Time: at(7)}, ID: raw(`9`), Err: "context canceled", Cancelled: true})
	if c := s.Recent()[0]; c.Outcome.Kind != CancelledByCaller {
		t.Errorf("cancelled: %v", c.Outcome.Kind)
	}
}

func TestProbeTimer(t *testing.T) {
	s := New(Config{Timeout: 30 * time.Second, ProbeTimeout: 10 * time.Second})
	s.Apply(Started{Stamp: Stamp{Time: at(0)}})
	s.Apply(out(0, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`))
	if c := s.InFlight()[0]; !c.Deadline.Equal(at(10)) {
		t.Errorf("probe deadline %v", c.Deadline)
	}
}

// The probe's -32601 from an older server is a negotiation step: not an
// error in the counters, and its entry says so (the traffic pane does not
// paint it red).
func TestProbeErrorIsANegotiationStep(t *testing.T) {
	s := New(Config{})
	s.Apply(Started{Stamp: Stamp{Time: at(0)}, Command: []string{"./server"}})
	s.Apply(out(0.1, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`))
	s.Apply(in(0.2, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`))
	if n := s.Counters().Errors; n != 0 {
		t.Errorf("%d errors counted", n)
	}
	h := s.History()
	if last := h.At(h.Len() - 1); last.Kind != KindError || !last.Negotiation {
		t.Errorf("probe answer %+v", last)
	}
	if r := s.Recent(); len(r) != 1 || !r[0].Outcome.Negotiation {
		t.Errorf("the probe's call is not marked a negotiation step: %+v", r)
	}
}

// A 2025-03-26 batch is one traffic entry listing its parts; each part is
// folded like a line of its own (the response finishes its call).
func TestBatchIsOneEntryWithItsParts(t *testing.T) {
	s := New(Config{})
	s.Apply(Started{Stamp: Stamp{Time: at(0)}, Command: []string{"./server"}})
	s.Apply(Ready{Stamp: Stamp{Time: at(0.1)}, ServerName: "x", Protocol: "2025-03-26"})
	s.Apply(out(1, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}`))
	s.Apply(in(2, `[{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":1}},{"jsonrpc":"2.0","id":2,"result":{"content":[]}}]`))
	h := s.History()
	last := h.At(h.Len() - 1)
	if last.Kind != KindBatch || last.Summary != "batch of 2: notification notifications/progress, response 2" {
		t.Fatalf("batch entry %+v", last)
	}
	if h.At(h.Len()-2).Link != last.Seq {
		t.Errorf("the request is not linked to the batch holding its response")
	}
	if len(s.InFlight()) != 0 || len(s.Recent()) != 1 {
		t.Errorf("the call did not finish from the batch: %d in flight", len(s.InFlight()))
	}
}
