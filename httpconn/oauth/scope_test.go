package oauth_test

import (
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/httpconn/oauth"
	"github.com/mcptui/mcptui/internal/urlpolicy"
)

func TestScopeSelection(t *testing.T) {
	for _, tc := range []struct {
		name        string
		header      string
		prm, asList []string
		extra       []string
		want        string
	}{
		{name: "from the challenge", header: "mcp:basic", prm: []string{"mcp:other"}, want: "mcp:basic"},
		{name: "from scopes_supported", prm: []string{"mcp:basic", "mcp:read", "mcp:write"}, want: "mcp:basic mcp:read mcp:write"},
		{name: "omitted", want: ""},
		{name: "offline_access where the server lists it", prm: []string{"mcp:basic"}, asList: []string{"mcp:basic", "offline_access"}, want: "mcp:basic offline_access"},
		{name: "no offline_access where it does not", prm: []string{"mcp:basic"}, asList: []string{"mcp:basic", "mcp:read"}, want: "mcp:basic"},
		{name: "the user's own", header: "mcp:basic", extra: []string{"admin"}, want: "admin mcp:basic"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			as := newAuthServer(t, "")
			as.scopes = tc.asList
			ms := newMCPServer(t, as)
			ms.scopeHeader, ms.prmScopes = tc.header, tc.prm
			if err := connect(t, ms.url(), oauth.Config{Scopes: tc.extra}).initialize(t); err != nil {
				t.Fatal(err)
			}
			q := as.authz()[0]
			if _, has := q["scope"]; tc.want == "" && has {
				t.Errorf("scope sent: %q", q.Get("scope"))
			}
			if q.Get("scope") != tc.want {
				t.Errorf("scope %q, want %q", q.Get("scope"), tc.want)
			}
		})
	}
}

// A 403 insufficient_scope re-authorizes with the union of the scopes held
// and the challenged ones, and the call goes through.
func TestScopeStepUp(t *testing.T) {
	as := newAuthServer(t, "")
	ms := newMCPServer(t, as)
	ms.scopeHeader = "mcp:basic"
	ms.need = map[string]string{"tools/list": "mcp:basic", "tools/call": "mcp:write"}
	s := connect(t, ms.url(), oauth.Config{})
	if err := s.initialize(t); err != nil {
		t.Fatal(err)
	}
	if err := s.call(t, "tools/list", `{}`); err != nil {
		t.Fatal(err)
	}
	if err := s.call(t, "tools/call", `{"name":"write","arguments":{}}`); err != nil {
		t.Fatalf("tools/call after the step-up: %v", err)
	}
	if len(as.authz()) != 2 {
		t.Fatalf("authorizations: %d, want 2", len(as.authz()))
	}
	if got := as.authz()[1].Get("scope"); got != "mcp:basic mcp:write" {
		t.Errorf("step-up scope %q, want the union", got)
	}
	if len(as.regs()) != 1 {
		t.Errorf("registered %d times; the client is reused", len(as.regs()))
	}
}

// A server that never accepts: the authorizations stop.
func TestScopeRetryLimit(t *testing.T) {
	as := newAuthServer(t, "")
	ms := newMCPServer(t, as)
	ms.scopeHeader = "mcp:admin"
	ms.alwaysForbid = "mcp:admin"
	s := connect(t, ms.url(), oauth.Config{})
	err := s.initialize(t)
	if err == nil || !strings.Contains(err.Error(), "giving up") {
		t.Fatalf("initialize: %v", err)
	}
	_ = s.call(t, "tools/list", `{}`)
	if n := len(as.authz()); n == 0 || n > 3 {
		t.Errorf("authorizations: %d, want 1 to 3", n)
	}
	// A server that asks for ever new scopes is bounded too.
	as2 := newAuthServer(t, "")
	ms2 := newMCPServer(t, as2)
	ms2.alwaysForbid = "x"
	s2 := connect(t, ms2.url(), oauth.Config{MaxAuthorizations: 2})
	for i := range 5 {
		ms2.mu.Lock()
		ms2.alwaysForbid = "scope" + strings.Repeat("x", i)
		ms2.mu.Unlock()
		_ = s2.initialize(t)
	}
	if n := len(as2.authz()); n > 3 {
		t.Errorf("authorizations for ever new scopes: %d, want at most 3", n)
	}
}

