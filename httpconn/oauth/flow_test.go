package oauth_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/httpconn/oauth"
)

// The whole flow against a server that asks: discovery, registration,
// PKCE S256, the resource indicator, the loopback redirect, the token
// exchange, and the Bearer token on every request after it.
func TestAuthorizationCodeFlow(t *testing.T) {
	as := newAuthServer(t, "")
	ms := newMCPServer(t, as)
	s := connect(t, ms.url(), oauth.Config{})
	if err := s.initialize(t); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if err := s.call(t, "tools/list", `{}`); err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if len(as.regs()) != 1 {
		t.Fatalf("registrations: %d, want 1", len(as.regs()))
	}
	reg := as.regs()[0]
	if reg["application_type"] != "native" || !slices.Contains(toStrings(reg["grant_types"]), "refresh_token") {
		t.Errorf("registration: %v", reg)
	}
	if len(as.authz()) != 1 {
		t.Fatalf("authorization requests: %d, want 1", len(as.authz()))
	}
	q := as.authz()[0]
	if q.Get("code_challenge_method") != "S256" || len(q.Get("code_challenge")) != 43 {
		t.Errorf("PKCE: method %q challenge %q", q.Get("code_challenge_method"), q.Get("code_challenge"))
	}
	if q.Get("resource") != ms.url() {
		t.Errorf("resource in the authorization request: %q, want %q", q.Get("resource"), ms.url())
	}
	redirect, _ := url.Parse(q.Get("redirect_uri"))
	if redirect.Hostname() != "127.0.0.1" || redirect.Path != "/callback" || q.Get("state") == "" {
		t.Errorf("redirect %q state %q", q.Get("redirect_uri"), q.Get("state"))
	}
	if len(as.toks()) != 1 {
		t.Fatalf("token requests: %d", len(as.toks()))
	}
	f := as.toks()[0].form
	if f.Get("resource") != ms.url() || f.Get("code_verifier") == "" || f.Get("redirect_uri") != q.Get("redirect_uri") {
		t.Errorf("token request: %v", f)
	}
	auths := ms.authorizations()
	if auths[0] != "" {
		t.Errorf("the first request carried %q", auths[0])
	}
	for i, a := range auths[1:] {
		if !strings.HasPrefix(a, "Bearer token-") {
			t.Errorf("request %d after the authorization carried %q", i+1, a)
		}
	}
	if len(auths) < 4 { // initialize twice, initialized, tools/list
		t.Errorf("requests: %v", auths)
	}
	var kinds []string
	for _, st := range s.steps() {
		kinds = append(kinds, st.Kind)
		if st.Kind == "open" && !strings.Contains(st.URL, "/authorize?") {
			t.Errorf("open step without the URL: %+v", st)
		}
	}
	if !slices.Contains(kinds, "open") || !slices.Contains(kinds, "authorized") {
		t.Errorf("steps: %v", kinds)
	}
}

