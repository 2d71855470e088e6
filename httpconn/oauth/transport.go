package oauth

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// Config is how a Transport gets its client and reaches the user.
type Config struct {
	// ClientID and ClientSecret are a pre-registered client (the secret
	// may be empty: a public client). They take precedence over the
	// metadata document and registration.
	ClientID, ClientSecret string
	// ClientMetadataURL is an https URL of this client's Client ID
	// Metadata Document, used as the client_id where the authorization
	// server supports them (2025-11-25 on).
	ClientMetadataURL string
	// ClientCredentials takes tokens with the client credentials grant
	// (machine to machine: no browser, no user) with ClientID and
	// ClientSecret. It is also used, unasked, at an authorization server
	// that offers that grant and not the authorization code.
	ClientCredentials bool
	// ClientName is the name registered; "" means "mcptui".
	ClientName string
	// Scopes are asked for besides the ones the server names.
	Scopes []string
	// RedirectPort is the loopback listener's port; 0 means any free one.
	RedirectPort int
	// OpenURL shows the authorization URL to the user (and may open a
	// browser). It must not block for long. nil: the URL is only in the
	// Step "open".
	OpenURL func(authURL string) error
	// OnStep sees each step of an authorization; it must not block.
	OnStep func(Step)
	// Store keeps tokens; nil means in memory only.
	Store Store
	// HTTPClient reaches the metadata, registration and token endpoints;
	// nil means one with TLS verified and a 30 s timeout.
	HTTPClient *http.Client
	// LoginTimeout bounds the wait for the browser's redirect; 0 means 5
	// minutes.
	LoginTimeout time.Duration
	// MaxAuthorizations bounds the authorizations for insufficient scope
	// in one Transport's life (after the first); 0 means 2.
	MaxAuthorizations int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Step is one step of an authorization, for a status line or a log.
type Step struct {
	// Kind is "discover", "register", "open", "authorized", "refresh" or
	// "failed".
	Kind string
	// Text says it in words, with no secret in it.
	Text string
	// URL is the authorization URL to open (Kind "open").
	URL string
}

// Lines is the step for a terminal: its text, and the URL to open on a
// line of its own (easy to select or click).
func (s Step) Lines() []string {
	if s.URL == "" {
		return []string{s.Text}
	}
	return []string{s.Text, "  " + s.URL}
}

// Transport is an http.RoundTripper that authorizes requests to one MCP
// server: see the package comment.
type Transport struct {
	base      http.RoundTripper
	serverURL string
	origin    string
	cfg       Config
	hc        *http.Client

	flow chan struct{} // holds one token while an authorization runs

	mu      sync.Mutex
	token   *Token
	clients map[string]*registration // issuer → registered client
	tried   [][]string               // scope sets asked for after 403s
	steps   int                      // authorizations after the first
	log     func(string)             // where steps go without OnStep
	history []string                 // the last steps, for LogSteps
}

// registration is a dynamically registered client and the redirect port
// it registered.
type registration struct {
	client Client
	port   int
}

// New is a Transport for the MCP server at serverURL, sending through base
// (nil: http.DefaultTransport).
func New(base http.RoundTripper, serverURL string, cfg Config) (*Transport, error) {
	u, err := url.Parse(serverURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("oauth: not an http(s) URL: %q", serverURL)
	}
	if cfg.ClientMetadataURL != "" {
		m, err := url.Parse(cfg.ClientMetadataURL)
		if err != nil || m.Scheme != "https" || m.Path == "" || m.Path == "/" {
			return nil, fmt.Errorf("oauth: a client metadata document URL must be https with a path, got %q", cfg.ClientMetadataURL)
		}
	}
	if base == nil {
		base = http.DefaultTransport
	}
	if cfg.ClientName == "" {
		cfg.ClientName = "mcptui"
	}
	if cfg.LoginTimeout <= 0 {
		cfg.LoginTimeout = 5 * time.Minute
	}
	if cfg.MaxAuthorizations <= 0 {
		cfg.MaxAuthorizations = 2
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Store == nil {
		cfg.Store = NewMemoryStore()
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Transport: base, Timeout: 30 * time.Second}
	}
	t := &Transport{base: base, serverURL: u.String(), origin: originOf(u), cfg: cfg, hc: hc,
		clients: map[string]*registration{}, flow: make(chan struct{}, 1)}
	if tok, err := cfg.Store.Load(t.serverURL); err == nil && tok != nil {
		t.token = tok
	}
	return t, nil
}

func originOf(u *url.URL) string { return strings.ToLower(u.Scheme) + "://" + hostPort(u) }

// Token is the current token, or nil.
func (t *Transport) Token() *Token {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.token
}

// Logout forgets the token, in memory and in the store.
func (t *Transport) Logout() error {
	t.mu.Lock()
	t.token = nil
	t.mu.Unlock()
	return t.cfg.Store.Delete(t.serverURL)
}

func (t *Transport) step(kind, text, authURL string) {
	st := Step{Kind: kind, Text: text, URL: authURL}
	line := "oauth: " + strings.Join(st.Lines(), " ")
	t.mu.Lock()
	onStep, log := t.cfg.OnStep, t.log
	if len(t.history) == maxHistory {
		t.history = t.history[1:]
	}
	t.history = append(t.history, line)
	t.mu.Unlock()
	if onStep != nil {
		onStep(st)
		return
	}
	if log != nil {
		log(line)
	}
}

// SetOnStep replaces Config.OnStep (nil: the steps go to LogSteps's log).
func (t *Transport) SetOnStep(f func(Step)) {
	t.mu.Lock()
	t.cfg.OnStep = f
	t.mu.Unlock()
}

// LogSteps makes the steps lines of log when Config.OnStep is nil: the
// connection's own log (package mcp gives it the one the HTTP exchanges
// go to, pane 5 in the inspector). The steps so far (an authorization
// before the connection, reported elsewhere) go to it first.
func (t *Transport) LogSteps(log func(line string)) {
	t.mu.Lock()
	t.log = log
	earlier := slices.Clone(t.history)
	t.mu.Unlock()
	for _, l := range earlier {
		log(l)
	}
}

// maxHistory is how many steps LogSteps replays.
const maxHistory = 32

// RoundTrip sends req with the Bearer token (to the server's origin only),
// authorizing first when the server asks for it.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Authorization") != "" || !t.ours(req.URL) {
		return t.base.RoundTrip(req)
	}
	tok := t.Token()
	if tok != nil && tok.Expired(t.cfg.Now()) && tok.RefreshToken != "" {
		tok = t.renew(req.Context(), tok)
	}
	resp, err := t.send(req, tok)
	if err != nil {
		return nil, err
	}
	// Each round answers one 401 or 403 with an authorization and sends
	// the request again; a second 401 for a new token ends it.
	authorized := false
	for {
		challenge, _ := BearerChallenge(resp.Header)
		var aerr error
		switch {
		case resp.StatusCode == http.StatusUnauthorized && authorized:
			aerr = &Error{Step: "authorization", Reason: "the server refused the token it had just been given (401 again)"}
		case resp.StatusCode == http.StatusUnauthorized:
			tok, aerr = t.onUnauthorized(req.Context(), tok, challenge)
		case resp.StatusCode == http.StatusForbidden && challenge.Params["error"] == "insufficient_scope":
			tok, aerr = t.onInsufficientScope(req.Context(), tok, challenge)
		default:
			return resp, nil
		}
		if aerr != nil {
			return t.failed(resp, aerr)
		}
		authorized = true
		if resp, err = t.retry(req, resp, tok); err != nil || resp == nil {
			return resp, err
		}
	}
}

