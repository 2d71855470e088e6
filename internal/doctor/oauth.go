package doctor

import (
	"errors"

	"github.com/mcptui/mcptui/httpconn/oauth"
)

// authFixes are the fixes for a failed OAuth step, by oauth.Error.Step.
var authFixes = map[string]string{
	"resource metadata": "the server's OAuth protected resource metadata (RFC 9728) is missing or does not name this server: fix it on the server, or pass a token with --bearer TOKEN",
	"server metadata":   "the authorization server's metadata (RFC 8414 or OpenID discovery) is missing or not trustworthy: fix it there, or pass a token with --bearer TOKEN",
	"registration":      "register mcptui with the authorization server (redirect URI http://127.0.0.1:PORT/callback, with --redirect-port PORT) and pass --client-id (and --client-secret)",
	"authorization":     "open the URL mcptui printed (or give --browser), sign in and allow mcptui; the redirect must reach 127.0.0.1 on this machine",
	"token":             "the token endpoint refused mcptui's client: check --client-id and --client-secret, or forget a stale kept token with mcptui logout URL",
}

// authFailure explains an OAuth authorization that failed, or returns
// false when err is not one.
func authFailure(err error) (Diagnosis, bool) {
	var oe *oauth.Error
	if !errors.As(err, &oe) {
		return Diagnosis{}, false
	}
	fix := authFixes[oe.Step]
	if fix == "" {
		fix = "run with --verbose to see each step of the authorization"
	}
	return Diagnosis{Kind: KindHTTPAuth, Severity: Error,
		Summary: "the server wants OAuth authorization, and it failed at the " + oe.Step + " step: " + clip(oe.Reason),
		Fix:     fix}, true
}
