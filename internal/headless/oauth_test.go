package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// browse is the test binary as $BROWSER: it follows the authorization
// URL's redirects to mcptui's loopback listener.
func browse(args []string) int {
	if len(args) != 1 {
		return 2
	}
	if d, err := time.ParseDuration(os.Getenv("MCPTUI_TEST_BROWSER_DELAY")); err == nil {
		time.Sleep(d) // a person reading the consent page, not synchronization
	}
	resp, err := http.Get(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return 0
}

// oauthServer is an MCP server that is its own OAuth authorization server
// (one origin): the authorization endpoint agrees at once.
func oauthServer(t *testing.T) (url string, tokens func() []string) {
	return oauthServerWith(t, true)
}

// oauthServerWith is oauthServer, with dynamic client registration or
// without it (then only a pre-registered client id can authorize).
func oauthServerWith(t *testing.T, registration bool) (url string, tokens func() []string) {
	s := sdk.NewServer(&sdk.Implementation{Name: "protected", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{}, nil
	})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{JSONResponse: true})
	var mu sync.Mutex
	var issued []string
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := srv.URL
		switch r.URL.Path {
		case "/.well-known/oauth-protected-resource/mcp":
			_ = json.NewEncoder(w).Encode(map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}})
		case "/.well-known/oauth-authorization-server":
			m := map[string]any{"issuer": base, "authorization_endpoint": base + "/authorize",
				"token_endpoint": base + "/token", "code_challenge_methods_supported": []string{"S256"}}
			if registration {
				m["registration_endpoint"] = base + "/register"
			}
			_ = json.NewEncoder(w).Encode(m)
		case "/register":
			if !registration {
				http.NotFound(w, r)
				return
			}
			w.WriteHeader(http.StatusCreated)
			_ = json.NewEncoder(w).Encode(map[string]any{"client_id": "c1"})
		case "/authorize":
			q := r.URL.Query()
			http.Redirect(w, r, q.Get("redirect_uri")+"?code=k&state="+q.Get("state"), http.StatusFound)
		case "/token":
			mu.Lock()
			tok := fmt.Sprintf("secret-token-%d", len(issued))
			issued = append(issued, tok)
			mu.Unlock()
			_ = json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600})
		case "/mcp":
			mu.Lock()
			ok := len(issued) > 0 && r.Header.Get("Authorization") == "Bearer "+issued[len(issued)-1]
			mu.Unlock()
			if !ok {
				w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+base+`/.well-known/oauth-protected-resource/mcp"`)
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), issued...) }
}

// A headless command authorizes with OAuth, saying each step on stderr,
// the URL to open among them, and never the token.
func TestHeadlessOAuth(t *testing.T) {
	url, tokens := oauthServer(t)
	t.Setenv("BROWSER", os.Args[0])
	t.Setenv(serverEnv, "browser") // for the browser child only: TestMain has run
	rec := filepath.Join(t.TempDir(), "session.mcptui")
	r := run(t, "tools", "--browser", "-v", "--record", rec, url)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, `"echo"`) {
		t.Errorf("stdout: %s", r.stdout)
	}
	for _, want := range []string{"mcptui: oauth: the server wants authorization", "mcptui: oauth: registering mcptui with", "mcptui: oauth: open this URL to authorize mcptui at " + strings.TrimSuffix(url, "/mcp") + " (waiting 5m0s for the browser):\nmcptui: oauth:   " + strings.TrimSuffix(url, "/mcp") + "/authorize?", "mcptui: oauth: authorized by"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	toks := tokens()
	if len(toks) != 1 {
		t.Fatalf("tokens issued: %v", toks)
	}
	recorded, err := os.ReadFile(rec)
	if err != nil || len(recorded) == 0 {
		t.Fatalf("the recording: %v", err)
	}
	if strings.Contains(r.stdout+r.stderr, toks[0]) || strings.Contains(string(recorded), toks[0]) || strings.Contains(string(recorded), "secret-token") {
		t.Errorf("the token shows in the output or the recording")
	}
	if !strings.Contains(string(recorded), "tools/list") {
		t.Errorf("the recording misses the session")
	}
	// Without --browser the URL is printed and nothing opens it: the
	// login times out with the reason.
	r = run(t, "tools", "--login-timeout", "1s", url)
	if r.code != ExitConnection || !strings.Contains(r.stderr, "open this URL to authorize") || !strings.Contains(r.stderr, "no redirect came back") {
		t.Errorf("without --browser: exit %d, %s", r.code, r.stderr)
	}
	if len(tokens()) != 1 {
		t.Errorf("a token was issued without the browser")
	}
}

// The person's time at the browser does not count against --timeout: the
// authorization runs before the first request.
func TestHeadlessOAuthSlowLogin(t *testing.T) {
	url, tokens := oauthServer(t)
	t.Setenv("BROWSER", os.Args[0])
	t.Setenv(serverEnv, "browser")
	t.Setenv("MCPTUI_TEST_BROWSER_DELAY", "1500ms")
	r := run(t, "tools", "--browser", "--timeout", "500ms", "--probe-timeout", "300ms", url)
	if r.code != 0 || len(tokens()) != 1 {
		t.Fatalf("exit %d, tokens %v: %s", r.code, tokens(), r.stderr)
	}
}
