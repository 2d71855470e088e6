package oauth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// callbackPath is the loopback redirect URI's path.
const callbackPath = "/callback"

// randomString is n random bytes, base64url without padding.
func randomString(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return base64.RawURLEncoding.EncodeToString(b)
}

// pkceChallenge is the S256 code challenge of verifier (RFC 7636 §4.2).
func pkceChallenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// callbackResult is what the authorization server redirected the browser
// to the loopback listener with.
type callbackResult struct {
	query url.Values
}

// loopback is the redirect listener on 127.0.0.1.
type loopback struct {
	ln     net.Listener
	srv    *http.Server
	result chan callbackResult
}

// listenLoopback listens on 127.0.0.1:port (0: any free port).
func listenLoopback(port int) (*loopback, error) {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, &Error{Step: "authorization", Reason: "listening for the redirect on 127.0.0.1", Err: err}
	}
	l := &loopback{ln: ln, result: make(chan callbackResult, 1)}
	mux := http.NewServeMux()
	mux.HandleFunc(callbackPath, func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		select {
		case l.result <- callbackResult{query: q}:
		default: // a second redirect: the first one counts
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if e := q.Get("error"); e != "" {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, "<!doctype html><title>mcptui</title><p>mcptui: the authorization failed: %s. You can close this tab.</p>", html.EscapeString(e))
			return
		}
		fmt.Fprint(w, "<!doctype html><title>mcptui</title><p>mcptui received the authorization; you can close this tab.</p>")
	})
	l.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = l.srv.Serve(ln) }()
	return l, nil
}

func (l *loopback) port() int { return l.ln.Addr().(*net.TCPAddr).Port }
func (l *loopback) redirectURI() string {
	return fmt.Sprintf("http://127.0.0.1:%d%s", l.port(), callbackPath)
}

func (l *loopback) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = l.srv.Shutdown(ctx)
}

// authorizationURL is the authorization request (OAuth 2.1 §4.1.1 with
// PKCE, RFC 8707's resource when there is one).
func authorizationURL(endpoint string, c *Client, redirectURI, state, challenge, resource string, scopes []string) (string, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "", &Error{Step: "authorization", Reason: "bad authorization endpoint " + endpoint, Err: err}
	}
	q := u.Query()
	q.Set("response_type", "code")
	q.Set("client_id", c.ID)
	q.Set("redirect_uri", redirectURI)
	q.Set("state", state)
	q.Set("code_challenge", challenge)
	q.Set("code_challenge_method", "S256")
	if len(scopes) > 0 {
		q.Set("scope", strings.Join(scopes, " "))
	}
	if resource != "" {
		q.Set("resource", resource)
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// checkPKCE refuses a server whose metadata does not offer S256 (2025-11-25:
// clients MUST refuse to proceed); the 2025-03-26 default endpoints, with no
// metadata to say, are taken to.
func checkPKCE(m *ServerMetadata) error {
	if m.URL == "" || slices.Contains(m.CodeChallengeMethodsSupported, "S256") {
		return nil
	}
	if len(m.CodeChallengeMethodsSupported) == 0 {
		return &Error{Step: "server metadata", Reason: m.Issuer + " does not say it supports PKCE (no code_challenge_methods_supported): refusing to authorize without it"}
	}
	return &Error{Step: "server metadata", Reason: fmt.Sprintf("%s offers PKCE %s but not S256: refusing to authorize", m.Issuer, strings.Join(m.CodeChallengeMethodsSupported, ", "))}
}

// checkCallback validates the authorization response: state, error and
// RFC 9207's iss (compared to the issuer exactly; required when the
// server advertises it) — and returns the code.
func checkCallback(q url.Values, state string, m *ServerMetadata) (string, error) {
	if q.Get("state") != state {
		return "", &Error{Step: "authorization", Reason: "the redirect's state does not match the request's: ignoring it (it may be forged)"}
	}
	iss, hasIss := q["iss"]
	switch {
	case hasIss && (len(iss) != 1 || iss[0] != m.Issuer):
		return "", &Error{Step: "authorization", Reason: fmt.Sprintf("the redirect names the issuer %q, not %q: refusing it (RFC 9207)", q.Get("iss"), m.Issuer)}
	case !hasIss && m.IssParameterSupported:
		return "", &Error{Step: "authorization", Reason: m.Issuer + " says it names itself in redirects (iss) but this one does not: refusing it (RFC 9207)"}
	}
	if e := q.Get("error"); e != "" {
		reason := "the authorization server refused: " + e
		if d := q.Get("error_description"); d != "" {
			reason += " (" + d + ")"
		}
		return "", &Error{Step: "authorization", Reason: reason}
	}
	code := q.Get("code")
	if code == "" {
		return "", &Error{Step: "authorization", Reason: "the redirect carries no code"}
	}
	return code, nil
}

// errNoRegistration is why there is no client.
var errNoRegistration = errors.New("no way to get a client")
