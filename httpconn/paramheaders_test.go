package httpconn_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
)

// The spec's encoding examples, and the sentinel's own look-alike.
func TestEncodeHeaderValue(t *testing.T) {
	for in, want := range map[string]string{
		"us-west1":           "us-west1",
		"Hello, 世界":          "=?base64?SGVsbG8sIOS4lueVjA==?=",
		" padded ":           "=?base64?IHBhZGRlZCA=?=",
		"line1\nline2":       "=?base64?bGluZTEKbGluZTI=?=",
		"=?base64?literal?=": "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=",
		"":                   "",
		"a\tb":               "=?base64?YQli?=",
		"SELECT * FROM x":    "SELECT * FROM x",
	} {
		if got := httpconn.EncodeHeaderValue(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// The constraints on x-mcp-header: each broken one is an error naming it;
// valid annotations (nested through properties too) are found.
func TestParamHeaders(t *testing.T) {
	hs, err := httpconn.ParamHeaders(json.RawMessage(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"n":{"type":"integer","x-mcp-header":"N"},
		"outer":{"type":"object","properties":{"inner":{"type":"boolean","x-mcp-header":"Inner"}}},
		"query":{"type":"string"}}}`))
	want := []httpconn.ParamHeader{{"N", []string{"n"}}, {"Inner", []string{"outer", "inner"}}, {"Region", []string{"region"}}}
	if err != nil || !reflect.DeepEqual(hs, want) {
		t.Fatalf("valid: %+v, %v", hs, err)
	}
	for name, schema := range map[string]string{
		"empty":          `{"properties":{"v":{"type":"string","x-mcp-header":""}}}`,
		"object":         `{"properties":{"v":{"type":"object","x-mcp-header":"V"}}}`,
		"array":          `{"properties":{"v":{"type":"array","items":{"type":"string"},"x-mcp-header":"V"}}}`,
		"null":           `{"properties":{"v":{"type":"null","x-mcp-header":"V"}}}`,
		"number":         `{"properties":{"v":{"type":"number","x-mcp-header":"V"}}}`,
		"duplicate":      `{"properties":{"a":{"type":"string","x-mcp-header":"Region"},"b":{"type":"string","x-mcp-header":"Region"}}}`,
		"duplicate case": `{"properties":{"a":{"type":"string","x-mcp-header":"MyField"},"b":{"type":"string","x-mcp-header":"myfield"}}}`,
		"space":          `{"properties":{"v":{"type":"string","x-mcp-header":"My Region"}}}`,
		"colon":          `{"properties":{"v":{"type":"string","x-mcp-header":"Region:Primary"}}}`,
		"non-ASCII":      `{"properties":{"v":{"type":"string","x-mcp-header":"Région"}}}`,
		"control":        `{"properties":{"v":{"type":"string","x-mcp-header":"Region\t1"}}}`,
		"under items":    `{"properties":{"v":{"type":"array","items":{"type":"string","x-mcp-header":"V"}}}}`,
		"under anyOf":    `{"anyOf":[{"properties":{"v":{"type":"string","x-mcp-header":"V"}}}]}`,
		"under $defs":    `{"$defs":{"x":{"type":"string","x-mcp-header":"V"}}}`,
		"on the root":    `{"type":"string","x-mcp-header":"V"}`,
		"not a string":   `{"properties":{"v":{"type":"string","x-mcp-header":7}}}`,
	} {
		if _, err := httpconn.ParamHeaders(json.RawMessage(schema)); err == nil {
			t.Errorf("%s: accepted %s", name, schema)
		}
	}
}

// Over Streamable HTTP on 2026-07-28, a tools/call carries Mcp-Method,
// Mcp-Name and the Mcp-Param-* mirrors of the tool's annotated arguments
// (learned from tools/list), encoded; null and unannotated ones are not
// mirrored; a tool whose annotations are invalid gets none.
func TestStandardAndParamHeaders(t *testing.T) {
	var mu sync.Mutex
	var calls []http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		id := string(body[strings.Index(string(body), `"id":`)+5 : strings.Index(string(body), `,"method"`)])
		switch {
		case strings.Contains(string(body), `"tools/list"`):
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+id+`,"result":{"tools":[
				{"name":"t","inputSchema":{"type":"object","properties":{
					"region":{"type":"string","x-mcp-header":"Region"},
					"greeting":{"type":"string","x-mcp-header":"Greeting"},
					"priority":{"type":"integer","x-mcp-header":"Priority"},
					"verbose":{"type":"boolean","x-mcp-header":"Verbose"},
					"gone":{"type":"string","x-mcp-header":"Gone"},
					"method_val":{"type":"string","x-mcp-header":"Method"},
					"query":{"type":"string"}}}},
				{"name":"bad","inputSchema":{"type":"object","properties":{"v":{"type":"string","x-mcp-header":"A B"}}}}]}}`)
		default:
			mu.Lock()
			calls = append(calls, r.Header.Clone())
			mu.Unlock()
			io.WriteString(w, `{"jsonrpc":"2.0","id":`+id+`,"result":{"content":[]}}`)
		}
	}))
	t.Cleanup(srv.Close)
	c, _ := dial(t, srv.URL+"/mcp", httpconn.Options{})
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`
	if _, err := c.Call(t.Context(), "tools/list", json.RawMessage(`{`+meta+`}`)); err != nil {
		t.Fatal(err)
	}
	args := `{"region":"us-west1","greeting":"Hello, 世界","priority":42,"verbose":false,"gone":null,"method_val":"m","query":"SELECT 1"}`
	for _, tool := range []string{"t", "bad"} {
		if _, err := c.Call(t.Context(), "tools/call", json.RawMessage(`{"name":"`+tool+`","arguments":`+args+`,`+meta+`}`)); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	h := calls[0]
	for name, want := range map[string]string{
		"Mcp-Method": "tools/call", "Mcp-Name": "t", "Mcp-Protocol-Version": "2026-07-28",
		"Mcp-Param-Region": "us-west1", "Mcp-Param-Greeting": "=?base64?SGVsbG8sIOS4lueVjA==?=",
		"Mcp-Param-Priority": "42", "Mcp-Param-Verbose": "false", "Mcp-Param-Method": "m",
	} {
		if got := h.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	for _, name := range []string{"Mcp-Param-Gone", "Mcp-Param-Query"} {
		if _, ok := h[name]; ok {
			t.Errorf("%s sent: %q", name, h.Get(name))
		}
	}
	for name := range calls[1] {
		if strings.HasPrefix(name, "Mcp-Param-") {
			t.Errorf("the invalid tool's call carries %s", name)
		}
	}
}

// A modern server's 404 with a JSON-RPC error (say -32601 for initialize
// on a 2026-07-28 server) answers the request: no fallback to HTTP+SSE.
func TestNoFallbackOnJSONRPCError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`)
	}))
	t.Cleanup(srv.Close)
	c, x := dial(t, srv.URL+"/mcp", httpconn.Options{})
	_, err := c.Call(t.Context(), "initialize", json.RawMessage(`{}`))
	var e *conn.Error
	if !errors.As(err, &e) || e.Code != conn.CodeMethodNotFound {
		t.Fatalf("initialize: %v, want the server's -32601", err)
	}
	if len(x.list()) != 1 || c.Mode() != httpconn.Auto {
		t.Errorf("mode %v, exchanges %+v", c.Mode(), x.list())
	}
}
