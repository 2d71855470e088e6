package oauth_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/httpconn/oauth"
)

// authServer is an OAuth 2.1 authorization server in the test process, on
// 127.0.0.1, whose authorization endpoint redirects at once (the "user"
// always agrees). Its fields shape its metadata and behaviour; set them
// before the first request.
type authServer struct {
	srv    *httptest.Server
	prefix string // the issuer's path ("" or "/tenant1")
	// metadataAt is where the metadata is served: "oauth" (RFC 8414,
	// path inserted), "openid" (path inserted), "openid-appended", or
	// "none".
	metadataAt     string
	issuerOverride string   // a wrong issuer in the metadata
	pkce           []string // code_challenge_methods_supported; nil: omitted
	issAdvertised  bool
	issInRedirect  string // "correct", "wrong", "omit", "normalized"
	authMethods    []string
	noRegistration bool
	cimd           bool
	scopes         []string
	expiresIn      int
	refreshTokens  bool
	tamperState    bool
	registerAs     string   // token_endpoint_auth_method the registration answers
	grants         []string // grant_types_supported; nil: omitted
	// override replaces members of the metadata (hostile endpoints).
	override map[string]any
	// tokenRedirect, when set, answers the token endpoint with a 307 to
	// it.
	tokenRedirect string

	mu         sync.Mutex
	seen       []string // paths requested, in order
	registered []map[string]any
	authorized []url.Values
	tokenReqs  []tokenRequest
	challenges map[string]string // code → code_challenge
	granted    map[string][]string
	clientIDs  int
	seq        int
}

type tokenRequest struct {
	form   url.Values
	header http.Header
}

func newAuthServer(t *testing.T, prefix string) *authServer {
	a := &authServer{prefix: prefix, metadataAt: "oauth", pkce: []string{"S256"}, issInRedirect: "correct",
		issAdvertised: true, expiresIn: 3600, challenges: map[string]string{}, granted: map[string][]string{}}
	a.srv = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *authServer) issuer() string { return a.srv.URL + a.prefix }

func (a *authServer) metadataPath() string {
	switch a.metadataAt {
	case "openid":
		return "/.well-known/openid-configuration" + a.prefix
	case "openid-appended":
		return a.prefix + "/.well-known/openid-configuration"
	case "none":
		return "/nowhere"
	}
	return "/.well-known/oauth-authorization-server" + a.prefix
}

func (a *authServer) scopesOf(token string) ([]string, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, ok := a.granted[token]
	return s, ok
}

