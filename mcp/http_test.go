package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
)

// go-sdk's streamable HTTP handler on 127.0.0.1: Connect takes its URL
// where a command would be.
func startSDKHTTP(t *testing.T) string {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "gosdk-http", Version: "1.8.0-test"}, nil)
	type echoIn struct {
		Message string `json:"message"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "echo"}, func(_ context.Context, req *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("%s (protocol %s)", in.Message, req.ProtocolVersion())}}}, nil, nil
	})
	s.AddTool(&sdk.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &sdk.ElicitParams{Message: "Your name?",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)})
		if err != nil {
			return nil, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("%s: %v", res.Action, res.Content["name"])}}}, nil
	})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func TestConnectHTTP(t *testing.T) {
	url := startSDKHTTP(t)
	for _, tc := range []struct {
		name     string
		versions []string
	}{{"negotiated", nil}, {"pinned 2025-11-25", []string{Version20251125}}} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Connect(t.Context(), url, nil, Options{Versions: tc.versions,
				ElicitForm: AnswerFunc(func(context.Context, *Question) (json.RawMessage, error) {
					return json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`), nil
				})})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if !c.Remote() || c.PID() != 0 || c.Session().Server.Name != "gosdk-http" {
				t.Errorf("remote %v pid %d server %+v", c.Remote(), c.PID(), c.Session().Server)
			}
			n := c.Negotiation()
			if n.Spawns != 1 {
				t.Errorf("%d connections opened, want 1: %+v", n.Spawns, n.Steps)
			}
			tools, err := c.ListTools(t.Context())
			if err != nil || len(tools.Items) != 2 {
				t.Fatalf("tools/list: %+v, %v", tools, err)
			}
			res, err := c.CallTool(t.Context(), "echo", map[string]string{"message": "hi"})
			if err != nil || !strings.Contains(string(res.Raw), "hi (protocol "+c.Version()+")") {
				t.Fatalf("echo: %+v, %v", res, err)
			}
			if c.Version() == Version20251125 {
				res, err = c.CallTool(t.Context(), "ask", map[string]any{})
				if err != nil || !strings.Contains(string(res.Raw), "accept: Ada") {
					t.Fatalf("ask (an elicitation over the SSE stream): %+v, %v", res, err)
				}
			}
			t.Logf("version %s: %s", c.Version(), n.Reason)
		})
	}
}

// An older HTTP server refuses server/discover with a plain 400 (no
// session): the client initializes on the same endpoint, it does not give up.
func TestConnectHTTPDiscoverRefused(t *testing.T) {
	inner := startSDKHTTP(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"server/discover"`) {
			http.Error(w, "Bad Request: missing session ID", http.StatusBadRequest)
			return
		}
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, inner, bytes.NewReader(body))
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		maps.Copy(w.Header(), resp.Header)
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(flushWriter{w}, resp.Body)
	}))
	t.Cleanup(srv.Close)
	c, err := Connect(t.Context(), srv.URL+"/mcp", nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Version() == "" || c.Session().Server.Name != "gosdk-http" || c.Negotiation().Spawns != 1 {
		t.Fatalf("version %q server %+v steps %+v", c.Version(), c.Session().Server, c.Negotiation().Steps)
	}
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
}

type flushWriter struct{ w http.ResponseWriter }

func (f flushWriter) Write(b []byte) (int, error) {
	n, err := f.w.Write(b)
	f.w.(http.Flusher).Flush()
	return n, err
}

// An old HTTP+SSE server (go-sdk's SSE handler): Connect finds it by the
// fallback, or opens it as one when told; the session works both ways,
// elicitation included, and the negotiation says which transport it is.
func TestConnectSSE(t *testing.T) {
	s := sdk.NewServer(&sdk.Implementation{Name: "gosdk-sse", Version: "1.8.0-test"}, nil)
	s.AddTool(&sdk.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &sdk.ElicitParams{Message: "Your name?",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)})
		if err != nil {
			return nil, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("%s: %v", res.Action, res.Content["name"])}}}, nil
	})
	srv := httptest.NewServer(sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(srv.Close)
	for _, mode := range []httpconn.Mode{httpconn.Auto, httpconn.SSE} {
		t.Run(mode.String(), func(t *testing.T) {
			c, err := Connect(t.Context(), srv.URL+"/sse", nil, Options{HTTP: httpconn.Options{Mode: mode},
				ElicitForm: AnswerFunc(func(context.Context, *Question) (json.RawMessage, error) {
					return json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`), nil
				})})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if c.HTTPMode() != httpconn.SSE || c.Session().Server.Name != "gosdk-sse" || Stateless(c.Version()) {
				t.Fatalf("mode %v server %+v version %s", c.HTTPMode(), c.Session().Server, c.Version())
			}
			said := false
			for _, st := range c.Negotiation().Steps {
				if st.Kind == StepInitialize && strings.Contains(st.Decision, "HTTP+SSE") &&
					strings.Contains(st.Decision, "fell back") == (mode == httpconn.Auto) {
					said = true
				}
			}
			if !said {
				t.Errorf("the negotiation does not say the transport: %+v", c.Negotiation().Steps)
			}
			res, err := c.CallTool(t.Context(), "ask", map[string]any{})
			if err != nil || !strings.Contains(string(res.Raw), "accept: Ada") {
				t.Fatalf("ask: %+v, %v", res, err)
			}
		})
	}
}