// An expired token is refreshed before the request; a refused one after.
func TestRefresh(t *testing.T) {
	as := newAuthServer(t, "")
	as.refreshTokens, as.expiresIn = true, 60
	ms := newMCPServer(t, as)
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	s := connect(t, ms.url(), oauth.Config{Now: clock})
	if err := s.initialize(t); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	now = now.Add(2 * time.Minute)
	mu.Unlock()
	before := len(ms.authorizations())
	if err := s.call(t, "tools/list", `{}`); err != nil {
		t.Fatal(err)
	}
	grants := grantTypes(as)
	if !slices.Equal(grants, []string{"authorization_code", "refresh_token"}) {
		t.Fatalf("grants: %v", grants)
	}
	if last := as.toks()[1].form; last.Get("resource") != ms.url() {
		t.Errorf("refresh without the resource: %v", last)
	}
	for _, got := range ms.authorizations()[before:] {
		if got != "Bearer "+s.tr.Token().AccessToken {
			t.Errorf("sent %q, not the refreshed token", got)
		}
	}
	if len(as.authz()) != 1 {
		t.Errorf("authorized again instead of refreshing")
	}
	// The server forgets the token: a 401 with one held refreshes.
	as.mu.Lock()
	clear(as.granted)
	as.mu.Unlock()
	if err := s.call(t, "tools/list", `{}`); err != nil {
		t.Fatal(err)
	}
	if g := grantTypes(as); len(g) != 3 || g[2] != "refresh_token" || len(as.authz()) != 1 {
		t.Errorf("after a 401: grants %v, authorizations %d", g, len(as.authz()))
	}
}

func grantTypes(as *authServer) []string {
	var out []string
	for _, r := range as.toks() {
		out = append(out, r.form.Get("grant_type"))
	}
	return out
}

// How the client authenticates at the token endpoint, by where it came from.
func TestTokenEndpointAuth(t *testing.T) {
	for _, tc := range []struct {
		name            string
		methods         []string
		registerAs      string
		id, secret      string
		wantBasic       bool
		wantBodySecret  bool
		wantRegistering bool
	}{
		{name: "registered basic", methods: []string{"client_secret_basic"}, registerAs: "client_secret_basic", wantBasic: true, wantRegistering: true},
		{name: "registered post", methods: []string{"client_secret_post"}, registerAs: "client_secret_post", wantBodySecret: true, wantRegistering: true},
		{name: "registered public", methods: []string{"none"}, registerAs: "none", wantRegistering: true},
		{name: "pre-registered basic", methods: []string{"client_secret_basic"}, id: "pre id", secret: "pre:secret", wantBasic: true},
		{name: "pre-registered post", methods: []string{"client_secret_post"}, id: "pre", secret: "s", wantBodySecret: true},
		{name: "pre-registered public", id: "pre"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			as := newAuthServer(t, "")
			as.authMethods, as.registerAs = tc.methods, tc.registerAs
			as.noRegistration = tc.id != ""
			ms := newMCPServer(t, as)
			if err := connect(t, ms.url(), oauth.Config{ClientID: tc.id, ClientSecret: tc.secret}).initialize(t); err != nil {
				t.Fatal(err)
			}
			if got := len(as.regs()) > 0; got != tc.wantRegistering {
				t.Errorf("registered: %v", got)
			}
			if tc.wantRegistering && as.regs()[0]["token_endpoint_auth_method"] != tc.methods[0] {
				t.Errorf("asked to register as %v, the server supports %v", as.regs()[0]["token_endpoint_auth_method"], tc.methods)
			}
			r := as.toks()[0]
			basic := r.header.Get("Authorization")
			if got := strings.HasPrefix(basic, "Basic "); got != tc.wantBasic {
				t.Errorf("Basic: %q", basic)
			}
			if tc.wantBasic && tc.id != "" {
				raw, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(basic, "Basic "))
				if string(raw) != "pre+id:pre%3Asecret" {
					t.Errorf("Basic credentials %q are not form-encoded", raw)
				}
			}
			if got := r.form.Get("client_secret") != ""; got != tc.wantBodySecret {
				t.Errorf("client_secret in the body: %v", got)
			}
			if id := r.form.Get("client_id"); !tc.wantBasic && id == "" {
				t.Errorf("no client_id in the body")
			}
			if tc.id != "" && as.authz()[0].Get("client_id") != tc.id {
				t.Errorf("client_id %q", as.authz()[0].Get("client_id"))
			}
		})
	}
}

