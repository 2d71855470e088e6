package model

import "testing"

func TestSubscriptionLifecycle(t *testing.T) {
	s := started(t, Config{})
	s.Apply(out(0, `{"jsonrpc":"2.0","id":5,"method":"subscriptions/listen","params":{"notifications":{"resources":["file:///a"],"toolsListChanged":true}}}`))
	subs := s.Subscriptions()
	if len(subs) != 1 || !subs[0].Open || string(subs[0].Asked) != `{"resources":["file:///a"],"toolsListChanged":true}` {
		t.Fatalf("subs = %+v", subs)
	}
	sub := subs[0]
	s.Apply(in(1, `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"resources":["file:///a"]},"_meta":{"io.modelcontextprotocol/subscriptionId":5}}}`))
	if string(sub.Accepted) != `{"resources":["file:///a"]}` || !sub.AckedAt.Equal(at(1)) {
		t.Errorf("accepted = %s", sub.Accepted)
	}
	s.Apply(in(2, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a","_meta":{"io.modelcontextprotocol/subscriptionId":5}}}`))
	s.Apply(in(3, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///b","_meta":{"io.modelcontextprotocol/subscriptionId":5}}}`))
	// Untagged, or tagged with an unknown id: not this subscription's.
	s.Apply(in(4, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///c"}}`))
	s.Apply(in(4, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///d","_meta":{"io.modelcontextprotocol/subscriptionId":6}}}`))
	if sub.Events != 2 || sub.LastMethod != "notifications/resources/updated" || !sub.LastTime.Equal(at(3)) {
		t.Errorf("events = %d last %q at %v", sub.Events, sub.LastMethod, sub.LastTime)
	}
	s.Apply(out(5, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"Closed by the client"}}`))
	if sub.Open || sub.EndReason != "closed by client" {
		t.Errorf("after close: %+v", sub)
	}
	if len(s.InFlight()) != 0 {
		t.Error("the listen request is still in flight")
	}
}

func TestSubscriptionEndedByServer(t *testing.T) {
	s := started(t, Config{})
	s.Apply(out(0, `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{}}}`))
	s.Apply(out(0, `{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":{"notifications":{}}}`))
	s.Apply(in(1, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`))
	subs := s.Subscriptions()
	if !subs[0].Open || subs[1].Open || subs[1].EndReason != "-32601 Method not found" {
		t.Errorf("subs = %+v / %+v", subs[0], subs[1])
	}
	s.Apply(Exited{Stamp: Stamp{Time: at(2)}})
	if subs[0].Open || subs[0].EndReason != "connection died" {
		t.Errorf("after exit: %+v", subs[0])
	}
}