func (a *authServer) serve(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.seen = append(a.seen, r.URL.Path)
	a.mu.Unlock()
	base := a.srv.URL + a.prefix
	switch r.URL.Path {
	case a.metadataPath():
		m := map[string]any{
			"issuer": a.issuer(), "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"response_types_supported": []string{"code"},
		}
		if a.issuerOverride != "" {
			m["issuer"] = a.issuerOverride
		}
		if !a.noRegistration {
			m["registration_endpoint"] = base + "/register"
		}
		if a.pkce != nil {
			m["code_challenge_methods_supported"] = a.pkce
		}
		if a.issAdvertised {
			m["authorization_response_iss_parameter_supported"] = true
		}
		if a.authMethods != nil {
			m["token_endpoint_auth_methods_supported"] = a.authMethods
		}
		if a.cimd {
			m["client_id_metadata_document_supported"] = true
		}
		if a.scopes != nil {
			m["scopes_supported"] = a.scopes
		}
		if a.grants != nil {
			m["grant_types_supported"] = a.grants
		}
		for k, v := range a.override {
			m[k] = v
		}
		writeJSON(w, http.StatusOK, m)
	case a.prefix + "/register":
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		a.mu.Lock()
		a.registered = append(a.registered, body)
		a.clientIDs++
		id := fmt.Sprintf("client-%d-of-%s", a.clientIDs, a.srv.URL)
		a.mu.Unlock()
		resp := map[string]any{"client_id": id, "redirect_uris": body["redirect_uris"]}
		if a.registerAs != "" {
			resp["token_endpoint_auth_method"] = a.registerAs
			if a.registerAs != oauth.AuthNone {
				resp["client_secret"] = "registered-secret"
			}
		}
		writeJSON(w, http.StatusCreated, resp)
	case a.prefix + "/authorize":
		q := r.URL.Query()
		a.mu.Lock()
		a.authorized = append(a.authorized, q)
		a.seq++
		code := fmt.Sprintf("code-%d", a.seq)
		a.challenges[code] = q.Get("code_challenge")
		a.mu.Unlock()
		to, _ := url.Parse(q.Get("redirect_uri"))
		back := to.Query()
		back.Set("code", code)
		back.Set("state", q.Get("state"))
		if a.tamperState {
			back.Set("state", "forged")
		}
		switch a.issInRedirect {
		case "correct":
			back.Set("iss", a.issuer())
		case "wrong":
			back.Set("iss", "https://evil.example.com")
		case "normalized":
			back.Set("iss", a.issuer()+"/")
		}
		to.RawQuery = back.Encode()
		http.Redirect(w, r, to.String(), http.StatusFound)
	case a.prefix + "/token":
		if a.tokenRedirect != "" {
			http.Redirect(w, r, a.tokenRedirect, http.StatusTemporaryRedirect)
			return
		}
		_ = r.ParseForm()
		a.mu.Lock()
		defer a.mu.Unlock()
		a.tokenReqs = append(a.tokenReqs, tokenRequest{form: r.PostForm, header: r.Header.Clone()})
		var scopes []string
		switch r.PostForm.Get("grant_type") {
		case "authorization_code":
			sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
			if base64.RawURLEncoding.EncodeToString(sum[:]) != a.challenges[r.PostForm.Get("code")] {
				writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_grant", "error_description": "PKCE verifier does not match"})
				return
			}
			scopes = strings.Fields(a.authorized[len(a.authorized)-1].Get("scope"))
		case "client_credentials":
			if !strings.HasPrefix(r.Header.Get("Authorization"), "Basic ") && r.PostForm.Get("client_secret") == "" {
				writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "invalid_client"})
				return
			}
			scopes = strings.Fields(r.PostForm.Get("scope"))
		case "refresh_token":
			if !strings.HasPrefix(r.PostForm.Get("refresh_token"), "refresh-") {
				writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_grant"})
				return
			}
			scopes = strings.Fields(r.PostForm.Get("scope"))
		default:
			writeJSON(w, http.StatusBadRequest, map[string]any{"error": "unsupported_grant_type"})
			return
		}
		a.seq++
		tok := fmt.Sprintf("token-%d-%s", a.seq, a.srv.URL)
		a.granted[tok] = scopes
		resp := map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": a.expiresIn}
		if a.refreshTokens {
			resp["refresh_token"] = fmt.Sprintf("refresh-%d", a.seq)
		}
		if len(scopes) > 0 {
			resp["scope"] = strings.Join(scopes, " ")
		}
		writeJSON(w, http.StatusOK, resp)
	default:
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// mcpServer is go-sdk's streamable handler behind a Bearer check against
// an authServer, with its protected resource metadata.
type mcpServer struct {
	srv *httptest.Server
	as  func() *authServer // the authorization server it names now
	// prmAt is where the metadata is: "path" (well-known with /mcp),
	// "root", "custom", or "none"; inHeader puts its URL in the challenge.
	prmAt       string
	inHeader    bool
	resource    string   // overrides the published resource
	prmScopes   []string // scopes_supported
	scopeHeader string   // scope in the 401 challenge
	// need is the scope each method needs (403 insufficient_scope
	// without it); alwaysForbid answers every authorized request 403.
	need         map[string]string
	alwaysForbid string

	mu    sync.Mutex
	seen  []string // paths requested
	auths []string // Authorization of each /mcp request
}

