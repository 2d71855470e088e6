package check

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/httpconn"
)

// http.origin holds on every revision ("Servers MUST validate the Origin
// header on all incoming connections", in the transports of 2024-11-05 to
// 2025-11-25 too): an initialize-era server over Streamable HTTP or
// HTTP+SSE that serves a foreign Origin fails it; one that answers 403
// passes.
func TestOriginOnLegacyEras(t *testing.T) {
	t.Parallel()
	s := sdk.NewServer(&sdk.Implementation{Name: "gosdk-origin", Version: "1"}, nil)
	handlers := map[string]http.Handler{
		"streamable": sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil),
		"sse":        sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return s }, nil),
	}
	for name, h := range handlers {
		for _, guarded := range []bool{false, true} {
			t.Run(name+map[bool]string{false: "-open", true: "-guarded"}[guarded], func(t *testing.T) {
				t.Parallel()
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if o := r.Header.Get("Origin"); guarded && o != "" && o != "http://localhost" {
						http.Error(w, "forbidden origin", http.StatusForbidden)
						return
					}
					h.ServeHTTP(w, r)
				}))
				t.Cleanup(srv.Close)
				o := Options{Command: srv.URL, Era: "2025-11-25", Timeout: 30 * time.Second, Rules: []string{"http.origin"},
					Sampling: declineAll, ElicitForm: declineAll, ElicitURL: declineAll, Roots: declineAll}
				if name == "sse" {
					o.Era = "2024-11-05"
					o.HTTP.Mode = httpconn.SSE
				}
				res := resultOf(runCheck(t, o), "http.origin")
				want := map[bool]Status{false: Failed, true: Passed}[guarded]
				if res == nil || res.Status != want {
					t.Fatalf("http.origin: %+v, want %v", res, want)
				}
				if res.Status == Failed {
					t.Logf("seen: %v", res.Seen)
				}
			})
		}
	}
}
