package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/mcptui/mcptui/internal/urlpolicy"
)

// maxMetadataBytes bounds a metadata document or token response.
const maxMetadataBytes = 1 << 20

// ResourceMetadata is the OAuth protected resource metadata of an MCP
// server (RFC 9728).
type ResourceMetadata struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
	// URL is where the document was read.
	URL string `json:"-"`
}

// ServerMetadata is an authorization server's metadata (RFC 8414, or an
// OpenID Provider's configuration).
type ServerMetadata struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	ResponseTypesSupported            []string `json:"response_types_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`
	// IssParameterSupported is RFC 9207's
	// authorization_response_iss_parameter_supported.
	IssParameterSupported bool `json:"authorization_response_iss_parameter_supported"`
	// URL is where the document was read ("" for the 2025-03-26 default
	// endpoints).
	URL string `json:"-"`
}

// Error is a failed step of the authorization, in words for the user.
type Error struct {
	Step   string // "resource metadata", "server metadata", "registration", "authorization", "token"
	Reason string
	Err    error
}

func (e *Error) Error() string {
	s := "oauth: " + e.Step + ": " + e.Reason
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// errNotFound marks a metadata URL that answered 404 (or another 4xx): try
// the next.
var errNotFound = errors.New("no document there")

// getJSON GETs u and decodes its JSON body into v.
func getJSON(ctx context.Context, client *http.Client, u string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadataBytes+1))
	if err != nil {
		return fmt.Errorf("GET %s: %w", u, err)
	}
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		return fmt.Errorf("GET %s: %d %s: %w", u, resp.StatusCode, http.StatusText(resp.StatusCode), errNotFound)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %d %s", u, resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	if len(body) > maxMetadataBytes {
		return fmt.Errorf("GET %s: the document is larger than %d bytes", u, maxMetadataBytes)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("GET %s: not a JSON object: %w", u, err)
	}
	return nil
}

// ResourceMetadataURLs are the places protected resource metadata is
// looked for, in the specification's order (2025-11-25): the challenge's
// resource_metadata, then the well-known URL with the server URL's path,
// then the one at the root.
func ResourceMetadataURLs(serverURL, fromChallenge string) []string {
	var out []string
	if fromChallenge != "" {
		out = append(out, fromChallenge)
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		return out
	}
	origin := u.Scheme + "://" + u.Host
	if p := strings.TrimSuffix(u.EscapedPath(), "/"); p != "" {
		out = append(out, origin+"/.well-known/oauth-protected-resource"+p)
	}
	out = append(out, origin+"/.well-known/oauth-protected-resource")
	return slices.Compact(out)
}

// DiscoverResource reads the server's protected resource metadata from
// the first of ResourceMetadataURLs that has it, and checks that it names
// the server (RFC 9728 §3.3). It returns nil, nil when none has it.
func DiscoverResource(ctx context.Context, client *http.Client, serverURL, fromChallenge string) (*ResourceMetadata, error) {
	for _, u := range ResourceMetadataURLs(serverURL, fromChallenge) {
		var m ResourceMetadata
		err := getJSON(ctx, client, u, &m)
		if errors.Is(err, errNotFound) {
			continue
		}
		if err != nil {
			// There, but unreadable: say so rather than look elsewhere.
			return nil, &Error{Step: "resource metadata", Reason: "reading " + u, Err: err}
		}
		m.URL = u
		if m.Resource == "" {
			return nil, &Error{Step: "resource metadata", Reason: u + " names no resource"}
		}
		if !ResourceMatches(m.Resource, serverURL) {
			return nil, &Error{Step: "resource metadata",
				Reason: fmt.Sprintf("%s is for the resource %s, not for this server (%s): refusing to authorize", u, m.Resource, serverURL)}
		}
		if len(m.AuthorizationServers) == 0 {
			return nil, &Error{Step: "resource metadata", Reason: u + " names no authorization server"}
		}
		return &m, nil
	}
	return nil, nil
}

// ResourceMatches reports whether the resource identifier a server's
// metadata publishes covers serverURL: the same scheme and host (case
// folded, default port elided) and a path that is serverURL's or a
// segment-wise prefix of it.
func ResourceMatches(resource, serverURL string) bool {
	r, err1 := url.Parse(resource)
	s, err2 := url.Parse(serverURL)
	if err1 != nil || err2 != nil || r.Fragment != "" {
		return false
	}
	if !strings.EqualFold(r.Scheme, s.Scheme) || hostPort(r) != hostPort(s) {
		return false
	}
	rp, sp := strings.TrimSuffix(r.Path, "/"), strings.TrimSuffix(s.Path, "/")
	return rp == sp || strings.HasPrefix(sp, rp+"/")
}

