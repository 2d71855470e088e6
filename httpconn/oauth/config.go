package oauth

import (
	"net/http"
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
	// nil means one with TLS verified. Either way a redirect to another
	// origin is refused (internal/urlpolicy) and each request is bounded
	// by RequestTimeout when the client sets no Timeout of its own.
	HTTPClient *http.Client
	// RequestTimeout bounds each request of an authorization (metadata,
	// registration, token) and the preflight GET's wait for the MCP
	// server's answer; 0 means DefaultRequestTimeout. mcptui sets it
	// from --timeout.
	RequestTimeout time.Duration
	// LoginTimeout bounds the wait for the browser's redirect; 0 means 5
	// minutes.
	LoginTimeout time.Duration
	// MaxAuthorizations bounds the authorizations for insufficient scope
	// in one Transport's life (after the first); 0 means 2.
	MaxAuthorizations int
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// DefaultRequestTimeout is Config.RequestTimeout's default.
const DefaultRequestTimeout = 30 * time.Second

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
