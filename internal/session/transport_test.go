package session

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/model"
)

// An HTTP server's Ready names the transport the session found: "HTTP"
// for Streamable HTTP, "HTTP+SSE" for a 2024-11-05 server reached by the
// fallback (go-sdk's handlers, with the default --transport auto).
func TestReadyNamesTheHTTPTransport(t *testing.T) {
	for _, tc := range []struct {
		want    string
		handler func(*sdk.Server) http.Handler
	}{
		{"HTTP", func(s *sdk.Server) http.Handler {
			return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
		}},
		{"HTTP+SSE", func(s *sdk.Server) http.Handler {
			return sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return s }, nil)
		}},
	} {
		t.Run(tc.want, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler(sdk.NewServer(&sdk.Implementation{Name: "gosdk-http", Version: "1"}, nil)))
			t.Cleanup(srv.Close)
			s, err := Start(context.Background(), Config{Command: srv.URL + "/mcp", Inbox: inbox.New(inbox.Limits{})})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
			h := &harness{t: t, s: s}
			ready := waitFor(h, "Ready", anyOf[model.Ready])
			if ready.Transport != tc.want || ready.ServerName != "gosdk-http" {
				t.Fatalf("Ready = %+v, want transport %q", ready, tc.want)
			}
		})
	}
}