// A Client ID Metadata Document URL is the client id where the server
// takes them, and registration is the fallback where it does not.
func TestClientMetadataDocument(t *testing.T) {
	const doc = "https://client.example.com/mcptui.json"
	as := newAuthServer(t, "")
	as.cimd = true
	ms := newMCPServer(t, as)
	if err := connect(t, ms.url(), oauth.Config{ClientMetadataURL: doc}).initialize(t); err != nil {
		t.Fatal(err)
	}
	if as.authz()[0].Get("client_id") != doc || len(as.regs()) != 0 {
		t.Errorf("client_id %q, registrations %d", as.authz()[0].Get("client_id"), len(as.regs()))
	}
	as2 := newAuthServer(t, "")
	ms2 := newMCPServer(t, as2)
	if err := connect(t, ms2.url(), oauth.Config{ClientMetadataURL: doc}).initialize(t); err != nil {
		t.Fatal(err)
	}
	if len(as2.regs()) != 1 {
		t.Errorf("a server without CIMD support was not registered with")
	}
	if _, err := oauth.New(nil, ms.url(), oauth.Config{ClientMetadataURL: "http://insecure.example.com/x"}); err == nil {
		t.Error("an http metadata document URL was taken")
	}
}

// 2025-03-26: no protected resource metadata; the server's origin is the
// authorization server, with its metadata or the default endpoints.
func TestLegacyDiscovery(t *testing.T) {
	for _, withMetadata := range []bool{true, false} {
		name := "default endpoints"
		if withMetadata {
			name = "origin metadata"
		}
		t.Run(name, func(t *testing.T) {
			as := newAuthServer(t, "")
			if !withMetadata {
				as.metadataAt = "none"
			}
			ms := newMCPServer(t, as)
			ms.prmAt = "none"
			// The MCP server is its own authorization server.
			ms.srv.Config.Handler = legacyMux(ms.srv.Config.Handler, as)
			if err := connect(t, ms.url(), oauth.Config{}).initialize(t); err != nil {
				t.Fatal(err)
			}
			if len(as.authz()) != 1 {
				t.Fatalf("authorizations %d", len(as.authz()))
			}
			if _, has := as.authz()[0]["resource"]; has {
				t.Errorf("a resource indicator was sent to a 2025-03-26 server")
			}
		})
	}
}

// legacyMux serves as's endpoints on the MCP server's own origin.
func legacyMux(mcp http.Handler, as *authServer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/oauth-authorization-server", "/authorize", "/token", "/register":
			if r.URL.Path == "/.well-known/oauth-authorization-server" && as.metadataAt == "none" {
				http.NotFound(w, r)
				return
			}
			// The issuer is the MCP server's origin here.
			as.srv.URL = "http://" + r.Host
			as.serve(w, r)
			return
		}
		mcp.ServeHTTP(w, r)
	})
}

// When the resource names a new authorization server, the client
// registers there and presents nothing from the old one.
func TestAuthorizationServerMigration(t *testing.T) {
	as1, as2 := newAuthServer(t, ""), newAuthServer(t, "")
	as1.refreshTokens = true // a refresh at the old server must not be tried
	ms := newMCPServer(t, as1)
	var mu sync.Mutex
	current := as1
	ms.as = func() *authServer { mu.Lock(); defer mu.Unlock(); return current }
	s := connect(t, ms.url(), oauth.Config{})
	if err := s.initialize(t); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	current = as2
	mu.Unlock()
	if err := s.call(t, "tools/list", `{}`); err != nil {
		t.Fatal(err)
	}
	if len(as2.regs()) != 1 {
		t.Fatalf("registrations at the new server: %d", len(as2.regs()))
	}
	old := "of-" + as1.srv.URL
	for _, q := range as2.authz() {
		if strings.Contains(q.Get("client_id"), old) {
			t.Errorf("the old client id went to the new server")
		}
	}
	for _, r := range as2.toks() {
		if strings.Contains(r.form.Get("client_id"), old) {
			t.Errorf("the old client id went to the new token endpoint")
		}
	}
}

