package cli

import (
	"crypto/tls"
	"flag"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/mcptui/mcptui/httpconn/oauth"
	"github.com/mcptui/mcptui/internal/userdir"
	"github.com/mcptui/mcptui/mcp"
)

// AuthConfig is how mcptui authorizes itself at an HTTP server (OAuth 2.1).
type AuthConfig struct {
	// ClientID and ClientSecret are a client registered beforehand
	// (--client-id, --client-secret or $MCPTUI_CLIENT_SECRET).
	ClientID, ClientSecret string
	// ClientMetadataURL is the https URL of mcptui's Client ID Metadata
	// Document (--client-metadata-url).
	ClientMetadataURL string
	// Scopes are asked for besides the server's (--scope, repeatable or
	// space-separated).
	Scopes []string
	// Bearer is a ready access token (--bearer): sent as the
	// Authorization header, with no OAuth flow.
	Bearer string
	// KeepToken keeps the tokens in a file of mode 0600 under the XDG
	// state directory (--keep-token); otherwise they live in memory.
	KeepToken bool
	// Browser opens the authorization URL in the browser without asking
	// (--browser); otherwise mcptui prints it.
	Browser bool
	// RedirectPort is the loopback redirect listener's port
	// (--redirect-port; 0: any free port).
	RedirectPort int
	// ClientCredentials uses the client credentials grant
	// (--client-credentials; machine to machine, needs --client-id and
	// --client-secret).
	ClientCredentials bool
	// NoOAuth turns the flow off (--no-oauth): a 401 is an error.
	NoOAuth bool
	// LoginTimeout bounds the wait for the browser's redirect
	// (--login-timeout; 0: 5 minutes).
	LoginTimeout time.Duration
}

// authFlags binds AuthConfig's flags.
func authFlags(fs *flag.FlagSet, cfg *Config) {
	a := &cfg.Auth
	fs.StringVar(&a.ClientID, "client-id", "", "")
	fs.StringVar(&a.ClientSecret, "client-secret", "", "")
	fs.StringVar(&a.ClientMetadataURL, "client-metadata-url", "", "")
	fs.Func("scope", "", func(s string) error {
		a.Scopes = append(a.Scopes, strings.Fields(s)...)
		return nil
	})
	fs.StringVar(&a.Bearer, "bearer", "", "")
	fs.BoolVar(&a.KeepToken, "keep-token", false, "")
	fs.BoolVar(&a.Browser, "browser", false, "")
	fs.IntVar(&a.RedirectPort, "redirect-port", 0, "")
	fs.BoolVar(&a.NoOAuth, "no-oauth", false, "")
	fs.BoolVar(&a.ClientCredentials, "client-credentials", false, "")
	fs.DurationVar(&a.LoginTimeout, "login-timeout", 0, "")
}

// checkAuth rejects authorization flags where they mean nothing and turns
// --bearer into its header.
func (cfg *Config) checkAuth() error {
	a := &cfg.Auth
	if a.ClientSecret == "" {
		a.ClientSecret = os.Getenv("MCPTUI_CLIENT_SECRET")
	}
	given := a.ClientID != "" || a.ClientMetadataURL != "" || len(a.Scopes) > 0 || a.Bearer != "" || a.KeepToken || a.Browser || a.RedirectPort != 0 || a.NoOAuth || a.LoginTimeout != 0 || a.ClientCredentials
	switch {
	case cfg.Command != "" && !cfg.IsURL() && given:
		return usageError("--client-id, --scope, --bearer and the other authorization flags are for HTTP servers; %s is a command", cfg.Command)
	case a.ClientCredentials && (a.ClientID == "" || a.ClientSecret == ""):
		return usageError("--client-credentials needs --client-id and --client-secret (or $MCPTUI_CLIENT_SECRET)")
	case a.LoginTimeout < 0:
		return usageError("--login-timeout must not be negative (0: 5 minutes)")
	case a.RedirectPort < 0 || a.RedirectPort > 65535:
		return usageError("--redirect-port must be a port number (0: any free one)")
	case a.Bearer != "" && cfg.hasAuthorization():
		return usageError("--bearer and --header 'Authorization: …' both set the Authorization header: give one")
	case strings.ContainsAny(a.Bearer, " \t\r\n"):
		return usageError("--bearer takes the token alone, without spaces (mcptui adds 'Bearer ')")
	case a.ClientMetadataURL != "" && !strings.HasPrefix(a.ClientMetadataURL, "https://"):
		return usageError("--client-metadata-url must be an https URL (the authorization server fetches it)")
	}
	if a.Bearer != "" {
		cfg.Headers = append(cfg.Headers, Header{Name: "Authorization", Value: "Bearer " + a.Bearer})
		a.Bearer = ""
	}
	return nil
}

