package model

import (
	"strings"
	"testing"
)

// What a later version brought, used on an older session, is marked in
// the traffic summary: audio and resource links in content, structured
// content, tool annotations and titles, a progress message, the
// completions capability, an elicitation request. On a version that has
// them nothing is marked.
func TestTrafficSummaryEraMarks(t *testing.T) {
	lines := []struct {
		line string
		dir  Direction
		want string // the mark on 2024-11-05
	}{
		{`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"%V","capabilities":{"completions":{},"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`, In,
			"(not in 2024-11-05: completions capability)"},
		{`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"},{"type":"audio","data":"AA","mimeType":"audio/wav"}]}}`, In,
			"(not in 2024-11-05: audio content) hi [audio]"},
		{`{"jsonrpc":"2.0","id":2,"result":{"messages":[{"role":"user","content":{"type":"audio","data":"AA","mimeType":"audio/wav"}}]}}`, In,
			"(not in 2024-11-05: audio content) 1 message(s)"},
		{`{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"a","title":"A","annotations":{"readOnlyHint":true},"inputSchema":{"type":"object"}},{"name":"b","title":"B","inputSchema":{"type":"object"}}]}}`, In,
			"(not in 2024-11-05: tool annotations, title) 2 tools"},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":2,"message":"half"}}`, In,
			"(not in 2024-11-05: progress message) 2 half"},
		{`{"jsonrpc":"2.0","id":9,"method":"elicitation/create","params":{"message":"name?","requestedSchema":{"type":"object"}}}`, In,
			"(not in 2024-11-05: elicitation)"},
		{`{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"resource_link","uri":"x://a","name":"a"}],"structuredContent":{"a":1}}}`, In,
			"(not in 2024-11-05: resource links, structuredContent)"},
	}
	for _, version := range []string{"2024-11-05", "2025-11-25"} {
		s := started(t, Config{})
		s.conn.Protocol = version
		for i, l := range lines {
			s.Apply(Wire{Stamp: Stamp{Time: at(float64(i))}, Dir: l.dir, Line: []byte(strings.ReplaceAll(l.line, "%V", version)), Size: len(l.line)})
			sum := s.History().At(s.History().Len() - 1).Summary
			if version == "2025-11-25" {
				if strings.Contains(sum, "not in") {
					t.Errorf("%s: marked %q", version, sum)
				}
				continue
			}
			if !strings.HasPrefix(sum, l.want) {
				t.Errorf("%s: summary %q, want it to start %q", version, sum, l.want)
			}
		}
	}
}