// Kept tokens: mode 0600 in a 0700 directory, used by the next Transport
// without a new authorization, forgotten by Logout.
func TestFileStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tokens")
	as := newAuthServer(t, "")
	ms := newMCPServer(t, as)
	store := oauth.FileStore{Dir: dir}
	if err := connect(t, ms.url(), oauth.Config{Store: store}).initialize(t); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("token files: %v", files)
	}
	fi, _ := os.Stat(files[0])
	di, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("modes: file %v dir %v", fi.Mode().Perm(), di.Mode().Perm())
	}
	s2 := connect(t, ms.url(), oauth.Config{Store: store})
	if err := s2.initialize(t); err != nil {
		t.Fatal(err)
	}
	if len(as.authz()) != 1 {
		t.Errorf("authorized again with a kept token: %d", len(as.authz()))
	}
	if err := s2.tr.Logout(); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(files) != 0 {
		t.Errorf("after Logout: %v", files)
	}
	if tok, _ := store.Load(ms.url()); tok != nil {
		t.Errorf("loaded after Logout")
	}
}

// The token goes to the MCP server's origin only: not to the origin a
// redirect leads to, nor to the metadata URL a challenge names.
func TestTokenStaysWithTheServer(t *testing.T) {
	as := newAuthServer(t, "")
	ms := newMCPServer(t, as)
	other := newMCPServer(t, as) // another origin
	s := connect(t, ms.url(), oauth.Config{})
	if err := s.initialize(t); err != nil {
		t.Fatal(err)
	}
	ms.srv.Config.Handler = http.RedirectHandler(other.url(), http.StatusTemporaryRedirect)
	// Through the connection, the redirect is not followed at all.
	if err := s.call(t, "tools/list", `{}`); !errors.Is(err, urlpolicy.ErrRedirect) {
		t.Fatalf("tools/list through a redirect to another origin: %v, want it refused", err)
	}
	if got := other.authorizations(); len(got) != 0 {
		t.Fatalf("the other origin was reached: %q", got)
	}
	// The Transport alone, in a client that does follow the redirect,
	// still sends the token to its own origin only.
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, ms.url(), strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"ping"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if resp, err := (&http.Client{Transport: s.tr}).Do(req); err == nil {
		resp.Body.Close()
	}
	for _, a := range other.authorizations() {
		if strings.HasPrefix(a, "Bearer token-") {
			t.Fatalf("the token was sent to another origin")
		}
	}
	if len(other.authorizations()) == 0 {
		t.Fatal("the redirect was not followed (the test proves nothing)")
	}
}

// Machine to machine: the client credentials grant, asked for or the only
// grant offered, with no browser and the resource indicator.
func TestClientCredentials(t *testing.T) {
	for _, tc := range []struct {
		name   string
		asked  bool
		grants []string
	}{{"asked", true, nil}, {"the only grant offered", false, []string{"client_credentials"}}} {
		t.Run(tc.name, func(t *testing.T) {
			as := newAuthServer(t, "")
			as.grants = tc.grants
			ms := newMCPServer(t, as)
			opened := false
			cfg := oauth.Config{ClientID: "m2m", ClientSecret: "s", ClientCredentials: tc.asked,
				OpenURL: func(string) error { opened = true; return nil }}
			if err := connect(t, ms.url(), cfg).initialize(t); err != nil {
				t.Fatal(err)
			}
			if g := grantTypes(as); len(g) != 1 || g[0] != "client_credentials" || opened || len(as.authz()) != 0 {
				t.Errorf("grants %v, browser %v, authorizations %d", g, opened, len(as.authz()))
			}
			if r := as.toks()[0]; r.form.Get("resource") != ms.url() || !strings.HasPrefix(r.header.Get("Authorization"), "Basic ") {
				t.Errorf("token request: %v %v", r.form, r.header.Get("Authorization"))
			}
		})
	}
}

// A server that says Bearer but publishes nothing: the error says so.
func TestNoMetadataAnywhere(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mcp" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="api"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		http.NotFound(w, r)
	}))
	defer srv.Close()
	err := connect(t, srv.URL+"/mcp", oauth.Config{}).initialize(t)
	if err == nil || !strings.Contains(err.Error(), "publishes no OAuth metadata") {
		t.Errorf("error: %v", err)
	}
}
