package doctor

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestDoctorHTTP(t *testing.T) {
	refused := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		return "http://" + addr + "/mcp"
	}()
	status := func(code int) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if code == http.StatusUnauthorized {
				w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"`)
			}
			w.WriteHeader(code)
		}))
		t.Cleanup(srv.Close)
		return srv.URL + "/mcp"
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "gosdk-http", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "t", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{}, nil
	})
	good := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(good.Close)

	old := httptest.NewServer(sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(old.Close)

	forgetful := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Session-Id") != "" {
			http.Error(w, "session not found", http.StatusNotFound)
			return
		}
		good.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(forgetful.Close)

	for _, tc := range []struct {
		name, url string
		header    http.Header
		kind      string
		want      []string
	}{
		{"refused", refused, nil, KindHTTPRefused, []string{"connection was refused", "start the server"}},
		{"404", status(http.StatusNotFound), nil, KindHTTPNotFound, []string{"404", "/mcp", "HTTP+SSE endpoint instead, it failed too", "GET answered 404"}},
		{"401", status(http.StatusUnauthorized), nil, KindHTTPUnauthorized, []string{"401", "resource_metadata", "--no-oauth", "--bearer TOKEN"}},
		{"401 with a token", status(http.StatusUnauthorized), http.Header{"Authorization": {"Bearer nope"}}, KindHTTPUnauthorized, []string{"header given was refused"}},
		{"healthy", good.URL + "/mcp", nil, KindHealthy, []string{"it works", "1 tools"}},
		{"session forgotten", forgetful.URL + "/mcp", nil, KindHTTPSession, []string{"forgot the session", "sticky sessions"}},
		{"http+sse", old.URL + "/sse", nil, KindHTTPSSE, []string{"2024-11-05 HTTP+SSE", "deprecated", "--transport sse"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Run(t.Context(), Options{Command: tc.url, Header: tc.header})
			if len(r.Diagnoses) == 0 || r.Diagnoses[0].Kind != tc.kind {
				t.Fatalf("diagnoses %+v (connect error %q), want %s first", r.Diagnoses, r.ConnectError, tc.kind)
			}
			text := r.Diagnoses[0].Summary + " " + r.Diagnoses[0].Fix
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("%q lacks %q", text, w)
				}
			}
			if strings.Contains(r.ConnectError+text, "nope") {
				t.Error("the token shows in the report")
			}
		})
	}
}
