package httpconn_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/urlpolicy"
)

// sink is "another origin": a listener that records every request that
// reaches it, headers and body.
type sink struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []string
}

func newSink(t *testing.T) *sink {
	s := &sink{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.got = append(s.got, r.Method+" "+r.URL.String()+" "+headerText(r.Header)+" "+string(body))
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *sink) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

func headerText(h http.Header) string {
	var b strings.Builder
	for k, v := range h {
		b.WriteString(k + "=" + strings.Join(v, ",") + ";")
	}
	return b.String()
}

// A server that redirects to another origin (another port of the same
// host, or another host name for the same port) gets its request refused:
// the user's headers, the Authorization header and the request body never
// reach the other origin, and the error names both origins.
func TestRedirectToAnotherOriginRefused(t *testing.T) {
	other := newSink(t)
	otherURL, _ := url.Parse(other.srv.URL)
	var target string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/elsewhere" {
			// Only reached through the other host name of this origin.
			other.mu.Lock()
			other.got = append(other.got, "same port, other host: "+r.Host+" "+headerText(r.Header))
			other.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
			return
		}
		http.Redirect(w, r, target, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(srv.Close)
	srvURL, _ := url.Parse(srv.URL)
	for _, tc := range []struct{ name, target string }{
		{"another port", "http://127.0.0.1:" + otherURL.Port() + "/mcp"},
		{"another host", "http://localhost:" + srvURL.Port() + "/elsewhere"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target = tc.target
			h := http.Header{"X-Api-Key": {"K-secret"}, "Authorization": {"Bearer T-secret"}}
			c, x := dial(t, srv.URL+"/mcp", httpconn.Options{Header: h})
			_, err := c.Call(t.Context(), "tools/call", map[string]any{"name": "t", "arguments": map[string]string{"password": "B-secret"}})
			if !errors.Is(err, urlpolicy.ErrRedirect) {
				t.Fatalf("call: %v, want the redirect refused", err)
			}
			to, _ := url.Parse(tc.target)
			for _, origin := range []string{urlpolicy.Origin(srvURL), urlpolicy.Origin(to)} {
				if !strings.Contains(err.Error(), origin) {
					t.Errorf("the error %q does not name %s", err, origin)
				}
			}
			if got := other.requests(); len(got) > 0 {
				t.Fatalf("the other origin was reached: %q", got)
			}
			// The network view shows the redirect and why it was not
			// followed.
			var shown bool
			for _, e := range x.list() {
				if e.Status == http.StatusTemporaryRedirect && errors.Is(e.Err, urlpolicy.ErrRedirect) {
					shown = true
				}
			}
			if !shown {
				t.Errorf("no exchange shows the refused redirect: %+v", x.list())
			}
		})
	}
}

// A redirect within the origin is followed, with the headers and body the
// request had, and no Referer.
func TestRedirectWithinTheOriginFollowed(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mcp" {
			http.Redirect(w, r, "/moved", http.StatusPermanentRedirect)
			return
		}
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, r.Header.Get("X-Api-Key")+"|"+r.Header.Get("Referer")+"|"+string(body))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, response(body, `{"ok":true}`))
	}))
	t.Cleanup(srv.Close)
	c, _ := dial(t, srv.URL+"/mcp", httpconn.Options{Header: http.Header{"X-Api-Key": {"K"}}})
	res, err := c.Call(t.Context(), "ping", nil)
	if err != nil || string(res) != `{"ok":true}` {
		t.Fatalf("ping through a same-origin redirect: %s, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || !strings.HasPrefix(seen[0], "K||") || !strings.Contains(seen[0], `"method":"ping"`) {
		t.Errorf("the moved endpoint saw %q, want the key, no Referer, the body", seen)
	}
}