// syncBuffer is an io.Writer tests read while the client writes.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A server that forgets the session (here: restarted, a new handler that
// answers 404 for the old id) gets a fresh initialize without the old id,
// the request is re-sent once, and the user is told.
func TestHTTPSessionExpiry(t *testing.T) {
	s := sdk.NewServer(&sdk.Implementation{Name: "gosdk-http", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil, nil
	})
	newHandler := func() http.Handler {
		return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	}
	var current atomic.Pointer[http.Handler]
	h := newHandler()
	current.Store(&h)
	var inits []string // the session id each initialize carried
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"method":"initialize"`) {
			mu.Lock()
			inits = append(inits, r.Header.Get("Mcp-Session-Id"))
			mu.Unlock()
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		(*current.Load()).ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	log := &syncBuffer{}
	c, err := Connect(t.Context(), srv.URL+"/mcp", nil, Options{Versions: []string{Version20251125}, Conn: conn.Options{Stderr: log}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
	h2 := newHandler() // the server restarted: it knows no session
	current.Store(&h2)
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatalf("tools/list after the session expired: %v", err)
	}
	if _, err := c.CallTool(t.Context(), "echo", map[string]any{}); err != nil {
		t.Fatalf("tools/call in the new session: %v", err)
	}
	mu.Lock()
	got := slices.Clone(inits)
	mu.Unlock()
	if len(got) != 2 || got[1] != "" {
		t.Errorf("initializes carried session ids %q, want two, the second without one", got)
	}
	expired := 0
	for _, st := range c.Negotiation().Steps {
		if st.Kind == StepSessionExpired {
			expired++
		}
	}
	if expired != 1 {
		t.Errorf("%d session-expired steps: %+v", expired, c.Negotiation().Steps)
	}
	if !strings.Contains(log.String(), "the server ended the session") {
		t.Errorf("the user was not told: %q", log.String())
	}
}

// On 2026-07-28 over HTTP the client drops tools whose x-mcp-header is
// invalid (saying why), refuses to call them, and before calling a tool
// whose annotations it has not seen lists the tools, so the call carries
// its Mcp-Param-* headers.
func TestHTTPToolHeaderRules(t *testing.T) {
	var mu sync.Mutex
	var methods []string
	var region string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &req)
		mu.Lock()
		methods = append(methods, req.Method)
		if req.Method == "tools/call" {
			region = r.Header.Get("Mcp-Param-Region")
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		result := `{"content":[{"type":"text","text":"ok"}]}`
		if req.Method == "tools/list" {
			result = `{"tools":[
				{"name":"valid_tool","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}},
				{"name":"invalid_space","inputSchema":{"type":"object","properties":{"v":{"type":"string","x-mcp-header":"My Region"}}}}]}`
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
	}))
	t.Cleanup(srv.Close)
	connect := func() *Client {
		c, err := Connect(t.Context(), srv.URL+"/mcp", nil, Options{Versions: []string{Version20260728}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		return c
	}

	c := connect()
	if _, err := c.CallTool(t.Context(), "valid_tool", map[string]any{"region": "us-west1"}); err != nil {
		t.Fatalf("valid_tool: %v", err)
	}
	mu.Lock()
	if !slices.Equal(methods, []string{"tools/list", "tools/call"}) || region != "us-west1" {
		t.Errorf("methods %v, Mcp-Param-Region %q: want a tools/list first and the header", methods, region)
	}
	mu.Unlock()

	c = connect()
	l, err := c.ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Items) != 1 || l.Items[0].Name != "valid_tool" || len(l.Rejected) != 1 || l.Rejected[0].Name != "invalid_space" ||
		!strings.Contains(l.Rejected[0].Reason, "not an HTTP token") {
		t.Fatalf("items %+v rejected %+v", l.Items, l.Rejected)
	}
	mu.Lock()
	before := len(methods)
	mu.Unlock()
	if _, err := c.CallTool(t.Context(), "invalid_space", map[string]any{"v": "x"}); err == nil || !strings.Contains(err.Error(), "rejected") {
		t.Errorf("calling the invalid tool: %v, want it refused", err)
	}
	mu.Lock()
	if len(methods) != before {
		t.Errorf("the invalid tool's call went out: %v", methods[before:])
	}
	mu.Unlock()
}

// On a 2026-07-28 HTTP server (go-sdk's), Listen opens a subscriptions/listen
// stream: the acknowledgement, then a list change the server makes.
func TestListenHTTP(t *testing.T) {
	s := sdk.NewServer(&sdk.Implementation{Name: "gosdk-http", Version: "1.8.0-test"},
		&sdk.ServerOptions{Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}}})
	schema := json.RawMessage(`{"type":"object"}`)
	noop := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{}, nil
	}
	s.AddTool(&sdk.Tool{Name: "first", InputSchema: schema}, noop)
	// go-sdk speaks 2026-07-28 over HTTP only when stateless.
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	c, err := Connect(t.Context(), srv.URL+"/mcp", nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Version() != Version20260728 {
		t.Fatalf("negotiated %s, want %s", c.Version(), Version20260728)
	}
	sub, err := c.Listen(t.Context(), Filter{ToolsListChanged: true})
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	defer sub.Close()
	if !strings.Contains(string(sub.Accepted()), `"toolsListChanged":true`) {
		t.Errorf("Accepted = %s", sub.Accepted())
	}
	s.AddTool(&sdk.Tool{Name: "second", InputSchema: schema}, noop)
	n, err := sub.Next(t.Context())
	if err != nil || n.Method != "notifications/tools/list_changed" {
		t.Fatalf("Next = %+v, %v", n, err)
	}
	tools, err := c.ListTools(t.Context())
	if err != nil || len(tools.Items) != 2 {
		t.Fatalf("tools/list after the change: %+v, %v", tools, err)
	}
}
