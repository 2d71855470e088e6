package model

import (
	"testing"
	"time"
)

func exch(sec float64, id uint64, method string, status int, body string) Exchange {
	e := Exchange{Stamp: Stamp{Time: at(sec)}, ID: id, Method: method, URL: "http://127.0.0.1:1/mcp", Transport: "http",
		Status: status, Duration: 2 * time.Millisecond, ResponseBytes: -1,
		RequestHeader:  []Header{{"Accept", "application/json, text/event-stream"}, {"Authorization", "[redacted]"}},
		ResponseHeader: []Header{{"Content-Type", "text/event-stream; charset=utf-8"}}}
	if body != "" {
		e.Body, e.RequestBytes = []byte(body), len(body)
	}
	return e
}

func update(sec float64, id uint64, n int, msg string) ExchangeUpdate {
	u := ExchangeUpdate{Stamp: Stamp{Time: at(sec)}, ID: id, Messages: n, Bytes: int64(100 * n), Size: len(msg)}
	if msg != "" {
		u.Message = []byte(msg)
	}
	return u
}

// An exchange is folded with its request's message (found in the traffic
// as the line just sent), each message its body delivered (found as the
// line just received), its running totals and its end; an SSE stream
// stays open until its end comes.
func TestNetworkFold(t *testing.T) {
	s := started(t, Config{})
	req := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo"}}`
	prog := `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3,"progress":1}}`
	resp := `{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`
	s.Apply(out(1, `{"jsonrpc":"2.0","id":2,"method":"ping"}`))
	s.Apply(out(1.1, req))
	s.Apply(exch(1.2, 7, "POST", 200, req))
	s.Apply(in(1.3, prog))
	s.Apply(update(1.3, 7, 1, prog))
	b := s.Network()
	if b.Len() != 1 {
		t.Fatalf("kept %d exchanges", b.Len())
	}
	x := b.At(0)
	if !x.Open || x.ContentType != "text/event-stream" || x.Messages != 1 || x.Gen != 1 {
		t.Errorf("an open stream: %+v", x)
	}
	if len(x.Sent) != 1 || x.Sent[0].Method != "tools/call" || x.Sent[0].ID != "3" || x.Sent[0].Kind != KindRequest || x.Sent[0].Target != "echo" {
		t.Fatalf("sent: %+v", x.Sent)
	}
	if e := s.History().BySeq(x.Sent[0].Seq); e == nil || string(e.Raw) != req {
		t.Errorf("the request's traffic line: %+v", e)
	}
	s.Apply(in(1.4, resp))
	s.Apply(update(1.4, 7, 2, resp))
	s.Apply(ExchangeUpdate{Stamp: Stamp{Time: at(1.5)}, ID: 7, Messages: 2, Bytes: 260, End: true})
	if x.Open || x.Messages != 2 || x.Bytes != 260 || x.Took() != 300*time.Millisecond || x.Failed() {
		t.Errorf("the ended stream: %+v (took %s)", x, x.Took())
	}
	if len(x.Received) != 2 || x.Received[0].Method != "notifications/progress" || x.Received[1].Kind != KindResponse {
		t.Fatalf("received: %+v", x.Received)
	}
	if e := s.History().BySeq(x.Received[1].Seq); e == nil || string(e.Raw) != resp {
		t.Errorf("the response's traffic line: %+v", e)
	}
	// A late update of an ended exchange changes nothing but totals; one
	// of an unknown exchange is ignored.
	s.Apply(update(2, 99, 1, resp))
	if b.Len() != 1 {
		t.Errorf("an update made an exchange")
	}
}

// Failures: no response (connection refused), an HTTP error status and a
// body that broke are failed exchanges, counted once each.
func TestNetworkFailures(t *testing.T) {
	s := started(t, Config{})
	refused := Exchange{Stamp: Stamp{Time: at(1)}, ID: 1, Method: "POST", Err: "dial tcp 127.0.0.1:1: connect: connection refused"}
	s.Apply(refused)
	s.Apply(exch(2, 2, "POST", 404, ""))
	s.Apply(exch(3, 3, "GET", 200, ""))
	s.Apply(ExchangeUpdate{Stamp: Stamp{Time: at(4)}, ID: 3, End: true, Err: "unexpected EOF"})
	s.Apply(ExchangeUpdate{Stamp: Stamp{Time: at(5)}, ID: 3, End: true, Err: "again"})
	b := s.Network()
	if b.Failed() != 3 || b.At(0).Open || !b.At(0).Failed() || b.At(2).EndErr != "unexpected EOF" {
		t.Errorf("failed %d: %+v %+v %+v", b.Failed(), b.At(0), b.At(1), b.At(2))
	}
}

// The book is bounded: past DefaultExchanges the oldest are forgotten (and
// their updates ignored), counted as dropped; the traffic is never copied.
func TestNetworkBounded(t *testing.T) {
	s := started(t, Config{})
	for i := range DefaultExchanges + 10 {
		s.Apply(exch(float64(i)/1000, uint64(i+1), "POST", 202, ""))
	}
	b := s.Network()
	if b.Len() != DefaultExchanges || b.Total() != DefaultExchanges+10 || b.Dropped() != 10 || b.At(0).ID != 11 {
		t.Fatalf("len %d total %d dropped %d first %d", b.Len(), b.Total(), b.Dropped(), b.At(0).ID)
	}
	if len(b.list) > 2*DefaultExchanges+1 || len(b.byKey) != DefaultExchanges {
		t.Errorf("the book holds %d slots, %d keys", len(b.list), len(b.byKey))
	}
	s.Apply(ExchangeUpdate{Stamp: Stamp{Time: at(9)}, ID: 1, End: true, Err: "x"})
	if b.Failed() != 0 {
		t.Error("an update of a forgotten exchange was folded")
	}
}

// A stream delivers any number of messages; the book indexes MaxCarried of
// them and counts the rest. A message over the limit is found as the
// discarded line of its size.
func TestNetworkCarriedBounded(t *testing.T) {
	s := started(t, Config{})
	s.Apply(exch(1, 1, "GET", 200, ""))
	s.Apply(Wire{Stamp: Stamp{Time: at(1.1)}, Dir: In, Size: 5000, Discarded: true, Reason: "message over the limit of 4096 bytes"})
	s.Apply(ExchangeUpdate{Stamp: Stamp{Time: at(1.1)}, ID: 1, Messages: 1, Size: 5000, Over: true})
	note := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`
	for i := range 100 {
		s.Apply(in(2, note))
		s.Apply(update(2, 1, i+2, note))
	}
	x := s.Network().At(0)
	if x.Messages != 101 || len(x.Received) != MaxCarried || !x.Open {
		t.Errorf("messages %d, indexed %d", x.Messages, len(x.Received))
	}
	if r := x.Received[0]; r.Kind != KindDiscarded || r.Seq == 0 || s.History().BySeq(r.Seq).Size != 5000 {
		t.Errorf("the over-limit message: %+v", r)
	}
}
