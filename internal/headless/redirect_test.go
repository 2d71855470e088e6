package headless

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A server that redirects to another origin (another port of the same
// host) is refused by the outbound policy: that is a refused connection,
// exit 7 with the redirect named, not "the server did not start" (exit 3).
func TestRedirectToAnotherOriginIsAConnectionFailure(t *testing.T) {
	t.Parallel()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the other origin was reached: %s %s", r.Method, r.URL)
		http.NotFound(w, r)
	}))
	t.Cleanup(other.Close)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/mcp", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(srv.Close)

	r := run(t, "tools", srv.URL+"/mcp")
	f := r.failure(t)
	if r.code != ExitConnection || f.Kind != KindConnection {
		t.Errorf("exit %d, kind %q; want %d, %q\nstderr: %s", r.code, f.Kind, ExitConnection, KindConnection, r.stderr)
	}
	for _, want := range []string{"redirected to another origin", strings.TrimPrefix(other.URL, "http://")} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message %q does not say %q", f.Message, want)
		}
	}
	if strings.Contains(f.Message, "did not start") {
		t.Errorf("message %q blames the server's start", f.Message)
	}
}