// lock waits for the authorization in progress (the user may be at the
// browser) or for ctx.
func (t *Transport) lock(ctx context.Context) error {
	select {
	case t.flow <- struct{}{}:
		return nil
	case <-ctx.Done():
		return &Error{Step: "authorization", Reason: "gave up waiting for the authorization in progress", Err: context.Cause(ctx)}
	}
}

func (t *Transport) unlock() { <-t.flow }

// Preflight authorizes before the first MCP request when the server wants
// it, so that the wait for the person at the browser is bounded by
// Config.LoginTimeout and ctx, not by a request's timeout: with no token
// held it sends a GET (which opens no session and carries no message) and
// runs the flow if the answer is 401 with a Bearer challenge. Any other
// answer leaves the authorization to the first request that needs it.
func (t *Transport) Preflight(ctx context.Context) error {
	if t.Token() != nil {
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.serverURL, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil // the connection says why, with its own diagnosis
	}
	resp.Body.Close() // not drained: it may be an endless stream
	challenge, ok := BearerChallenge(resp.Header)
	if resp.StatusCode != http.StatusUnauthorized || !ok {
		return nil
	}
	_, err = t.onUnauthorized(ctx, nil, challenge)
	if err != nil {
		t.step("failed", strings.TrimPrefix(err.Error(), "oauth: "), "")
	}
	return err
}

// ours reports whether u is on the MCP server's origin: the token goes
// nowhere else (a redirect to another origin travels without it).
func (t *Transport) ours(u *url.URL) bool { return originOf(u) == t.origin }