func (cfg *Config) hasAuthorization() bool {
	for _, h := range cfg.Headers {
		if http.CanonicalHeaderKey(h.Name) == "Authorization" {
			return true
		}
	}
	return false
}

// UsesOAuth reports whether the server gets the OAuth flow: an HTTP server
// without an Authorization header of the user's and without --no-oauth.
func (cfg *Config) UsesOAuth() bool {
	return cfg.IsURL() && !cfg.Auth.NoOAuth && !cfg.hasAuthorization()
}

// TokenStore is where tokens are kept: a file per server under the XDG
// state directory with --keep-token, else memory.
func (cfg *Config) TokenStore() (oauth.Store, error) {
	if !cfg.Auth.KeepToken {
		return oauth.NewMemoryStore(), nil
	}
	dir, err := oauth.DefaultTokenDir()
	if err != nil {
		return nil, err
	}
	// Refused before anything is sent: a token kept where someone else can
	// write could be read, or one they put there used.
	if err := userdir.CheckPath(dir); err != nil {
		return nil, fmt.Errorf("--keep-token: the token directory is not safe: %w", err)
	}
	return oauth.FileStore{Dir: dir}, nil
}

// OAuthConfig is the oauth.Config of the flags; the caller adds how the
// user is reached (OnStep, OpenURL).
func (cfg *Config) OAuthConfig() (oauth.Config, error) {
	store, err := cfg.TokenStore()
	if err != nil {
		return oauth.Config{}, err
	}
	a := cfg.Auth
	return oauth.Config{
		ClientID: a.ClientID, ClientSecret: a.ClientSecret, ClientMetadataURL: a.ClientMetadataURL,
		ClientName: "mcptui", Scopes: a.Scopes, RedirectPort: a.RedirectPort, Store: store, LoginTimeout: a.LoginTimeout, ClientCredentials: a.ClientCredentials,
		// Each request of the flow, and the preflight GET, waits no longer
		// than a request does (--timeout).
		RequestTimeout: cfg.Timeout,
	}, nil
}

// logoutWord is mcptui logout's word for every kept token.
const logoutWord = "all"

// checkLogout checks mcptui logout's word: a server URL or "all".
func (cfg *Config) checkLogout() error {
	if cfg.Target != logoutWord && !mcp.IsURL(cfg.Target) {
		return usageError("logout: want a server URL (http:// or https://) or %q, got %q", logoutWord, cfg.Target)
	}
	return nil
}

// LogoutAll reports whether mcptui logout forgets every kept token.
func (cfg *Config) LogoutAll() bool { return cfg.Target == logoutWord }

// HTTPClient is the HTTP client for the server with the OAuth flow in it,
// reporting each step to onStep (nil: the steps become lines of the
// connection's log, pane 5 in the inspector); nil when the server does
// not get the flow (see UsesOAuth). Nothing is sent until the first
// request.
func (cfg *Config) HTTPClient(onStep func(oauth.Step)) (*http.Client, error) {
	if !cfg.UsesOAuth() {
		return nil, nil
	}
	oc, err := cfg.OAuthConfig()
	if err != nil {
		return nil, err
	}
	oc.OnStep = onStep
	if cfg.Auth.Browser {
		oc.OpenURL = oauth.OpenBrowser
	}
	base := http.DefaultTransport.(*http.Transport).Clone()
	if cfg.Insecure {
		base.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // asked for with --insecure
	}
	t, err := oauth.New(base, cfg.Command, oc)
	if err != nil {
		return nil, err
	}
	return &http.Client{Transport: t}, nil
}
