package doctor

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/httpconn/oauth"
)

// Doctor explains in words at which step an OAuth authorization failed.
func TestDoctorOAuth(t *testing.T) {
	server := func(prm map[string]any, challenge string) string {
		var srv *httptest.Server
		srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/.well-known/oauth-protected-resource/mcp" && prm != nil {
				prm["resource"] = strings.ReplaceAll(prm["resource"].(string), "SELF", srv.URL)
				_ = json.NewEncoder(w).Encode(prm)
				return
			}
			if r.URL.Path != "/mcp" {
				http.NotFound(w, r)
				return
			}
			if challenge != "" {
				w.Header().Set("WWW-Authenticate", challenge)
			}
			w.WriteHeader(http.StatusUnauthorized)
		}))
		t.Cleanup(srv.Close)
		return srv.URL + "/mcp"
	}
	for _, tc := range []struct {
		name string
		url  string
		want []string
	}{
		{"no challenge", server(nil, ""), []string{"resource metadata step", "without a Bearer", "--bearer TOKEN"}},
		{"another resource", server(map[string]any{"resource": "https://evil.example.com/mcp", "authorization_servers": []string{"https://as.example.com"}}, "Bearer"),
			[]string{"resource metadata step", "https://evil.example.com/mcp", "not for this server"}},
		{"no server metadata", server(map[string]any{"resource": "SELF/mcp", "authorization_servers": []string{"http://127.0.0.1:1"}}, "Bearer"),
			[]string{"server metadata step", "127.0.0.1:1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := oauth.New(nil, tc.url, oauth.Config{OnStep: func(oauth.Step) {}})
			if err != nil {
				t.Fatal(err)
			}
			r := Run(t.Context(), Options{Command: tc.url, HTTPClient: &http.Client{Transport: tr}})
			if len(r.Diagnoses) == 0 || r.Diagnoses[0].Kind != KindHTTPAuth {
				t.Fatalf("diagnoses %+v (connect error %q), want %s first", r.Diagnoses, r.ConnectError, KindHTTPAuth)
			}
			text := r.Diagnoses[0].Summary + " " + r.Diagnoses[0].Fix
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("%q lacks %q", text, w)
				}
			}
		})
	}
}
