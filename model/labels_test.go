package model

import "testing"

// TestToolErrorIsItsOwnOutcome: a tools/call result with isError true is
// marked on the call (pane 1 says "tool error", not "ok") and counted with
// the errors; a plain result is neither.
func TestToolErrorIsItsOwnOutcome(t *testing.T) {
	s := started(t, Config{})
	s.Apply(out(1, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fail"}}`))
	s.Apply(in(2, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"boom"}],"isError": true}}`))
	s.Apply(out(3, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}`))
	s.Apply(in(4, `{"jsonrpc":"2.0","id":2,"result":{"content":[],"isError":false}}`))
	byID := map[string]*Call{}
	for _, c := range s.Recent() {
		byID[string(c.ID)] = c
	}
	if c := byID["1"]; c == nil || c.Outcome.Kind != Succeeded || !c.Outcome.ToolError {
		t.Errorf("call 1: %+v; want a result marked as a tool error", c)
	}
	if c := byID["2"]; c == nil || c.Outcome.ToolError {
		t.Errorf("call 2: %+v; want a plain result", c)
	}
	if n := s.Counters().Errors; n != 1 {
		t.Errorf("errors %d; want 1", n)
	}
}

// TestRejectedInputEndsItsRound: a round that ended input_required, whose
// request then failed at the sender (the person rejected its question),
// says so in its record and in the error count; a CallEnded for a round
// that succeeded changes nothing.
func TestRejectedInputEndsItsRound(t *testing.T) {
	s := started(t, Config{})
	s.Apply(out(1, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"sample"}}`))
	s.Apply(in(2, `{"jsonrpc":"2.0","id":5,"result":{"resultType":"input_required","inputRequests":{"reply":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":9}}}}}`))
	s.Apply(QuestionAsked{Stamp: Stamp{Time: at(2)}, Key: "reply#1", Method: "sampling/createMessage", Params: raw(`{"messages":[],"maxTokens":9}`), CallMethod: "tools/call", Round: 1, CallID: raw("5")})
	c := s.Recent()[0]
	if qs := s.QuestionsOf(c); len(qs) != 1 || qs[0].InputKey != "reply#1" {
		t.Fatalf("the round's questions: %+v", qs)
	}
	s.Apply(QuestionResolved{Stamp: Stamp{Time: at(3)}, Key: "reply#1", State: Rejected, Err: &RPCError{Code: -1, Message: "no"}})
	s.Apply(CallEnded{Stamp: Stamp{Time: at(3)}, ID: raw("5"), Code: -1, Err: "you rejected its sampling question"})
	if c.Outcome.Kind != FailedLocally || c.Outcome.Err == nil || c.Outcome.Err.Message != "you rejected its sampling question" {
		t.Errorf("the round's outcome: %+v; want failed, with why", c.Outcome)
	}
	if n := s.Counters().Errors; n != 1 {
		t.Errorf("errors %d; want 1", n)
	}
	s.Apply(out(4, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo"}}`))
	s.Apply(in(5, `{"jsonrpc":"2.0","id":6,"result":{"content":[]}}`))
	s.Apply(CallEnded{Stamp: Stamp{Time: at(5)}, ID: raw("6"), Err: "late word"})
	if c := s.Recent()[0]; c.Outcome.Kind != Succeeded {
		t.Errorf("call 6: %+v; want it left as it ended on the wire", c.Outcome)
	}

	// A round whose question died with the connection (r, V) died with
	// it: no error of the server's.
	s.Apply(out(6, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"sample"}}`))
	s.Apply(in(7, `{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required","inputRequests":{"reply":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":9}}}}}`))
	s.Apply(QuestionAsked{Stamp: Stamp{Time: at(7)}, Key: "reply#2", Method: "sampling/createMessage", Params: raw(`{"messages":[],"maxTokens":9}`), CallMethod: "tools/call", Round: 1, CallID: raw("7")})
	s.Apply(QuestionResolved{Stamp: Stamp{Time: at(8)}, Key: "reply#2", State: QuestionConnectionDied})
	s.Apply(CallEnded{Stamp: Stamp{Time: at(8)}, ID: raw("7"), Err: "mcp tools/call: the connection stopped"})
	if c := s.Recent()[0]; c.Outcome.Kind != ConnectionDied {
		t.Errorf("call 7: %+v; want connection died", c.Outcome)
	}
	if n := s.Counters().Errors; n != 1 {
		t.Errorf("errors %d after the connection's end; want still 1", n)
	}
}
