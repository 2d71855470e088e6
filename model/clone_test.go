package model

import (
	"reflect"
	"testing"
)

// cloneScript is a session's worth of events of every kind the tables
// keep: calls in flight and finished, progress, a subscription, a log
// message, stderr, a question, an error.
func cloneScript() []Event {
	return []Event{
		Started{Stamp: Stamp{Time: t0}, Command: []string{"./server"}, PID: 42},
		Ready{Stamp: Stamp{Time: t0}, ServerName: "demo", ServerVersion: "1.0", Protocol: "2025-11-25"},
		out(1, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"p1"}}}`),
		out(1.1, `{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"file:///a"}}`),
		in(1.2, `{"jsonrpc":"2.0","id":2,"result":{}}`),
		in(1.3, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1,"total":4}}`),
		in(1.4, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","data":"careful"}}`),
		Stderr{Stamp: Stamp{Time: at(1.5)}, Line: "some stderr"},
		in(1.6, `{"jsonrpc":"2.0","id":"q1","method":"sampling/createMessage","params":{"messages":[]}}`),
		// The script is cut here for the clone; the rest goes to both.
		in(2, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a"}}`),
		in(2.1, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":3,"total":4}}`),
		in(2.2, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"done"}]}}`),
		out(2.3, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"bad"}}`),
		in(2.4, `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"no"}}`),
		Exited{Stamp: Stamp{Time: at(3)}, Status: "exit status 1"},
	}
}

// A clone goes on from where its session was as the session itself
// would, and what it folds leaves the session alone.
func TestSessionCloneGoesOnAsTheSession(t *testing.T) {
	evs := cloneScript()
	const cut = 9
	whole := New(Config{})
	whole.ApplyAll(evs)

	s := New(Config{})
	s.ApplyAll(evs[:cut])
	before := New(Config{})
	before.ApplyAll(evs[:cut])

	c, bytes := s.Clone()
	if bytes <= 0 {
		t.Errorf("the clone says it allocated %d bytes", bytes)
	}
	if !reflect.DeepEqual(c, s) {
		t.Fatal("the clone differs from its session")
	}
	c.ApplyAll(evs[cut:])
	if !reflect.DeepEqual(s, before) {
		t.Fatal("folding into the clone changed the session")
	}
	if !reflect.DeepEqual(c, whole) {
		t.Fatalf("the clone went on elsewhere: %d history entries, %+v, against %d, %+v", c.History().Len(), c.Conn(), whole.History().Len(), whole.Conn())
	}
	if c.History() == s.History() || c.History().Len() == s.History().Len() {
		t.Fatal("the clone shares its session's history")
	}
}

// A prelinter's clone judges the lines after the cut as the prelinter
// would have.
func TestPrelinterCloneJudgesAsThePrelinter(t *testing.T) {
	evs := cloneScript()
	const cut = 9
	whole := NewPrelinter()
	all := append([]Event(nil), evs...)
	whole.Lint(all)

	p := NewPrelinter()
	p.Lint(append([]Event(nil), evs[:cut]...))
	c, _ := p.Clone()
	rest := append([]Event(nil), evs[cut:]...)
	c.Lint(rest)
	if !reflect.DeepEqual(rest, all[cut:]) {
		t.Fatal("the clone judged the rest differently")
	}
}
