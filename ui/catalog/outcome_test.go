package catalog

import (
	"encoding/json"
	"testing"

	"github.com/mcptui/mcptui/mcp"
)

// An outcome's response line is read as json.Unmarshal reads it: a line
// that is not JSON does not parse, a result is found whatever its key's
// case, the last one wins, and the page keeps its own copy of it.
func TestOutcomeReadsTheResponseLineAsUnmarshal(t *testing.T) {
	for _, c := range []struct{ line, raw, err string }{
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}}`, `{"content":[{"type":"text","text":"hi"}]}`, ""},
		{`{"jsonrpc":"2.0","id":1,"Result":{"content":[]},"result":{"isError":true}}`, `{"isError":true}`, ""},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[]}} x`, "", "the response line does not parse"},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[]},}`, "", "the response line does not parse"},
		{`[1]`, "", "the response line does not parse"},
		{`{"jsonrpc":"2.0","id":1}`, "", "no result is kept for this request"},
	} {
		line := []byte(c.line)
		res := outcomeResult(Outcome{Method: mcp.MethodCallTool, Target: "t", Line: json.RawMessage(line)}, &mcp.Tool{Name: "t"})
		for i := range line {
			line[i] = ' ' // the page's copy stays as it was
		}
		got := ""
		if len(res.notes) > 0 && res.notes[0].kind == noteErr {
			got = res.notes[0].text
		}
		if string(res.raw) != c.raw || (c.err != "" && got != c.err) {
			t.Errorf("%s: raw %s, note %q; want %s, %q", c.line, res.raw, got, c.raw, c.err)
		}
	}
}
