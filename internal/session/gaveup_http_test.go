package session

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// TestTimedOutCallOverHTTP: a call whose timer fires over Streamable HTTP
// (with a session and stateless) and HTTP+SSE ends as it does on stdio:
// cancelled, with the timer that fired. Over HTTP the caller hears its
// timer's error before the cancellation is written, the other order from
// stdio's; the call ended "failed" without the timer before the model took
// both orders.
func TestTimedOutCallOverHTTP(t *testing.T) {
	for _, mode := range []string{"streamable", "stateless", "sse"} {
		t.Run(mode, func(t *testing.T) {
			// The tool holds until cancelled or the test ends: a
			// stateless server's handler does not hear the cancellation,
			// and the test server's Close waits for its handlers.
			release := make(chan struct{})
			srv := sdk.NewServer(&sdk.Implementation{Name: "slow", Version: "1"}, nil)
			srv.AddTool(&sdk.Tool{Name: "slow", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, _ *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
					select {
					case <-ctx.Done():
					case <-release:
					}
					return nil, context.Canceled
				})
			get := func(*http.Request) *sdk.Server { return srv }
			var handler http.Handler
			switch mode {
			case "streamable":
				handler = sdk.NewStreamableHTTPHandler(get, nil)
			case "stateless":
				handler = sdk.NewStreamableHTTPHandler(get, &sdk.StreamableHTTPOptions{Stateless: true})
			default:
				handler = sdk.NewSSEHandler(get, nil)
			}
			front := httptest.NewServer(handler)
			// Last in, first out: the session ends, then the tool, then
			// the server.
			t.Cleanup(front.Close)
			t.Cleanup(func() { close(release) })
			h := startHTTP(t, front.URL, mcp.Options{})
			h.until("ready", func(s *model.Session) bool { return s.Conn().Phase == model.PhaseReady })
			if _, err := h.s.Send(context.Background(), "tools/call", json.RawMessage(`{"name":"slow","arguments":{}}`), 200*time.Millisecond); err == nil {
				t.Fatal("slow answered")
			}
			var slow *model.Call
			h.until("the call to end with the timer that fired", func(s *model.Session) bool {
				for _, r := range s.Recent() {
					if r.Method == "tools/call" {
						slow = r
					}
				}
				return slow != nil && slow.GaveUp != nil
			})
			if slow.Outcome.Kind != model.CancelledByCaller || slow.GaveUp.Timeout != 200*time.Millisecond {
				t.Errorf("%+v, gave up: %+v; want cancelled by its 200ms timer", slow.Outcome, *slow.GaveUp)
			}
		})
	}
}
