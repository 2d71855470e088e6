package model

import "testing"

// TestResultSummary: a response's summary is what a person reads — the
// content's text, the tool error, the counts — never _meta or resultType.
func TestResultSummary(t *testing.T) {
	for _, c := range []struct{ result, want string }{
		{`{"_meta":{"x":1},"resultType":"complete","content":[{"type":"text","text":"Hello"}]}`, "Hello"},
		{`{"content":[{"type":"text","text":"no such city"}],"isError":true}`, "tool error: no such city"},
		{`{"content":[],"structuredContent":{"t":21}}`, `{"t":21}`},
		{`{"resultType":"input_required","inputRequests":{"a":{},"b":{}}}`, "input required: 2 question(s) for the person"},
		{`{"contents":[{"uri":"demo://readme","text":"# Demo\nline"}]}`, "demo://readme: # Demo line"},
		{`{"messages":[{},{}]}`, "2 message(s)"},
		{`{"tools":[{},{},{}],"nextCursor":"x"}`, "3 tools"},
		{`{"_meta":{"a":1},"resultType":"complete","value":7}`, `{"value":7}`},
		{`{}`, `{}`},
	} {
		if got := resultSummary([]byte(c.result)); got != c.want {
			t.Errorf("resultSummary(%s) = %q, want %q", c.result, got, c.want)
		}
	}
}
