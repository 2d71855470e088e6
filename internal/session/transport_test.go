package session

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/httpconn/oauth"
	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/mcp"
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

// authorizingTransport is an OAuth transport as the session sees one: on
// each request it reports an authorization running (a step with the URL
// to open), then its end.
type authorizingTransport struct {
	mu         sync.Mutex
	onActivity func(oauth.Activity)
}

func (a *authorizingTransport) SetOnActivity(f func(oauth.Activity)) {
	a.mu.Lock()
	a.onActivity = f
	a.mu.Unlock()
}

func (a *authorizingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	a.mu.Lock()
	f := a.onActivity
	a.mu.Unlock()
	if f != nil {
		f(oauth.Activity{Running: true, Step: oauth.Step{Kind: "open", Text: "open this URL", URL: "http://127.0.0.1:1/authorize"}})
		defer f(oauth.Activity{})
	}
	return http.DefaultTransport.RoundTrip(r)
}

// The authorizations the connection's OAuth transport runs become
// Authorizing events of the generation: the step and its URL, then the
// end.
func TestAuthorizingIsAnEvent(t *testing.T) {
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server {
		return sdk.NewServer(&sdk.Implementation{Name: "gosdk-http", Version: "1"}, nil)
	}, nil))
	t.Cleanup(srv.Close)
	opts := mcp.Options{}
	opts.HTTP.Client = &http.Client{Transport: &authorizingTransport{}}
	s, err := Start(context.Background(), Config{Command: srv.URL + "/mcp", MCP: opts, Inbox: inbox.New(inbox.Limits{})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	h := &harness{t: t, s: s}
	running := waitFor(h, "an authorization running", func(e model.Authorizing) bool { return e.Text != "" })
	if running.Text != "open this URL" || running.URL != "http://127.0.0.1:1/authorize" || running.Gen != 1 {
		t.Fatalf("Authorizing = %+v", running)
	}
	waitFor(h, "its end", func(e model.Authorizing) bool { return e.Text == "" && e.URL == "" })
}
