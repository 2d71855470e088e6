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
		{`{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"logging":{},"resources":{"subscribe":true,"listChanged":false}},"serverInfo":{"name":"weather","version":"1.4.2"},"instructions":"Use it."}`,
			"weather 1.4.2 · speaks 2025-11-25 · offers logging, resources (subscribe), tools (listChanged)"},
		{`{"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{"prompts":{}},"cacheScope":"public","ttlMs":60000,"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"demo","version":"0.9"}}}`,
			"demo 0.9 · speaks 2026-07-28 2025-11-25 · offers prompts"},
		{`{"protocolVersion":"2024-11-05","capabilities":{},"serverInfo":{}}`, "speaks 2024-11-05 · offers nothing"},
	} {
		if got := resultSummary([]byte(c.result)); got != c.want {
			t.Errorf("resultSummary(%s) = %q, want %q", c.result, got, c.want)
		}
	}
}
