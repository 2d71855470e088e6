package httpconn_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/mcp"
)

var _ mcp.Transport = (*httpconn.Conn)(nil)

// sdkServer is go-sdk's streamable HTTP handler on 127.0.0.1 with a few
// tools; slowCancelled is closed when the "slow" tool's context ends.
type sdkServer struct {
	url           string
	slowStarted   chan struct{}
	slowCancelled chan struct{}
}

func startSDK(t *testing.T, jsonResponse bool) *sdkServer {
	t.Helper()
	return startSDKWith(t, "/mcp", func(s *sdk.Server) http.Handler {
		return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{JSONResponse: jsonResponse})
	})
}

// startSDKWith serves go-sdk's test server with the handler handler makes
// (a transport's) at path.
func startSDKWith(t *testing.T, path string, handler func(*sdk.Server) http.Handler) *sdkServer {
	t.Helper()
	st := &sdkServer{slowStarted: make(chan struct{}), slowCancelled: make(chan struct{})}
	var once sync.Once
	stop := make(chan struct{})
	s := sdk.NewServer(&sdk.Implementation{Name: "gosdk-http", Version: "1.8.0-test"}, nil)
	schema := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&sdk.Tool{Name: "progress", InputSchema: schema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		for i := 1; i <= 3; i++ {
			_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
				ProgressToken: req.Params.GetProgressToken(), Progress: float64(i), Total: 3, Message: fmt.Sprintf("step %d", i)})
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "progressed"}}}, nil
	})
	s.AddTool(&sdk.Tool{Name: "ask", InputSchema: schema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &sdk.ElicitParams{Message: "Your name?",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)})
		if err != nil {
			return nil, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("%s: %v", res.Action, res.Content["name"])}}}, nil
	})
	s.AddTool(&sdk.Tool{Name: "slow", InputSchema: schema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		close(st.slowStarted)
		select {
		case <-ctx.Done():
			once.Do(func() { close(st.slowCancelled) })
		case <-stop: // the test is over: let the server close
		}
		return nil, ctx.Err()
	})
	srv := httptest.NewServer(handler(s)) // 127.0.0.1
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) }) // runs first
	st.url = srv.URL + path
	return st
}

// exchanges records the HTTP exchanges and the messages.
type exchanges struct {
	mu  sync.Mutex
	all []httpconn.Exchange
	ev  []conn.Event
}

func (x *exchanges) exchange(e httpconn.Exchange) {
	x.mu.Lock()
	x.all = append(x.all, e)
	x.mu.Unlock()
}
func (x *exchanges) event(e conn.Event) {
	e.Line = append([]byte(nil), e.Line...)
	x.mu.Lock()
	x.ev = append(x.ev, e)
	x.mu.Unlock()
}

func (x *exchanges) list() []httpconn.Exchange {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]httpconn.Exchange(nil), x.all...)
}

func (x *exchanges) events() []conn.Event {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]conn.Event(nil), x.ev...)
}

