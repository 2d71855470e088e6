package oauth

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/mcptui/mcptui/internal/urlpolicy"
)

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
	t.step("discover", "the server wants authorization (401)", "")
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
	t.step("discover", "the server wants the scope "+strings.Join(c.Scopes(), " ")+": authorizing again", "")
	d, err := t.discover(ctx, c)
	if err != nil {
		return nil, err
	}
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
	t.step("discover", "reading the server's protected resource metadata", "")
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
	if err := urlpolicy.Secure(issuer); err != nil {
		return nil, &Error{Step: "resource metadata",
			Reason: fmt.Sprintf("%s names the authorization server %s, which is not https (the MCP authorization specification requires it; http only to this machine): refusing to use it", prm.URL, issuer),
			Err:    err}
	}
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
	// The one URL-opening policy: only https (http to this machine) is
	// shown to be opened, and the sentence names where the URL itself
	// goes, not the issuer it claims to be for.
	if _, err := urlpolicy.Openable(authURL); err != nil {
		return nil, &Error{Step: "authorization", Reason: "refusing to open the authorization URL " + authURL, Err: err}
	}
	t.step("open", fmt.Sprintf("open this URL to authorize mcptui at %s (waiting %s for the browser):", urlSite(authURL), t.cfg.LoginTimeout), authURL)
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

// urlSite is where u goes, as a person reads it: its scheme and host (with
// the port when there is one).
func urlSite(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return strings.ToLower(p.Scheme) + "://" + p.Host
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
		if m.URL == "" {
			// Nothing published any metadata: the 2025-03-26 default
			// endpoints were a guess.
			return nil, nil, &Error{Step: "resource metadata", Err: err,
				Reason: "the server publishes no OAuth metadata (no protected resource metadata, no authorization server metadata) and its default /register failed: it may want a token got elsewhere (--bearer TOKEN, or --header)"}
		}
		return nil, nil, err
	}
	t.mu.Lock()
	t.clients[m.Issuer] = &registration{client: *c, port: lb.port()}
	t.mu.Unlock()
	return c, lb, nil
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
