package doctor

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"syscall"

	"github.com/mcptui/mcptui/httpconn"
)

// Kinds of Diagnosis for HTTP servers.
const (
	KindHTTPRefused      = "http-refused"
	KindHTTPUnreachable  = "http-unreachable"
	KindHTTPTLS          = "http-tls"
	KindHTTPUnauthorized = "http-unauthorized"
	KindHTTPNotFound     = "http-not-found"
	KindHTTPStatus       = "http-status"
	// KindHTTPAuth is an OAuth authorization that failed at one of its
	// steps.
	KindHTTPAuth    = "http-auth"
	KindHTTPSSE     = "http-sse"
	KindHTTPSession = "http-session-expired"
)

// httpFailure explains a failed connection to an HTTP server, or returns
// false when err is not about HTTP itself (then the protocol's diagnoses
// apply).
func httpFailure(opts Options, err error) (Diagnosis, bool) {
	// First: a refused connection in an OAuth step is the authorization
	// server's, not the MCP server's.
	if d, ok := authFailure(err); ok {
		return d, true
	}
	u, _ := url.Parse(opts.Command)
	host := opts.Command
	if u != nil {
		host = u.Host
	}
	var se *httpconn.StatusError
	var unknownAuthority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var certInvalid x509.CertificateInvalidError
	var recordHeader tls.RecordHeaderError
	var dnsErr *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return Diagnosis{Kind: KindHTTPRefused, Severity: Error,
			Summary: fmt.Sprintf("nothing accepts connections at %s: the connection was refused", host),
			Fix:     "start the server, and check the URL's host and port against the address it says it listens on"}, true
	case errors.As(err, &dnsErr):
		return Diagnosis{Kind: KindHTTPUnreachable, Severity: Error,
			Summary: fmt.Sprintf("the host name %s does not resolve: %v", dnsErr.Name, dnsErr.Err),
			Fix:     "check the URL's host name"}, true
	case errors.As(err, &unknownAuthority), errors.As(err, &hostname), errors.As(err, &certInvalid):
		return Diagnosis{Kind: KindHTTPTLS, Severity: Error,
			Summary: fmt.Sprintf("the server's TLS certificate is not trusted: %v", unwrapURL(err)),
			Fix:     "use the host name the certificate names, or add its CA to the system's trust store (mcptui always verifies TLS)"}, true
	case errors.As(err, &recordHeader):
		return Diagnosis{Kind: KindHTTPTLS, Severity: Error,
			Summary: "the server does not speak TLS at this address",
			Fix:     "use http:// instead of https:// (or the server's TLS port)"}, true
	case errors.Is(err, httpconn.ErrSessionExpired):
		return Diagnosis{Kind: KindHTTPSession, Severity: Error,
			Summary: "the server forgot the session it had just given (404 for its Mcp-Session-Id), even after a fresh initialize",
			Fix:     "keep sessions where every request reaches them: one server process, or sticky sessions behind a load balancer; or run stateless (no Mcp-Session-Id)"}, true
	case errors.As(err, &se):
		var fe *httpconn.FallbackError
		if !errors.As(err, &fe) {
			fe = nil
		}
		return statusDiagnosis(opts, se, fe), true
	}
	return Diagnosis{}, false
}

// statusDiagnosis explains an HTTP error status.
func statusDiagnosis(opts Options, se *httpconn.StatusError, fe *httpconn.FallbackError) Diagnosis {
	_, authGiven := opts.Header["Authorization"]
	fellBack := ""
	if fe != nil {
		fellBack = "; opened as a 2024-11-05 HTTP+SSE endpoint instead, it failed too: " + clip(fe.Err.Error())
	}
	switch se.Status {
	case http.StatusUnauthorized, http.StatusForbidden:
		d := Diagnosis{Kind: KindHTTPUnauthorized, Severity: Error,
			Summary: fmt.Sprintf("the server answered %d %s: it wants authorization", se.Status, http.StatusText(se.Status))}
		if challenge := se.Header.Get("WWW-Authenticate"); challenge != "" {
			d.Summary += " (WWW-Authenticate: " + clip(challenge) + ")"
		}
		if authGiven {
			d.Fix = "the Authorization header given was refused: check the token, its expiry and its scopes"
		} else {
			d.Fix = "let mcptui authorize with OAuth (leave out --no-oauth), or pass a token from the server's provider with --bearer TOKEN"
		}
		return d
	case http.StatusNotFound:
		return Diagnosis{Kind: KindHTTPNotFound, Severity: Error,
			Summary: "the server answered 404 Not Found: there is no MCP endpoint at this path" + fellBack,
			Fix:     "check the URL's path: Streamable HTTP servers usually serve /mcp, 2024-11-05 HTTP+SSE servers /sse"}
	case http.StatusMethodNotAllowed:
		return Diagnosis{Kind: KindHTTPStatus, Severity: Error,
			Summary: "the server answered 405 Method Not Allowed to a POST: this URL is not a Streamable HTTP endpoint" + fellBack,
			Fix:     "check the URL's path: Streamable HTTP servers usually serve /mcp, 2024-11-05 HTTP+SSE servers /sse"}
	}
	return Diagnosis{Kind: KindHTTPStatus, Severity: Error,
		Summary: "the handshake failed: " + clip(se.Error()),
		Fix:     "look at the server's logs for this request; mcptui's --verbose shows each HTTP exchange"}
}

// unwrapURL drops url.Error's "Post URL:" prefix.
func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
