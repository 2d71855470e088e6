package lint

import (
	"slices"
	"testing"

	"github.com/mcptui/mcptui/internal/jsonscan"
)

// withHead is ln with its Head read, as the model passes it.
func withHead(ln Line) Line {
	ln.HeadOK = jsonscan.Fields(ln.Raw, ln.Head[:], "jsonrpc", "id", "method", "params")
	ln.HeadRead = true
	return ln
}

// A line whose head the caller read is judged as one the linter reads
// itself: the same findings, line after line of a session.
func TestAReadHeadJudgesAsTheLine(t *testing.T) {
	lines := []Line{
		{Out: true, Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)},
		{Raw: []byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`)},
		{Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"loud","data":"x"}}`)},
		{Raw: []byte(`{"jsonrpc":"1.0","method":"notifications/message","params":{"level":"info","data":"x"}}`)},
		{Raw: []byte(`{"jsonrpc":"2.0","id":null,"method":"notifications/message","params":{"level":"info","data":"x"}}`)},
		{Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"nope","progress":1}}`)},
		{Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}`)},
		{Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"},}`)},
	}
	own, read := New(), New()
	found := 0
	for i, ln := range lines {
		ln.Seq = uint64(i + 1)
		a, b := own.Observe(ln), read.Observe(withHead(ln))
		if !slices.Equal(a, b) {
			t.Errorf("line %d: %v judged alone, %v with its head read", i+1, a, b)
		}
		found += len(a)
	}
	if found < 4 {
		t.Errorf("%d findings in all: the lines do not exercise the rules", found)
	}
}

// The head given is the one judged: the line is not read again.
func TestAReadHeadIsNotReadAgain(t *testing.T) {
	l := New()
	ln := Line{Seq: 1, Raw: []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"loud","data":"x"}}`)}
	ln = withHead(ln)
	ln.Head[3] = []byte(`{"level":"info","data":"x"}`)
	if fs := l.Observe(ln); len(fs) != 0 {
		t.Errorf("findings %v: the line was read again instead of its head", fs)
	}
}
