package oauth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/urlpolicy"
)

// Token is an access token for one resource, with what is needed to renew
// it.
type Token struct {
	AccessToken  string    `json:"access_token"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	// Scopes are the scopes asked for (or granted, when the server said).
	Scopes []string `json:"scopes,omitempty"`
	// Resource is the RFC 8707 resource indicator it was asked for ("" on
	// 2025-03-26 servers).
	Resource string `json:"resource,omitempty"`
	// Client is the client that got it, at its authorization server.
	Client Client `json:"client"`
	// TokenEndpoint is where it is refreshed.
	TokenEndpoint string `json:"token_endpoint"`
}

// expiryMargin renews a token this long before it expires.
const expiryMargin = 30 * time.Second

// Expired reports whether the token is past (or near) its expiry at now.
func (t *Token) Expired(now time.Time) bool {
	return !t.Expiry.IsZero() && !now.Before(t.Expiry.Add(-expiryMargin))
}

// tokenResponse is RFC 6749 §5.1's.
type tokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
	RefreshToken string `json:"refresh_token"`
	Scope        string `json:"scope"`
}

// requestToken POSTs form to the token endpoint with the client's
// authentication and returns the new token.
func requestToken(ctx context.Context, hc *http.Client, endpoint string, c Client, form url.Values, now func() time.Time) (*Token, error) {
	switch c.AuthMethod {
	case AuthBasic:
	case AuthPost:
		form.Set("client_id", c.ID)
		form.Set("client_secret", c.Secret)
	default:
		form.Set("client_id", c.ID)
	}
	if err := urlpolicy.Secure(endpoint); err != nil {
		return nil, &Error{Step: "token", Reason: "refusing to send the grant to " + endpoint, Err: err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, &Error{Step: "token", Reason: "bad token endpoint " + endpoint, Err: err}
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if c.AuthMethod == AuthBasic {
		// RFC 6749 §2.3.1: each part form-encoded, then Basic.
		cred := url.QueryEscape(c.ID) + ":" + url.QueryEscape(c.Secret)
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(cred)))
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, &Error{Step: "token", Reason: "POST " + endpoint, Err: err}
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxMetadataBytes))
	if resp.StatusCode != http.StatusOK {
		return nil, &Error{Step: "token", Reason: fmt.Sprintf("%s answered %d %s%s", endpoint, resp.StatusCode, http.StatusText(resp.StatusCode), oauthErrorText(raw))}
	}
	var r tokenResponse
	if err := json.Unmarshal(raw, &r); err != nil || r.AccessToken == "" {
		return nil, &Error{Step: "token", Reason: endpoint + " gave no access_token", Err: err}
	}
	if r.TokenType != "" && !strings.EqualFold(r.TokenType, "Bearer") {
		return nil, &Error{Step: "token", Reason: fmt.Sprintf("%s gave a %q token; mcptui sends Bearer tokens only", endpoint, r.TokenType)}
	}
	t := &Token{AccessToken: r.AccessToken, RefreshToken: r.RefreshToken, Client: c, TokenEndpoint: endpoint,
		Resource: form.Get("resource")}
	if r.ExpiresIn > 0 {
		t.Expiry = now().Add(time.Duration(r.ExpiresIn) * time.Second)
	}
	if r.Scope != "" {
		t.Scopes = strings.Fields(r.Scope)
	} else {
		t.Scopes = strings.Fields(form.Get("scope"))
	}
	return t, nil
}

// refresh renews t with its refresh token (RFC 6749 §6); the new token
// keeps the old refresh token when the server sends none.
func refresh(ctx context.Context, hc *http.Client, t *Token, now func() time.Time) (*Token, error) {
	form := url.Values{"grant_type": {grantRenew}, "refresh_token": {t.RefreshToken}}
	if t.Resource != "" {
		form.Set("resource", t.Resource)
	}
	if len(t.Scopes) > 0 {
		form.Set("scope", strings.Join(t.Scopes, " "))
	}
	n, err := requestToken(ctx, hc, t.TokenEndpoint, t.Client, form, now)
	if err != nil {
		return nil, err
	}
	if n.RefreshToken == "" {
		n.RefreshToken = t.RefreshToken
	}
	return n, nil
}
