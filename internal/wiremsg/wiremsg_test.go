package wiremsg

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		line string
		want Msg
		ok   bool
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","_meta":{"progressToken":"p1","traceparent":"00-a-b-01","io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
			Msg{Kind: Request, Method: "tools/call", ID: "7", IDString: "7", Target: "echo", ProgressToken: `"p1"`, TraceParent: "00-a-b-01", Protocol: "2026-07-28"}, true},
		{`{"jsonrpc":"2.0","id":"abc","method":"prompts/get","params":{"name":"greet"}}`,
			Msg{Kind: Request, Method: "prompts/get", ID: `"abc"`, IDString: "abc", Target: "greet"}, true},
		{`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///x"}}`,
			Msg{Kind: Request, Method: "resources/read", ID: "1", IDString: "1", URI: "file:///x"}, true},
		{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3,"progress":1}}`,
			Msg{Kind: Notification, Method: "notifications/progress", ProgressToken: "3"}, true},
		{`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":10,"reason":"Request timed out"}}`,
			Msg{Kind: Notification, Method: "notifications/cancelled", CancelledID: "10", Reason: "Request timed out"}, true},
		{`{"jsonrpc":"2.0","id":9,"result":{"content":[],"isError":true}}`, Msg{Kind: Response, ID: "9", IDString: "9", ToolError: true}, true},
		{`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`, Msg{Kind: Response, ID: "1", IDString: "1", Protocol: "2025-11-25"}, true},
		{`{"jsonrpc":"2.0","id":5,"result":{"resultType":"input_required"}}`, Msg{Kind: Response, ID: "5", IDString: "5", InputRequired: true}, true},
		{`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, Msg{}, false},
		{`not json`, Msg{}, false},
		{`{"jsonrpc":"2.0","id":null,"result":{}}`, Msg{}, false},
	}
	for _, c := range cases {
		got, ok := Parse([]byte(c.line))
		got.Params, got.Result, got.Error = nil, nil, nil
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Parse(%s) = %+v, %v; want %+v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
	m, _ := Parse([]byte(`{"jsonrpc":"2.0","id":8,"error":{"code":-32001,"message":"boom"}}`))
	if m.ErrorType() != "-32001" || m.Error.Message != "boom" {
		t.Errorf("error response: %+v", m)
	}
	if r, _ := Parse([]byte(cases[0].line)); r.SpanName() != "tools/call echo" {
		t.Errorf("span name %q", r.SpanName())
	}
	if r, _ := Parse([]byte(cases[2].line)); r.SpanName() != "resources/read" {
		t.Errorf("span name %q", r.SpanName())
	}
}

// TestParseWrongTypedMembers: a request whose params hold a member of the
// wrong type (check's probes send "name": 42) still gives its
// traceparent, protocol and progress token: one bad member lost the whole
// params (the span of such a probe took an id of its own, not the one the
// server read).
func TestParseWrongTypedMembers(t *testing.T) {
	const tp = "00-356bf95c80363dcc7c214dfadf5c3286-09e8e6985d368054-01"
	m, ok := Parse([]byte(`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"arguments":"not an object","name":42,"uri":[],` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":7,"traceparent":"` + tp + `"}}}`))
	if !ok || m.Kind != Request || m.Method != "tools/call" {
		t.Fatalf("Parse = %+v, %v", m, ok)
	}
	if m.TraceParent != tp || m.Protocol != "2026-07-28" || m.ProgressToken != "7" || m.Target != "" || m.URI != "" {
		t.Errorf("traceparent %q protocol %q token %q target %q uri %q", m.TraceParent, m.Protocol, m.ProgressToken, m.Target, m.URI)
	}
	m, _ = Parse([]byte(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","_meta":{"traceparent":5,"progressToken":"p"}}}`))
	if m.Target != "echo" || m.TraceParent != "" || m.ProgressToken != `"p"` {
		t.Errorf("target %q traceparent %q token %q", m.Target, m.TraceParent, m.ProgressToken)
	}
}