func (t *Transport) send(req *http.Request, tok *Token) (*http.Response, error) {
	if tok == nil {
		return t.base.RoundTrip(req)
	}
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	return t.base.RoundTrip(r)
}

// retry sends req again with tok, the first answer discarded.
func (t *Transport) retry(req *http.Request, first *http.Response, tok *Token) (*http.Response, error) {
	if req.Body != nil && req.Body != http.NoBody {
		if req.GetBody == nil {
			return t.failed(first, &Error{Step: "authorization", Reason: "authorized, but the request's body cannot be sent again"})
		}
		body, err := req.GetBody()
		if err != nil {
			return t.failed(first, &Error{Step: "authorization", Reason: "authorized, but the request's body cannot be sent again", Err: err})
		}
		req = req.Clone(req.Context())
		req.Body = body
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(first.Body, 1<<16))
	first.Body.Close()
	return t.send(req, tok)
}

// failed ends a round trip whose authorization failed: the answer is
// dropped and the error, in words, is the round trip's.
func (t *Transport) failed(resp *http.Response, err error) (*http.Response, error) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	t.step("failed", strings.TrimPrefix(err.Error(), "oauth: "), "")
	return nil, err
}

// renew refreshes tok, or returns it unchanged when that fails.
func (t *Transport) renew(ctx context.Context, tok *Token) *Token {
	if t.lock(ctx) != nil {
		return tok
	}
	defer t.unlock()
	if cur := t.Token(); cur != tok {
		return cur // renewed meanwhile
	}
	t.step("refresh", "refreshing the access token at "+tok.TokenEndpoint, "")
	n, err := refresh(ctx, t.hc, tok, t.cfg.Now)
	if err != nil {
		t.step("refresh", "the refresh failed: "+err.Error(), "")
		return tok
	}
	t.keep(n)
	return n
}

func (t *Transport) keep(tok *Token) {
	t.mu.Lock()
	t.token = tok
	t.mu.Unlock()
	if err := t.cfg.Store.Save(t.serverURL, tok); err != nil {
		t.step("failed", "the token could not be kept: "+err.Error(), "")
	}
}

// onUnauthorized gets a token after a 401 answered tok: a refresh when the
// authorization server is still the one that issued it, else a new
// authorization.
func (t *Transport) onUnauthorized(ctx context.Context, tok *Token, c Challenge) (*Token, error) {
	if err := t.lock(ctx); err != nil {
		return nil, err
	}
	defer t.unlock()
	if cur := t.Token(); cur != nil && cur != tok {
		return cur, nil // another request authorized meanwhile
	}
	if c.Scheme == "" {
		return nil, &Error{Step: "resource metadata", Reason: "the server answered 401 without a Bearer WWW-Authenticate challenge"}
	}
	d, err := t.discover(ctx, c)
	if err != nil {
		return nil, err
	}
	if tok != nil && tok.RefreshToken != "" && tok.Client.Issuer == d.server.Issuer {
		t.step("refresh", "the server refused the token: refreshing it", "")
		if n, err := refresh(ctx, t.hc, tok, t.cfg.Now); err == nil {
			t.keep(n)
			return n, nil
		}
	}
	scopes := t.selectScopes(c, d, nil)
	return t.authorize(ctx, d, scopes)
}

// onInsufficientScope re-authorizes with the union of the scopes held and
// the challenged ones, unless that set was tried or too many were.
func (t *Transport) onInsufficientScope(ctx context.Context, tok *Token, c Challenge) (*Token, error) {
	if err := t.lock(ctx); err != nil {
		return nil, err
	}
	defer t.unlock()
	if cur := t.Token(); cur != nil && cur != tok {
		return cur, nil
	}
	var held []string
	if tok != nil {
		held = tok.Scopes
	}
	want := union(held, c.Scopes())
	t.mu.Lock()
	tried := slices.ContainsFunc(t.tried, func(s []string) bool { return slices.Equal(s, want) })
	tooMany := t.steps >= t.cfg.MaxAuthorizations
	if !tried && !tooMany {
		t.tried = append(t.tried, want)
		t.steps++
	}
	t.mu.Unlock()
	switch {
	case len(c.Scopes()) == 0:
		return nil, &Error{Step: "authorization", Reason: "the server answered 403 insufficient_scope without naming a scope"}
	case tried || (tok != nil && slices.Equal(union(held, nil), want)):
		return nil, &Error{Step: "authorization", Reason: fmt.Sprintf("the server still wants the scope %q after it was granted: giving up", strings.Join(c.Scopes(), " "))}
	case tooMany:
		return nil, &Error{Step: "authorization", Reason: fmt.Sprintf("the server asked for more scopes %d times: giving up", t.cfg.MaxAuthorizations)}
	}
	d, err := t.discover(ctx, c)
	if err != nil {
		return nil, err
	}
	t.step("discover", "the server wants the scope "+strings.Join(c.Scopes(), " ")+": authorizing again", "")
	return t.authorize(ctx, d, t.withOffline(want, d))
}

