package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/cli"
)

// check on a server that wants OAuth says the steps on stderr, the URL to
// open among them, before any check runs (it used to register a client
// silently and time out with no URL shown).
func TestCheckShowsTheOAuthURL(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := srv.URL
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/.well-known/oauth-protected-resource/mcp":
			_ = json.NewEncoder(w).Encode(map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}})
		case "/.well-known/oauth-authorization-server":
			_ = json.NewEncoder(w).Encode(map[string]any{"issuer": base, "authorization_endpoint": base + "/authorize",
				"token_endpoint": base + "/token", "registration_endpoint": base + "/register",
				"code_challenge_methods_supported": []string{"S256"}})
		case "/register":
			w.WriteHeader(http.StatusCreated)
			_ = json.NewEncoder(w).Encode(map[string]any{"client_id": "c1"})
		default: // nobody logs in in this test
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+base+`/.well-known/oauth-protected-resource/mcp"`)
			w.WriteHeader(http.StatusUnauthorized)
		}
	}))
	t.Cleanup(srv.Close)
	cfg, err := cli.Parse([]string{"check", "--login-timeout", "1s", srv.URL + "/mcp"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := runCheck(ctx, cfg, &stdout, &stderr)
	for _, want := range []string{"mcptui check: oauth: registering mcptui with " + srv.URL,
		"mcptui check: oauth: open this URL to authorize mcptui at " + srv.URL, "mcptui check: oauth:   " + srv.URL + "/authorize?",
		"no redirect came back"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if code == 0 {
		t.Errorf("exit 0 without a login")
	}
}
