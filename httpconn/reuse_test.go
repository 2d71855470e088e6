package httpconn_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/httpconn"
)

// TestAnsweredStreamsReuseConnections: go-sdk's handler answers each POST
// as an SSE stream it closes right after the response; reading that stream
// to its end lets the connection go back to the pool, so 200 sequential
// calls need the GET stream's connection and one for the POSTs, not a new
// TCP connection (and handshake) for many of the calls.
func TestAnsweredStreamsReuseConnections(t *testing.T) {
	s := sdk.NewServer(&sdk.Implementation{Name: "reuse", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
	})
	srv := httptest.NewUnstartedServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	var dialed atomic.Int64
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			dialed.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	ctx := t.Context()
	c, err := httpconn.Dial(ctx, srv.URL+"/mcp", httpconn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Call(ctx, "initialize", json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)); err != nil {
		t.Fatal(err)
	}
	if err := c.Notify(ctx, "notifications/initialized", nil); err != nil {
		t.Fatal(err)
	}
	const calls = 200
	for i := range calls {
		res, err := c.Call(ctx, "tools/call", json.RawMessage(`{"name":"echo","arguments":{}}`))
		if err != nil || !strings.Contains(string(res), `"ok"`) {
			t.Fatalf("call %d: %s, %v", i, res, err)
		}
	}
	t.Logf("%d calls opened %d connections", calls, dialed.Load())
	// The GET stream, the POSTs' connection, and slack for a stream the
	// server ends late (the drain is bounded) on a busy machine.
	if n := dialed.Load(); n > 6 {
		t.Errorf("%d sequential calls opened %d connections, want at most 6", calls, n)
	}
}

// TestAnsweredStreamLeftOpenIsCut: a server that keeps a POST's stream
// open after the answer, silent or chatty, gets the answer taken at once
// and the stream cut a moment later (the drain that lets connections be
// reused is bounded in time and bytes), not held until the connection
// closes.
func TestAnsweredStreamLeftOpenIsCut(t *testing.T) {
	for _, chatty := range []bool{false, true} {
		name := "silent"
		if chatty {
			name = "chatty"
		}
		t.Run(name, func(t *testing.T) { testOpenStreamCut(t, chatty) })
	}
}

func testOpenStreamCut(t *testing.T, chatty bool) {
	cut := make(chan struct{})
	var once atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		if r.Method != http.MethodPost || req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		result := `{"content":[{"type":"text","text":"ok"}]}`
		if req.Method == "initialize" {
			result = `{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"open","version":"1"}}`
		}
		_, _ = w.Write([]byte("data: {\"jsonrpc\":\"2.0\",\"id\":" + string(req.ID) + ",\"result\":" + result + "}\n\n"))
		w.(http.Flusher).Flush()
		if req.Method == "initialize" {
			return
		}
		// Keep the stream open, streaming comments when chatty.
		for {
			select {
			case <-r.Context().Done():
				if !once.Swap(true) {
					close(cut)
				}
				return
			default:
			}
			if !chatty {
				<-r.Context().Done()
				continue
			}
			if _, err := w.Write([]byte(": still here\n")); err != nil {
				continue
			}
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	ctx := t.Context()
	c, err := httpconn.Dial(ctx, srv.URL, httpconn.Options{Mode: httpconn.Streamable})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Call(ctx, "initialize", json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)); err != nil {
		t.Fatal(err)
	}
	res, err := c.Call(ctx, "tools/call", json.RawMessage(`{"name":"echo","arguments":{}}`))
	if err != nil || !strings.Contains(string(res), `"ok"`) {
		t.Fatalf("call: %s, %v", res, err)
	}
	select {
	case <-cut:
	case <-time.After(20 * time.Second):
		t.Fatal("the answered stream was still open 20 s later")
	}
}