// union is a's scopes then b's not in a, sorted and without duplicates.
func union(a, b []string) []string {
	out := append(append([]string(nil), a...), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// discovery is what an authorization needs to know about the server.
type discovery struct {
	resource *ResourceMetadata // nil on 2025-03-26 servers
	server   *ServerMetadata
}

func (t *Transport) discover(ctx context.Context, c Challenge) (*discovery, error) {
	t.step("discover", "the server wants authorization: reading its protected resource metadata", "")
	prm, err := DiscoverResource(ctx, t.hc, t.serverURL, c.Params["resource_metadata"])
	if err != nil {
		return nil, err
	}
	if prm == nil {
		t.step("discover", "no protected resource metadata: taking the server's origin as its authorization server (2025-03-26)", "")
		m, err := legacyServer(ctx, t.hc, t.serverURL)
		if err != nil {
			return nil, err
		}
		return &discovery{server: m}, nil
	}
	issuer := prm.AuthorizationServers[0]
	t.step("discover", "reading the metadata of the authorization server "+issuer, "")
	m, err := DiscoverServer(ctx, t.hc, issuer)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, &Error{Step: "server metadata", Reason: fmt.Sprintf("the authorization server %s publishes no metadata at %s", issuer, strings.Join(ServerMetadataURLs(issuer), " or "))}
	}
	return &discovery{resource: prm, server: m}, nil
}

// selectScopes is the specification's scope selection (2025-11-25): the
// challenge's scope, else the resource's scopes_supported, else none —
// with the configured extra scopes and, where the authorization server
// lists it, offline_access (2026-07-28, for a refresh token).
func (t *Transport) selectScopes(c Challenge, d *discovery, held []string) []string {
	scopes := c.Scopes()
	if len(scopes) == 0 && d.resource != nil {
		scopes = d.resource.ScopesSupported
	}
	return t.withOffline(union(held, union(scopes, t.cfg.Scopes)), d)
}

func (t *Transport) withOffline(scopes []string, d *discovery) []string {
	if slices.Contains(d.server.ScopesSupported, "offline_access") && !slices.Contains(scopes, "offline_access") {
		scopes = union(scopes, []string{"offline_access"})
	}
	return scopes
}

// authorize runs the authorization code grant with PKCE through the
// loopback listener and keeps the token.
func (t *Transport) authorize(ctx context.Context, d *discovery, scopes []string) (*Token, error) {
	m := d.server
	if t.machineToMachine(m) {
		return t.clientCredentials(ctx, d, scopes)
	}
	if err := checkPKCE(m); err != nil {
		return nil, err
	}
	client, lb, err := t.client(ctx, m)
	if err != nil {
		return nil, err
	}
	defer lb.close()
	resource := ""
	if d.resource != nil {
		resource = d.resource.Resource
	}
	verifier, state := randomString(32), randomString(16)
	authURL, err := authorizationURL(m.AuthorizationEndpoint, client, lb.redirectURI(), state, pkceChallenge(verifier), resource, scopes)
	if err != nil {
		return nil, err
	}
	t.step("open", fmt.Sprintf("open this URL to authorize mcptui at %s (waiting %s for the browser):", m.Issuer, t.cfg.LoginTimeout), authURL)
	if t.cfg.OpenURL != nil {
		if err := t.cfg.OpenURL(authURL); err != nil {
			t.step("open", "the browser could not be opened ("+err.Error()+"): open the URL above yourself", "")
		}
	}
	wait, cancel := context.WithTimeout(ctx, t.cfg.LoginTimeout)
	defer cancel()
	var res callbackResult
	select {
	case res = <-lb.result:
	case <-wait.Done():
		return nil, &Error{Step: "authorization", Reason: "no redirect came back to " + lb.redirectURI() + " in time", Err: context.Cause(wait)}
	}
	code, err := checkCallback(res.query, state, m)
	if err != nil {
		return nil, err
	}
	form := url.Values{"grant_type": {grantCode}, "code": {code}, "redirect_uri": {lb.redirectURI()}, "code_verifier": {verifier}}
	if resource != "" {
		form.Set("resource", resource)
	}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	tok, err := requestToken(ctx, t.hc, m.TokenEndpoint, *client, form, t.cfg.Now)
	if err != nil {
		return nil, err
	}
	if len(tok.Scopes) == 0 {
		tok.Scopes = scopes
	}
	t.keep(tok)
	t.step("authorized", fmt.Sprintf("authorized by %s (scopes: %s)", m.Issuer, orNone(tok.Scopes)), "")
	return tok, nil
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, " ")
}