func newMCPServer(t *testing.T, as *authServer) *mcpServer {
	m := &mcpServer{as: func() *authServer { return as }, prmAt: "path", inHeader: true}
	s := sdk.NewServer(&sdk.Implementation{Name: "protected", Version: "1.0.0"}, nil)
	s.AddTool(&sdk.Tool{Name: "write", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "written"}}}, nil
		})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{JSONResponse: true})
	m.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.mu.Lock()
		m.seen = append(m.seen, r.URL.Path)
		m.mu.Unlock()
		if r.URL.Path == m.prmPath() && m.prmAt != "none" {
			doc := map[string]any{"resource": m.srv.URL + "/mcp", "authorization_servers": []string{m.as().issuer()}}
			if m.prmAt == "root" {
				doc["resource"] = m.srv.URL
			}
			if m.resource != "" {
				doc["resource"] = m.resource
			}
			if m.prmScopes != nil {
				doc["scopes_supported"] = m.prmScopes
			}
			writeJSON(w, http.StatusOK, doc)
			return
		}
		if r.URL.Path != "/mcp" {
			http.NotFound(w, r)
			return
		}
		auth := r.Header.Get("Authorization")
		m.mu.Lock()
		m.auths = append(m.auths, auth)
		m.mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct{ Method string }
		_ = json.Unmarshal(body, &msg)
		scopes, ok := m.as().scopesOf(strings.TrimPrefix(auth, "Bearer "))
		if !ok {
			w.Header().Set("WWW-Authenticate", m.challenge(m.scopeHeader, ""))
			writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "invalid_token"})
			return
		}
		want := m.need[msg.Method]
		if m.alwaysForbid != "" && msg.Method != "" {
			want = m.alwaysForbid
			scopes = nil
		}
		if want != "" && !slices.Contains(scopes, want) {
			w.Header().Set("WWW-Authenticate", m.challenge(want, "insufficient_scope"))
			writeJSON(w, http.StatusForbidden, map[string]any{"error": "insufficient_scope"})
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(m.srv.Close)
	return m
}

func (m *mcpServer) url() string { return m.srv.URL + "/mcp" }

func (m *mcpServer) prmPath() string {
	switch m.prmAt {
	case "root":
		return "/.well-known/oauth-protected-resource"
	case "custom":
		return "/custom/metadata.json"
	}
	return "/.well-known/oauth-protected-resource/mcp"
}

func (m *mcpServer) challenge(scope, errCode string) string {
	parts := []string{}
	if errCode != "" {
		parts = append(parts, `error="`+errCode+`"`)
	}
	if scope != "" {
		parts = append(parts, `scope="`+scope+`"`)
	}
	if m.inHeader && m.prmAt != "none" {
		parts = append(parts, `resource_metadata="`+m.srv.URL+m.prmPath()+`"`)
	}
	return "Bearer " + strings.Join(parts, ", ")
}

func (m *mcpServer) authorizations() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.auths...)
}

// browser follows the authorization URL's redirects to the loopback
// listener, as a browser whose user agrees would.
func browser(t *testing.T) func(string) error {
	return func(u string) error {
		go func() {
			resp, err := http.Get(u)
			if err != nil {
				t.Logf("browser: %v", err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}()
		return nil
	}
}

// session is an MCP session through a Transport.
type session struct {
	tr *oauth.Transport
	c  *httpconn.Conn
	mu sync.Mutex
	st []oauth.Step
}

func (s *session) steps() []oauth.Step {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]oauth.Step(nil), s.st...)
}

// connect makes a Transport for m with cfg (the browser and a step log
// filled in when unset) and an httpconn.Conn through it.
func connect(t *testing.T, serverURL string, cfg oauth.Config) *session {
	t.Helper()
	s := &session{}
	if cfg.OpenURL == nil {
		cfg.OpenURL = browser(t)
	}
	cfg.OnStep = func(st oauth.Step) {
		s.mu.Lock()
		s.st = append(s.st, st)
		s.mu.Unlock()
	}
	if cfg.LoginTimeout == 0 {
		cfg.LoginTimeout = 20 * time.Second
	}
	tr, err := oauth.New(nil, serverURL, cfg)
	if err != nil {
		t.Fatal(err)
	}
	c, err := httpconn.Dial(t.Context(), serverURL, httpconn.Options{Client: &http.Client{Transport: tr}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	s.tr, s.c = tr, c
	return s
}

func (s *session) initialize(t *testing.T) error {
	t.Helper()
	_, err := s.c.Call(t.Context(), "initialize", json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`))
	if err != nil {
		return err
	}
	return s.c.Notify(t.Context(), "notifications/initialized", nil)
}

func (s *session) call(t *testing.T, method string, params string) error {
	t.Helper()
	_, err := s.c.Call(t.Context(), method, json.RawMessage(params))
	return err
}

// Snapshots of what the servers saw, safe while they still serve.
func (a *authServer) regs() []map[string]any {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.registered)
}

func (a *authServer) authz() []url.Values {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.authorized)
}

func (a *authServer) toks() []tokenRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.tokenReqs)
}

func (a *authServer) paths() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.seen)
}

func (m *mcpServer) paths() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.seen)
}