// waitFor polls cond until it holds or a generous deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func dial(t *testing.T, url string, opts httpconn.Options) (*httpconn.Conn, *exchanges) {
	t.Helper()
	x := &exchanges{}
	opts.OnExchange, opts.Observer = x.exchange, x.event
	c, err := httpconn.Dial(t.Context(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c, x
}

func initialize(t *testing.T, c *httpconn.Conn) {
	t.Helper()
	ctx := t.Context()
	res, err := c.Call(ctx, "initialize", json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"1"}}`))
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if !strings.Contains(string(res), `"protocolVersion":"2025-06-18"`) {
		t.Fatalf("initialize result: %s", res)
	}
	if err := c.Notify(ctx, "notifications/initialized", nil); err != nil {
		t.Fatalf("initialized: %v", err)
	}
}

func TestGoSDKSession(t *testing.T) {
	for _, mode := range []struct {
		name string
		json bool
		want string
	}{{"sse", false, "text/event-stream"}, {"json", true, "application/json"}} {
		t.Run(mode.name, func(t *testing.T) {
			srv := startSDK(t, mode.json)
			c, x := dial(t, srv.url, httpconn.Options{Header: http.Header{"Authorization": {"Bearer s3cret"}}})
			initialize(t, c)
			if c.SessionID() == "" {
				t.Fatal("no session id from the initialize answer")
			}
			res, err := c.Call(t.Context(), "tools/list", nil)
			if err != nil || !strings.Contains(string(res), `"name":"progress"`) {
				t.Fatalf("tools/list: %s, %v", res, err)
			}
			var got []conn.Progress
			res, err = c.Call(t.Context(), "tools/call", json.RawMessage(`{"name":"progress","arguments":{}}`),
				conn.WithProgress(func(p conn.Progress) error { got = append(got, p); return nil }))
			if err != nil || !strings.Contains(string(res), "progressed") {
				t.Fatalf("tools/call progress: %s, %v", res, err)
			}
			if !mode.json && (len(got) != 3 || got[2].Progress != 3 || got[2].Total != 3 || got[2].Message != "step 3") {
				t.Errorf("progress: %+v", got)
			}
			sid := c.SessionID()
			if err := c.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			var posts, deletes int
			for i, e := range x.list() {
				if got := e.RequestHeader.Get("Authorization"); got != httpconn.Redacted {
					t.Errorf("exchange %d shows Authorization %q", i, got)
				}
				switch e.Method {
				case http.MethodPost:
					posts++
					if i > 0 && (e.RequestHeader.Get(httpconn.HeaderSessionID) != sid || e.RequestHeader.Get(httpconn.HeaderProtocolVersion) != "2025-06-18") {
						t.Errorf("POST %d headers: %v", i, e.RequestHeader)
					}
					if e.Status == 200 && !strings.HasPrefix(e.ResponseHeader.Get("Content-Type"), mode.want) {
						t.Errorf("POST %d answered %s, want %s", i, e.ResponseHeader.Get("Content-Type"), mode.want)
					}
				case http.MethodDelete:
					deletes++
					if e.Status/100 != 2 || e.RequestHeader.Get(httpconn.HeaderSessionID) != sid {
						t.Errorf("DELETE: %d %v", e.Status, e.RequestHeader)
					}
				}
			}
			if posts < 4 || deletes != 1 {
				t.Errorf("%d POSTs, %d DELETEs", posts, deletes)
			}
			var sent, received int
			for _, e := range x.events() {
				switch e.Kind {
				case conn.Sent:
					sent++
				case conn.Received:
					received++
				}
			}
			if sent != 4 || received < 3 {
				t.Errorf("observer: %d sent, %d received", sent, received)
			}
		})
	}
}

func TestGoSDKServerRequest(t *testing.T) {
	srv := startSDK(t, false)
	var asked []string
	var mu sync.Mutex
	c, _ := dial(t, srv.url, httpconn.Options{OnServerRequest: func(ctx context.Context, req *conn.Request) (json.RawMessage, error) {
		mu.Lock()
		asked = append(asked, req.Method)
		mu.Unlock()
		return json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`), nil
	}})
	initialize(t, c)
	res, err := c.Call(t.Context(), "tools/call", json.RawMessage(`{"name":"ask","arguments":{}}`))
	if err != nil || !strings.Contains(string(res), "accept: Ada") {
		t.Fatalf("ask: %s, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || asked[0] != "elicitation/create" {
		t.Errorf("server requests: %v", asked)
	}
}

func TestGoSDKTimeoutCancels(t *testing.T) {
	srv := startSDK(t, false)
	c, x := dial(t, srv.url, httpconn.Options{})
	initialize(t, c)
	_, err := c.Call(t.Context(), "tools/call", json.RawMessage(`{"name":"slow","arguments":{}}`), conn.WithTimeout(300*time.Millisecond))
	var e *conn.Error
	if !errors.As(err, &e) || e.Code != conn.CodeTimeout {
		t.Fatalf("slow call: %v, want -32001", err)
	}
	select {
	case <-srv.slowCancelled:
	case <-time.After(30 * time.Second):
		t.Fatal("the server never saw the request cancelled")
	}
	cancelled := false
	for _, ev := range x.events() {
		if ev.Kind == conn.Sent && strings.Contains(string(ev.Line), `"notifications/cancelled"`) && strings.Contains(string(ev.Line), `"Request timed out"`) {
			cancelled = true
		}
	}
	if !cancelled {
		t.Error("no notifications/cancelled was sent")
	}
}
