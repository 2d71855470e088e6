package model

import (
	"bytes"
	"testing"

	"github.com/mcptui/mcptui/conn"
)

// preparedLines are lines of every kind FromConn reads ahead.
var preparedLines = []struct {
	out  bool
	line string
}{
	{true, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`},
	{false, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t7","progress":1,"total":2,"message":"half"}}`},
	{false, `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hi"}]}}`},
	{true, `{"jsonrpc":"2.0","id":8,"method":"resources/read","params":{"uri":"file:///a"}}`},
	{false, `{"jsonrpc":"2.0","id":8,"error":{"code":-32002,"message":"Resource not found"}}`},
	{false, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","logger":"a\"b","data":"caf\u00e9"}}`},
	{false, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"emergency","data":{"k":[1,2]}}}`},
	{false, `{"jsonrpc":"2.0","id":3,"method":"roots/list"}`},
	{false, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
	{false, `[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"in a batch"}}]`},
	{false, `{"jsonrpc":"2.0"}`},
}

// What FromConn reads ahead is what Apply would read: a session fed the
// lines through FromConn keeps the same entries and log as one fed bare
// Wires (read at Apply).
func TestPreparedLinesReadAsAppliedOnes(t *testing.T) {
	ahead, bare := started(t, Config{}), started(t, Config{})
	for _, c := range preparedLines {
		kind, dir := conn.Received, In
		if c.out {
			kind, dir = conn.Sent, Out
		}
		ahead.Apply(FromConn(conn.Event{Time: t0, Kind: kind, Line: []byte(c.line), Size: len(c.line)}))
		bare.Apply(Wire{Stamp: Stamp{Time: t0}, Dir: dir, Line: []byte(c.line), Size: len(c.line)})
	}
	ha, hb := ahead.History(), bare.History()
	if ha.Len() != hb.Len() {
		t.Fatalf("%d entries read ahead, %d at Apply", ha.Len(), hb.Len())
	}
	for i := range ha.Len() {
		a, b := ha.At(i), hb.At(i)
		if a.Kind != b.Kind || !bytes.Equal(a.ID, b.ID) || a.Method != b.Method || a.Summary != b.Summary {
			t.Errorf("entry %d read ahead: %v %s %q %q; at Apply: %v %s %q %q", i, a.Kind, a.ID, a.Method, a.Summary, b.Kind, b.ID, b.Method, b.Summary)
		}
	}
	if la, lb := ahead.Logs().Len(), bare.Logs().Len(); la != lb || la != 3 {
		t.Errorf("log lines: %d read ahead, %d at Apply, want 3", la, lb)
	}
	if ca, cb := len(ahead.calls), len(bare.calls); ca != cb {
		t.Errorf("calls: %d read ahead, %d at Apply", ca, cb)
	}
}

// Apply files what FromConn read: it does not read the line again (the
// reading happened on conn's goroutine, not the one folding events).
func TestApplyFilesWhatFromConnRead(t *testing.T) {
	s := started(t, Config{})
	line := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"read ahead"}}`)
	ev := FromConn(conn.Event{Time: t0, Kind: conn.Received, Line: line, Size: len(line)})
	w := ev.(Wire)
	copy(w.Line[bytes.Index(w.Line, []byte("read ahead")):], "READ AGAIN")
	s.Apply(w)
	if e := s.History().At(s.History().Len() - 1); e.Summary != "info flood: read ahead" {
		t.Errorf("summary %q: the line was read again at Apply", e.Summary)
	}
}

// FromConn's reading tells the live lint whether the line is valid JSON,
// so that the lint does not check a 15 MiB result a second time; a line
// it did not read, or read as not quite JSON, the lint checks itself.
func TestFromConnTellsTheLintTheLineIsValid(t *testing.T) {
	for _, c := range []struct {
		line  string
		valid bool
	}{
		{`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` + string(bytes.Repeat([]byte("x"), 1<<20)) + `"}]}}`, true},
		{` {"jsonrpc":"2.0","id":7,"result":{}} `, true},
		{`{"jsonrpc":"2.0","id":7,"result":{},}`, false},
		{`{"jsonrpc":"2.0","id":7,"result":{}} {"id":8}`, false},
		{`{"jsonrpc":"2.0","id":7,"result":{}`, false},
		{`[{"jsonrpc":"2.0","id":7,"result":{}}]`, false},
	} {
		w := FromConn(conn.Event{Time: t0, Kind: conn.Received, Line: []byte(c.line), Size: len(c.line)}).(Wire)
		if ln := w.lintLine(); ln.HeadRead && ln.Valid != c.valid || !ln.HeadRead && c.valid {
			t.Errorf("%.60q: read %v, valid %v; want valid %v", c.line, ln.HeadRead, ln.Valid, c.valid)
		}
	}
}