func toStrings(v any) []string {
	var out []string
	l, _ := v.([]any)
	for _, x := range l {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// Where the metadata is looked for, in the specification's order, and
// nowhere after it was found.
func TestDiscoveryOrder(t *testing.T) {
	for _, tc := range []struct {
		name                string
		prmAt               string
		inHeader            bool
		prefix, metadataAt  string
		wantMCP, wantAS     []string
		wantNotMCP, wantNot []string
	}{
		{name: "path PRM from the header, RFC 8414", prmAt: "path", inHeader: true, metadataAt: "oauth",
			wantMCP: []string{"/mcp", "/.well-known/oauth-protected-resource/mcp"}, wantNotMCP: []string{"/.well-known/oauth-protected-resource"},
			wantAS: []string{"/.well-known/oauth-authorization-server"}},
		{name: "path PRM by well-known, OpenID", prmAt: "path", inHeader: false, metadataAt: "openid",
			wantMCP: []string{"/mcp", "/.well-known/oauth-protected-resource/mcp"}, wantNotMCP: []string{"/.well-known/oauth-protected-resource"},
			wantAS: []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"}},
		{name: "root PRM, issuer with a path", prmAt: "root", inHeader: false, prefix: "/tenant1", metadataAt: "oauth",
			wantMCP: []string{"/mcp", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"},
			wantAS:  []string{"/.well-known/oauth-authorization-server/tenant1"}, wantNot: []string{"/.well-known/oauth-authorization-server"}},
		{name: "custom PRM, OpenID appended", prmAt: "custom", inHeader: true, prefix: "/tenant1", metadataAt: "openid-appended",
			wantMCP: []string{"/mcp", "/custom/metadata.json"},
			wantAS: []string{"/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1",
				"/tenant1/.well-known/openid-configuration"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			as := newAuthServer(t, tc.prefix)
			as.metadataAt = tc.metadataAt
			ms := newMCPServer(t, as)
			ms.prmAt, ms.inHeader = tc.prmAt, tc.inHeader
			s := connect(t, ms.url(), oauth.Config{})
			if err := s.initialize(t); err != nil {
				t.Fatalf("initialize: %v (steps %v)", err, s.steps())
			}
			if got := ms.paths()[:len(tc.wantMCP)]; !slices.Equal(got, tc.wantMCP) {
				t.Errorf("MCP server paths: %v, want %v first", ms.paths(), tc.wantMCP)
			}
			for _, p := range tc.wantNotMCP {
				if slices.Contains(ms.paths(), p) {
					t.Errorf("asked the MCP server for %s after the metadata was found: %v", p, ms.paths())
				}
			}
			if got := as.paths()[:len(tc.wantAS)]; !slices.Equal(got, tc.wantAS) {
				t.Errorf("authorization server paths: %v, want %v first", as.paths(), tc.wantAS)
			}
			for _, p := range tc.wantNot {
				if slices.Contains(as.paths(), p) {
					t.Errorf("asked the authorization server for %s: %v", p, as.paths())
				}
			}
			if r := as.authz()[0].Get("resource"); r != ms.resourceWant(tc.prmAt) {
				t.Errorf("resource %q, want the published %q", r, ms.resourceWant(tc.prmAt))
			}
		})
	}
}

func (m *mcpServer) resourceWant(prmAt string) string {
	if prmAt == "root" {
		return m.srv.URL
	}
	return m.url()
}

// refused runs a session that must fail before any token request, with
// an oauth.Error whose text has want.
func refused(t *testing.T, as *authServer, ms *mcpServer, want string, cfg oauth.Config) {
	t.Helper()
	s := connect(t, ms.url(), cfg)
	err := s.initialize(t)
	if err == nil {
		t.Fatal("initialize succeeded")
	}
	var oe *oauth.Error
	if !errors.As(err, &oe) || !strings.Contains(oe.Error(), want) {
		t.Fatalf("error %v, want an oauth.Error with %q", err, want)
	}
	if len(as.toks()) != 0 {
		t.Errorf("a token request was made: %v", as.toks()[0].form)
	}
}

func TestRefusals(t *testing.T) {
	t.Run("resource of another server", func(t *testing.T) {
		as := newAuthServer(t, "")
		ms := newMCPServer(t, as)
		ms.resource = "https://evil.example.com/mcp"
		refused(t, as, ms, "not for this server", oauth.Config{})
		if len(as.authz()) != 0 || len(as.paths()) != 0 {
			t.Errorf("went on to the authorization server: %v", as.paths())
		}
	})
	t.Run("metadata of another issuer", func(t *testing.T) {
		as := newAuthServer(t, "")
		as.issuerOverride = "https://attacker.example.com"
		ms := newMCPServer(t, as)
		refused(t, as, ms, "refusing to use it", oauth.Config{})
		if len(as.regs())+len(as.authz()) != 0 {
			t.Errorf("used the mismatched metadata's endpoints")
		}
	})
	for _, pkce := range [][]string{nil, {"plain"}} {
		t.Run("PKCE "+strings.Join(pkce, ","), func(t *testing.T) {
			as := newAuthServer(t, "")
			as.pkce = pkce
			ms := newMCPServer(t, as)
			refused(t, as, ms, "refusing to authorize", oauth.Config{})
			if len(as.authz()) != 0 {
				t.Errorf("authorized without S256")
			}
		})
	}
	for _, tc := range []struct {
		name       string
		advertised bool
		iss        string
	}{{"wrong iss", true, "wrong"}, {"missing iss", true, "omit"}, {"normalized iss", true, "normalized"}, {"unadvertised wrong iss", false, "wrong"}} {
		t.Run(tc.name, func(t *testing.T) {
			as := newAuthServer(t, "")
			as.issAdvertised, as.issInRedirect = tc.advertised, tc.iss
			ms := newMCPServer(t, as)
			refused(t, as, ms, "RFC 9207", oauth.Config{})
		})
	}
	t.Run("forged state", func(t *testing.T) {
		as := newAuthServer(t, "")
		as.tamperState = true
		ms := newMCPServer(t, as)
		refused(t, as, ms, "state does not match", oauth.Config{})
	})
	t.Run("no registration", func(t *testing.T) {
		as := newAuthServer(t, "")
		as.noRegistration = true
		ms := newMCPServer(t, as)
		refused(t, as, ms, "pass --client-id", oauth.Config{})
	})
}

// iss is accepted when correct, and not required when not advertised.
func TestIssAccepted(t *testing.T) {
	for _, tc := range []struct {
		advertised bool
		iss        string
	}{{true, "correct"}, {false, "omit"}, {false, "correct"}} {
		as := newAuthServer(t, "")
		as.issAdvertised, as.issInRedirect = tc.advertised, tc.iss
		ms := newMCPServer(t, as)
		if err := connect(t, ms.url(), oauth.Config{}).initialize(t); err != nil {
			t.Errorf("advertised %v iss %s: %v", tc.advertised, tc.iss, err)
		}
	}
}

// Preflight authorizes before the first MCP request (a GET, no session),
// and does nothing for a server that does not ask.
func TestPreflight(t *testing.T) {
	as := newAuthServer(t, "")
	ms := newMCPServer(t, as)
	s := connect(t, ms.url(), oauth.Config{})
	if err := oauth.Preflight(t.Context(), &http.Client{Transport: s.tr}); err != nil {
		t.Fatal(err)
	}
	if len(as.authz()) != 1 || s.tr.Token() == nil {
		t.Fatalf("no authorization before the first request")
	}
	if err := s.initialize(t); err != nil {
		t.Fatal(err)
	}
	if a := ms.authorizations(); a[0] != "" || !strings.HasPrefix(a[1], "Bearer ") {
		t.Errorf("requests: %v (the GET without, initialize with the token)", a)
	}
	open := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusMethodNotAllowed)
	}))
	defer open.Close()
	tr, _ := oauth.New(nil, open.URL+"/mcp", oauth.Config{})
	if err := tr.Preflight(t.Context()); err != nil || tr.Token() != nil {
		t.Errorf("an open server: %v %v", err, tr.Token())
	}
}

// The connection's log gets the steps of an authorization made before it
// was given, then the later ones.
func TestLogSteps(t *testing.T) {
	as := newAuthServer(t, "")
	ms := newMCPServer(t, as)
	s := connect(t, ms.url(), oauth.Config{})
	if err := s.tr.Preflight(t.Context()); err != nil {
		t.Fatal(err)
	}
	s.tr.SetOnStep(nil)
	var lines []string
	s.tr.LogSteps(func(l string) { lines = append(lines, l) })
	if len(lines) < 4 || !strings.HasPrefix(lines[0], "oauth: the server wants authorization") || !strings.Contains(strings.Join(lines, "\n"), "authorized by") {
		t.Errorf("replayed: %q", lines)
	}
}
