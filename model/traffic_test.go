package model

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/conn"
)

func TestHistoryEvictsOldestUnderTheCap(t *testing.T) {
	line := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + strings.Repeat("x", 800) + `"}}`
	s := started(t, Config{HistoryBytes: 10 << 10})
	for i := range 100 {
		s.Apply(in(float64(i), line))
	}
	h := s.History()
	if h.Bytes() > 10<<10 {
		t.Errorf("history holds %d bytes over its cap", h.Bytes())
	}
	if h.Evicted() == 0 || h.Evicted()+h.Len() != 100 {
		t.Errorf("evicted %d, kept %d", h.Evicted(), h.Len())
	}
	if h.FirstSeq() != uint64(h.Evicted()+1) || h.BySeq(1) != nil || h.BySeq(100) == nil || h.BySeq(101) != nil {
		t.Errorf("seq lookup wrong: first %d", h.FirstSeq())
	}
	if i := h.Index(100); i != h.Len()-1 {
		t.Errorf("Index(100) = %d", i)
	}
	if e := h.BySeq(100); e.Summary != "info: "+strings.Repeat("x", summaryBytes-6) {
		t.Errorf("summary = %q", e.Summary)
	}
}

func TestHugeLine(t *testing.T) {
	huge := `{"jsonrpc":"2.0","id":1,"result":{"blob":"` + strings.Repeat("A", 16<<20) + `"}}`
	s := started(t, Config{})
	s.Apply(out(0, `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"big://1"}}`))
	s.Apply(in(1, huge))
	e := s.History().At(1)
	if e.Kind != KindResponse || e.Size != len(huge) || len(e.Raw) != len(huge) || len(e.Summary) > summaryBytes {
		t.Errorf("entry kind %v size %d raw %d summary %d", e.Kind, e.Size, len(e.Raw), len(e.Summary))
	}
	// Larger than the whole cap: listed, not kept.
	small := started(t, Config{HistoryBytes: 1 << 20})
	small.Apply(in(1, huge))
	if e := small.History().At(0); e.Raw != nil || e.Size != len(huge) {
		t.Errorf("over-cap line kept %d bytes", len(e.Raw))
	}
}

func TestDiscardedAndLost(t *testing.T) {
	s := started(t, Config{})
	s.Apply(Wire{Stamp: Stamp{Time: at(1)}, Dir: In, Line: []byte("Server starting..."), Size: 18, Discarded: true, Reason: "not JSON"})
	s.Apply(Wire{Stamp: Stamp{Time: at(2)}, Dir: In, Size: 1 << 30, Discarded: true, Reason: "line too long"})
	s.Apply(Wire{Stamp: Stamp{Time: at(3)}, Dir: In, Size: 10, Lost: true})
	s.Apply(Lost{Time: at(4), N: 5})
	h := s.History()
	if e := h.At(0); e.Kind != KindDiscarded || e.Summary != "not JSON: Server starting..." || string(e.Raw) != "Server starting..." {
		t.Errorf("discarded = %+v", e)
	}
	if e := h.At(1); e.Kind != KindDiscarded || e.Size != 1<<30 || e.Raw != nil {
		t.Errorf("over-long = %+v", e)
	}
	if c := s.Counters(); c.Errors != 2 || c.Lost != 6 {
		t.Errorf("counters = %+v", c)
	}
	// A run of lost lines is one entry that counts them.
	s.Apply(Wire{Stamp: Stamp{Time: at(5)}, Dir: In, Size: 20, Lost: true})
	s.Apply(Wire{Stamp: Stamp{Time: at(6)}, Dir: In, Size: 30, Lost: true})
	if n := h.Len(); n != 3 {
		t.Fatalf("%d entries", n)
	}
	if e := h.At(2); e.Lost != 3 || e.Size != 60 || !e.Time.Equal(at(6)) || e.Summary != "3 lines lost: the inspector was overloaded" {
		t.Errorf("lost = %+v", e)
	}
	if h.Bytes() != cost(h.At(0))+cost(h.At(1))+cost(h.At(2)) {
		t.Errorf("accounted %d bytes", h.Bytes())
	}
	s.Apply(Wire{Stamp: Stamp{Time: at(7)}, Dir: Out, Size: 5, Lost: true})
	if n := h.Len(); n != 4 {
		t.Errorf("a lost line the other way joined the run: %d entries", n)
	}
}