// client is the client to present at m, and the loopback listener its
// redirect URI names: pre-registered, a metadata document, a registration
// made earlier with this issuer, or a new registration.
func (t *Transport) client(ctx context.Context, m *ServerMetadata) (*Client, *loopback, error) {
	cfg := t.cfg
	switch {
	case cfg.ClientID != "":
		lb, err := listenLoopback(cfg.RedirectPort)
		if err != nil {
			return nil, nil, err
		}
		return &Client{Issuer: m.Issuer, ID: cfg.ClientID, Secret: cfg.ClientSecret, How: "pre-registered",
			AuthMethod: authMethodFor(cfg.ClientSecret != "", m.TokenEndpointAuthMethodsSupported)}, lb, nil
	case cfg.ClientMetadataURL != "" && m.ClientIDMetadataDocumentSupported:
		lb, err := listenLoopback(cfg.RedirectPort)
		if err != nil {
			return nil, nil, err
		}
		t.step("register", "using the client metadata document "+cfg.ClientMetadataURL+" as the client id", "")
		return &Client{Issuer: m.Issuer, ID: cfg.ClientMetadataURL, AuthMethod: AuthNone, How: "metadata document"}, lb, nil
	}
	t.mu.Lock()
	reg := t.clients[m.Issuer]
	t.mu.Unlock()
	if reg != nil {
		if lb, err := listenLoopback(reg.port); err == nil {
			c := reg.client
			return &c, lb, nil
		}
	}
	if m.RegistrationEndpoint == "" {
		return nil, nil, &Error{Step: "registration", Err: errNoRegistration,
			Reason: m.Issuer + " offers no dynamic client registration: register mcptui there and pass --client-id (and --client-secret)"}
	}
	lb, err := listenLoopback(cfg.RedirectPort)
	if err != nil {
		return nil, nil, err
	}
	t.step("register", "registering mcptui with "+m.Issuer, "")
	c, err := register(ctx, t.hc, m, cfg.ClientName, lb.redirectURI())
	if err != nil {
		lb.close()
		return nil, nil, err
	}
	t.mu.Lock()
	t.clients[m.Issuer] = &registration{client: *c, port: lb.port()}
	t.mu.Unlock()
	return c, lb, nil
}

// Preflight is Transport.Preflight for the client's Transport, when it is
// one (nil or another client: nothing to do).
func Preflight(ctx context.Context, c *http.Client) error {
	if c == nil {
		return nil
	}
	if t, ok := c.Transport.(*Transport); ok {
		return t.Preflight(ctx)
	}
	return nil
}

// machineToMachine reports whether tokens come from the client credentials
// grant: asked for, or the only one of the two the server offers to a
// client with a secret.
func (t *Transport) machineToMachine(m *ServerMetadata) bool {
	if t.cfg.ClientCredentials {
		return true
	}
	g := m.GrantTypesSupported
	return t.cfg.ClientID != "" && t.cfg.ClientSecret != "" &&
		slices.Contains(g, grantClient) && !slices.Contains(g, grantCode)
}

// clientCredentials takes a token with the client credentials grant
// (OAuth 2.1 §4.2), with the resource indicator.
func (t *Transport) clientCredentials(ctx context.Context, d *discovery, scopes []string) (*Token, error) {
	m := d.server
	if t.cfg.ClientID == "" || t.cfg.ClientSecret == "" {
		return nil, &Error{Step: "token", Reason: "the client credentials grant needs --client-id and --client-secret"}
	}
	c := Client{Issuer: m.Issuer, ID: t.cfg.ClientID, Secret: t.cfg.ClientSecret, How: "pre-registered",
		AuthMethod: authMethodFor(true, m.TokenEndpointAuthMethodsSupported)}
	form := url.Values{"grant_type": {grantClient}}
	if d.resource != nil {
		form.Set("resource", d.resource.Resource)
	}
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	t.step("discover", "asking "+m.Issuer+" for a token with the client credentials grant (no browser)", "")
	tok, err := requestToken(ctx, t.hc, m.TokenEndpoint, c, form, t.cfg.Now)
	if err != nil {
		return nil, err
	}
	t.keep(tok)
	t.step("authorized", fmt.Sprintf("authorized by %s as the client %s (scopes: %s)", m.Issuer, c.ID, orNone(tok.Scopes)), "")
	return tok, nil
}
