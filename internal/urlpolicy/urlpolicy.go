// Package urlpolicy is mcptui's one policy for URLs it did not choose: what
// may be sent where (every HTTP request: MCP, OAuth metadata, registration,
// token; their redirects), which authorization-server endpoints may be
// used, and which URLs may be handed to a browser. httpconn, httpconn/oauth
// and the URL-elicitation screen all decide through it.
//
// The rules:
//   - An origin is scheme, host and port (RFC 6454), the default port
//     made explicit: http://h and http://h:80 are one origin,
//     http://h:8080 another.
//   - A request's headers, credentials and body are for the origin they
//     were given for: a redirect to another origin is refused, with both
//     origins named; a redirect within the origin is followed, without a
//     Referer.
//   - An endpoint that receives secrets (an authorization server's) must
//     be https, or http to a loopback host.
//   - Only https URLs, and http URLs to a loopback host, are opened in a
//     browser; the sentence that offers one names the URL's own host.
package urlpolicy

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Origin is u's origin, "scheme://host:port" in lower case with the
// default port made explicit; "" when u has no http(s) scheme or no host.
func Origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	if host == "" {
		return ""
	}
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		default:
			return ""
		}
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

// SameOrigin reports whether a and b are one origin (both http(s)).
func SameOrigin(a, b *url.URL) bool {
	oa := Origin(a)
	return oa != "" && oa == Origin(b)
}

// IsLoopback reports whether host (a name or an address, without port)
// is this machine: "localhost" (and names under .localhost), 127.0.0.0/8
// or ::1.
func IsLoopback(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ErrRedirect marks a redirect refused by the policy.
var ErrRedirect = errors.New("redirect refused")

// RedirectError is a redirect to another origin, refused.
type RedirectError struct {
	From, To string // origins
	Status   int    // the redirect's status code, when known
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("the server at %s redirected to another origin, %s: refused, so that the request's headers, credentials and body go only where they were given for", e.From, e.To)
}

func (e *RedirectError) Unwrap() error { return ErrRedirect }

// maxRedirects bounds a chain of same-origin redirects (net/http's own
// bound).
const maxRedirects = 10

// CheckRedirect is an http.Client's CheckRedirect with the policy: a
// redirect stays on the first request's origin, or it is refused; the
// Referer net/http adds is dropped.
func CheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) == 0 {
		return nil
	}
	first := via[0].URL
	if !SameOrigin(first, req.URL) {
		e := &RedirectError{From: Origin(first), To: Origin(req.URL)}
		if e.To == "" {
			e.To = req.URL.Scheme + "://" + req.URL.Host
		}
		if req.Response != nil {
			e.Status = req.Response.StatusCode
		}
		return e
	}
	if len(via) >= maxRedirects {
		return fmt.Errorf("stopped after %d redirects", maxRedirects)
	}
	req.Header.Del("Referer")
	return nil
}

// Client is c (nil: a client of its own over http.DefaultTransport) with
// the policy deciding its redirects first; a CheckRedirect c had still
// runs after it. c itself is not changed.
func Client(c *http.Client) *http.Client {
	var out http.Client
	if c != nil {
		out = *c
	}
	next := out.CheckRedirect
	out.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := CheckRedirect(req, via); err != nil {
			return err
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
	return &out
}

// Secure reports why raw may not receive secrets, or nil: it must be an
// absolute https URL, or http to a loopback host (the MCP authorization
// specification's rule for authorization-server endpoints).
func Secure(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%q is not a URL: %w", raw, err)
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		if u.Host == "" {
			return fmt.Errorf("%q has no host", raw)
		}
		return nil
	case "http":
		if u.Host == "" {
			return fmt.Errorf("%q has no host", raw)
		}
		if IsLoopback(u.Hostname()) {
			return nil
		}
		return fmt.Errorf("%s is plain http to %s, not https: anyone on the network path could read what is sent there", raw, u.Hostname())
	}
	return fmt.Errorf("%q is not an https URL", raw)
}

// Openable checks a URL before it is offered to a browser and returns its
// host (for the sentence that offers it): https with a host, or http to a
// loopback host; nothing else (javascript:, file:, data:, plain http
// elsewhere) is opened.
func Openable(raw string) (host string, err error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("not a web address: %w", err)
	}
	scheme := strings.ToLower(u.Scheme)
	host = u.Hostname()
	switch {
	case scheme == "https" && host != "":
		return host, nil
	case scheme == "http" && host != "" && IsLoopback(host):
		return host, nil
	case scheme == "http" && host != "":
		return host, fmt.Errorf("plain http to %s: only https addresses (and http on this machine) are opened", host)
	case scheme == "":
		return host, errors.New("not an absolute web address: only https addresses are opened")
	case scheme != "http" && scheme != "https":
		return host, fmt.Errorf("the scheme is %s:, not a web page: only https addresses are opened", scheme)
	}
	return host, errors.New("the address has no host: only https addresses are opened")
}
