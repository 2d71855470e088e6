package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/mcptui/mcptui/internal/urlpolicy"
)

// Client is an OAuth client at one authorization server.
type Client struct {
	// Issuer is the authorization server the client belongs to: a client
	// is never presented to another one.
	Issuer string `json:"issuer"`
	ID     string `json:"client_id"`
	Secret string `json:"client_secret,omitempty"`
	// AuthMethod is the token endpoint authentication method: "none",
	// "client_secret_basic" or "client_secret_post".
	AuthMethod string `json:"token_endpoint_auth_method"`
	// How is where the client came from: "pre-registered", "metadata
	// document" or "registered".
	How string `json:"how"`
}

// Auth methods of the token endpoint.
const (
	AuthNone    = "none"
	AuthBasic   = "client_secret_basic"
	AuthPost    = "client_secret_post"
	grantCode   = "authorization_code"
	grantRenew  = "refresh_token"
	grantClient = "client_credentials"
)

// authMethodFor picks how a client with (or without) a secret
// authenticates at a server that supports methods (RFC 8414's default when
// it lists none is client_secret_basic).
func authMethodFor(hasSecret bool, methods []string) string {
	if !hasSecret {
		return AuthNone
	}
	if len(methods) == 0 || slices.Contains(methods, AuthBasic) {
		return AuthBasic
	}
	if slices.Contains(methods, AuthPost) {
		return AuthPost
	}
	return AuthBasic
}

// registrationRequest is an RFC 7591 client registration request.
type registrationRequest struct {
	ClientName              string   `json:"client_name"`
	RedirectURIs            []string `json:"redirect_uris"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	ApplicationType         string   `json:"application_type"`
	ClientURI               string   `json:"client_uri,omitempty"`
}

type registrationResponse struct {
	ClientID                string `json:"client_id"`
	ClientSecret            string `json:"client_secret"`
	TokenEndpointAuthMethod string `json:"token_endpoint_auth_method"`
}

// register registers a native client with redirectURI at the server's
// registration endpoint (RFC 7591). It asks to be a public client ("none")
// when the server allows it, else for the first secret method it takes.
func register(ctx context.Context, hc *http.Client, m *ServerMetadata, name, redirectURI string) (*Client, error) {
	method := AuthNone
	if len(m.TokenEndpointAuthMethodsSupported) > 0 && !slices.Contains(m.TokenEndpointAuthMethodsSupported, AuthNone) {
		method = authMethodFor(true, m.TokenEndpointAuthMethodsSupported)
	}
	if err := urlpolicy.Secure(m.RegistrationEndpoint); err != nil {
		return nil, &Error{Step: "registration", Reason: "refusing to register at " + m.RegistrationEndpoint, Err: err}
	}
	body, _ := json.Marshal(registrationRequest{
		ClientName: name, RedirectURIs: []string{redirectURI},
		GrantTypes: []string{grantCode, grantRenew}, ResponseTypes: []string{"code"},
		TokenEndpointAuthMethod: method, ApplicationType: "native",
		ClientURI: "https://github.com/mcptui/mcptui",
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return nil, &Error{Step: "registration", Reason: "bad registration endpoint " + m.RegistrationEndpoint, Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, &Error{Step: "registration", Reason: "POST " + m.RegistrationEndpoint, Err: err}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxMetadataBytes))
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		return nil, &Error{Step: "registration",
			Reason: fmt.Sprintf("%s answered %d %s%s", m.RegistrationEndpoint, resp.StatusCode, http.StatusText(resp.StatusCode), oauthErrorText(raw))}
	}
	var r registrationResponse
	if err := json.Unmarshal(raw, &r); err != nil || r.ClientID == "" {
		return nil, &Error{Step: "registration", Reason: m.RegistrationEndpoint + " gave no client_id", Err: err}
	}
	c := &Client{Issuer: m.Issuer, ID: r.ClientID, Secret: r.ClientSecret, How: "registered"}
	switch {
	case r.TokenEndpointAuthMethod != "":
		c.AuthMethod = r.TokenEndpointAuthMethod
	case r.ClientSecret != "":
		c.AuthMethod = authMethodFor(true, m.TokenEndpointAuthMethodsSupported)
	default:
		c.AuthMethod = AuthNone
	}
	return c, nil
}

// oauthError is an OAuth error response's body.
type oauthError struct {
	Error       string `json:"error"`
	Description string `json:"error_description"`
}

// oauthErrorText is ": error (description)" of an OAuth error body, or "".
func oauthErrorText(raw []byte) string {
	var e oauthError
	if json.Unmarshal(raw, &e) != nil || e.Error == "" {
		return ""
	}
	s := ": " + e.Error
	if e.Description != "" {
		s += " (" + e.Description + ")"
	}
	return s
}