func TestKindsAndSummaries(t *testing.T) {
	s := started(t, Config{})
	lines := []struct {
		w       Wire
		kind    Kind
		method  string
		summary string
	}{
		{out(0, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`), KindRequest, "tools/call", "echo"},
		{out(0, `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"a"}}`), KindRequest, "tools/list", `{"cursor":"a"}`},
		{in(0, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1,"total":4,"message":"go"}}`), KindNotification, "notifications/progress", "1/4 go"},
		{in(0, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"db","data":{"a":1}}}`), KindNotification, "notifications/message", `warning db: {"a":1}`},
		{out(0, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"bored"}}`), KindNotification, "notifications/cancelled", "id 1: bored"},
		{in(0, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`), KindError, "", "-32700 Parse error"},
		{in(0, `[1,2]`), KindInvalid, "", ""},
		{in(0, `{"jsonrpc":"2.0","id":3,"result":{ "a" :
 1}}`), KindResponse, "", `{ "a" : 1}`},
	}
	for i, l := range lines {
		s.Apply(l.w)
		e := s.History().At(i)
		if e.Kind != l.kind || e.Method != l.method || e.Summary != l.summary {
			t.Errorf("line %d: kind %v method %q summary %q; want %v %q %q", i, e.Kind, e.Method, e.Summary, l.kind, l.method, l.summary)
		}
	}
}

func TestFromConn(t *testing.T) {
	line := []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)
	ev := FromConn(conn.Event{Time: t0, Kind: conn.Received, Line: line, Size: len(line)})
	line[0] = 'X'
	w := ev.(Wire)
	if w.Dir != In || w.Line[0] != '{' || w.Size != len(line) {
		t.Errorf("received = %+v", w)
	}
	if w := FromConn(conn.Event{Kind: conn.Sent, Line: line}).(Wire); w.Dir != Out {
		t.Errorf("sent = %+v", w)
	}
	if w := FromConn(conn.Event{Kind: conn.Discarded, Size: 9, Err: errors.New("too long")}).(Wire); !w.Discarded || w.Reason != "too long" {
		t.Errorf("discarded = %+v", w)
	}
	if x := FromConn(conn.Event{Kind: conn.Exited, Err: errors.New("exit status 3")}).(Exited); x.Status != "exit status 3" {
		t.Errorf("exited = %+v", x)
	}
}

func TestStderrBounds(t *testing.T) {
	s := started(t, Config{StderrLines: 3, StderrLineBytes: 4})
	for _, l := range []string{"one", "two", "three", "four"} {
		s.Apply(Stderr{Stamp: Stamp{Time: t0}, Line: l})
	}
	log := s.StderrLog()
	if log.Len() != 3 || log.Evicted() != 1 || log.At(0).Text != "two" || log.At(1).Text != "thre" || !log.At(1).Truncated {
		t.Errorf("stderr: len %d evicted %d first %+v second %+v", log.Len(), log.Evicted(), log.At(0), log.At(1))
	}
	if tail := s.StderrTail(2); len(tail) != 2 || tail[1] != "four" {
		t.Errorf("tail = %q", tail)
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int]string{
		0: "0 B", 999: "999 B", 1023: "1.0 KiB", 1536: "1.5 KiB", 16 << 20: "16.0 MiB",
		1<<30 - 1: "1.0 GiB", 1 << 30: "1.0 GiB", 1000 << 30: "1.0 TiB",
	} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
}
