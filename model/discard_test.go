package model

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// An answer discarded over the limit names the request it answered, which
// still times out; a depth overflow is named as such.
func TestDiscardedAnswerIsLinkedToItsRequest(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := New(Config{Timeout: time.Second})
	s.Apply(Ready{Stamp: Stamp{Time: t0}})
	s.Apply(Wire{Stamp: Stamp{Time: t0}, Dir: Out, Line: []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"big"}}`)})
	s.Apply(FromConn(conn.Event{Time: t0, Kind: conn.Discarded, Size: 20 << 20,
		Head: []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"xxxxxxxx`), Err: errors.New("line longer than the limit")}))
	c := s.Call("0/out/7")
	if c == nil {
		for _, k := range s.InFlight() {
			c = k
		}
	}
	want := "request 7's answer, 20.0 MiB, was discarded over the 16.0 MiB limit (raise --max-line-bytes)"
	if c == nil || c.AnswerDiscarded != want || c.Outcome.Kind != Pending {
		t.Fatalf("call %+v, want it pending with %q", c, want)
	}
	last := s.History().At(s.History().Len() - 1)
	if last.Summary != want || last.Link != c.RequestSeq {
		t.Errorf("history entry %+v", last)
	}
	_, text := ExplainDiscardedAnswer([]byte(`{"jsonrpc":"2.0","id":"a","result":[[[1]]]}`), nil, 40, 0, "JSON nested deeper than 10000 levels, the parser's limit")
	if !strings.Contains(text, `request "a"'s answer was discarded: JSON nested deeper`) {
		t.Errorf("depth: %q", text)
	}
}