func hostPort(u *url.URL) string {
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return host + ":" + port
}

// ServerMetadataURLs are the places an issuer's metadata is looked for, in
// the specification's order (2025-11-25): OAuth's and OpenID's well-known
// URLs with the issuer's path inserted, then OpenID's appended to it; for
// an issuer without a path, OAuth's then OpenID's.
func ServerMetadataURLs(issuer string) []string {
	u, err := url.Parse(issuer)
	if err != nil {
		return nil
	}
	origin := u.Scheme + "://" + u.Host
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	if p == "" {
		return []string{origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"}
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + p,
		origin + "/.well-known/openid-configuration" + p,
		origin + p + "/.well-known/openid-configuration",
	}
}

// DiscoverServer reads the metadata of the authorization server issuer
// from the first of ServerMetadataURLs that has it. Its issuer must be
// issuer exactly (RFC 8414 §3.3): a document for another issuer is refused,
// not skipped. It returns nil, nil when no URL has a document.
func DiscoverServer(ctx context.Context, client *http.Client, issuer string) (*ServerMetadata, error) {
	for _, u := range ServerMetadataURLs(issuer) {
		var m ServerMetadata
		err := getJSON(ctx, client, u, &m)
		if errors.Is(err, errNotFound) {
			continue
		}
		if err != nil {
			return nil, &Error{Step: "server metadata", Reason: "reading " + u, Err: err}
		}
		m.URL = u
		if m.Issuer != issuer {
			return nil, &Error{Step: "server metadata",
				Reason: fmt.Sprintf("%s says its issuer is %q, not %q: refusing to use it", u, m.Issuer, issuer)}
		}
		if m.AuthorizationEndpoint == "" || m.TokenEndpoint == "" {
			return nil, &Error{Step: "server metadata", Reason: u + " has no authorization_endpoint or token_endpoint"}
		}
		if err := checkEndpoints(&m); err != nil {
			return nil, err
		}
		return &m, nil
	}
	return nil, nil
}

// legacyServer is the 2025-03-26 discovery for a server without protected
// resource metadata: the authorization server is the server's origin; its
// RFC 8414 metadata, or else the default endpoints /authorize, /token and
// /register.
func legacyServer(ctx context.Context, client *http.Client, serverURL string) (*ServerMetadata, error) {
	u, err := url.Parse(serverURL)
	if err != nil {
		return nil, err
	}
	origin := u.Scheme + "://" + u.Host
	var m ServerMetadata
	err = getJSON(ctx, client, origin+"/.well-known/oauth-authorization-server", &m)
	switch {
	case errors.Is(err, errNotFound):
		m := &ServerMetadata{Issuer: origin, AuthorizationEndpoint: origin + "/authorize",
			TokenEndpoint: origin + "/token", RegistrationEndpoint: origin + "/register"}
		if err := checkEndpoints(m); err != nil {
			return nil, err
		}
		return m, nil
	case err != nil:
		return nil, &Error{Step: "server metadata", Reason: "reading the server's own metadata", Err: err}
	}
	m.URL = origin + "/.well-known/oauth-authorization-server"
	if strings.TrimSuffix(m.Issuer, "/") != origin {
		return nil, &Error{Step: "server metadata",
			Reason: fmt.Sprintf("%s says its issuer is %q, not %q: refusing to use it", m.URL, m.Issuer, origin)}
	}
	if m.AuthorizationEndpoint == "" || m.TokenEndpoint == "" {
		return nil, &Error{Step: "server metadata", Reason: m.URL + " has no authorization_endpoint or token_endpoint"}
	}
	if err := checkEndpoints(&m); err != nil {
		return nil, err
	}
	return &m, nil
}

// checkEndpoints refuses an authorization server whose endpoints are not
// https (http to a loopback host excepted): the MCP authorization
// specification requires it of every authorization-server endpoint, since
// the code, the PKCE verifier, a client secret and the token cross them.
// Nothing has been sent to them yet.
func checkEndpoints(m *ServerMetadata) error {
	for _, e := range []struct{ name, url string }{
		{"authorization_endpoint", m.AuthorizationEndpoint},
		{"token_endpoint", m.TokenEndpoint},
		{"registration_endpoint", m.RegistrationEndpoint},
	} {
		if e.url == "" {
			continue
		}
		if err := urlpolicy.Secure(e.url); err != nil {
			where := m.URL
			if where == "" {
				where = "the default endpoints of " + m.Issuer
			}
			return &Error{Step: "server metadata",
				Reason: fmt.Sprintf("%s: the %s must be https (the MCP authorization specification requires it; http only to this machine): refusing to send anything there", where, e.name),
				Err:    err}
		}
	}
	return nil
}
