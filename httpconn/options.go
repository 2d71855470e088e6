package httpconn

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// Options configure Dial. The zero value is usable.
type Options struct {
	// Header is sent on every request (for example Authorization). Its
	// values never appear in an Exchange.
	Header http.Header
	// Client sends the requests; nil means a client of its own with TLS
	// verified and no overall timeout (streams may last). Either way a
	// redirect to another origin than the endpoint's is refused (see
	// internal/urlpolicy): the headers and bodies are the endpoint's.
	Client *http.Client
	// MaxMessageBytes is the largest JSON body or SSE event accepted; 0
	// means conn.DefaultMaxLineBytes (16 MiB), a negative value is an error.
	MaxMessageBytes int
	// OnServerRequest answers requests the server sends (on SSE streams);
	// nil answers each with -32601.
	OnServerRequest conn.Handler
	// MaxServerRequests is how many handlers may run at once; 0 means 16,
	// a negative value is an error.
	MaxServerRequests int
	// OnNotification receives server notifications nothing else claimed,
	// in arrival order per stream; it must not block.
	OnNotification func(conn.Notification)
	// Observer sees every message sent, received or discarded; it must not
	// block.
	Observer func(conn.Event)
	// OnExchange sees every HTTP exchange once its response headers came
	// (or it failed); it must not block.
	OnExchange func(Exchange)
	// OnExchangeUpdate sees what became of an exchange's response body
	// after its headers: each message it delivered and its end (see
	// ExchangeUpdate); nil leaves bodies unwatched. It must not block.
	OnExchangeUpdate func(ExchangeUpdate)
	// MaxResumes is how many times in a row a broken stream is resumed
	// with Last-Event-ID before giving up; 0 means 5.
	MaxResumes int
	// OnSessionExpired is told when the server answers 404 for the
	// session id (once per session); calls then fail with
	// ErrSessionExpired until a new initialize starts a session. It must
	// not block.
	OnSessionExpired func(sessionID string)
	// Mode chooses the transport; the zero value, Auto, is Streamable HTTP
	// with the spec's fallback to the 2024-11-05 HTTP+SSE transport.
	Mode Mode
	// Insecure skips TLS certificate verification (a client of its own
	// only; a given Client is used as it is).
	Insecure bool
}

// Mode is the HTTP transport a connection speaks.
type Mode int

const (
	// Auto is Streamable HTTP until an initialize POST is refused with
	// 400, 404 or 405; then, as the 2025-03-26 spec's backwards
	// compatibility asks, the URL is opened as a 2024-11-05 HTTP+SSE
	// endpoint (a GET whose first event names the URL to POST to).
	Auto Mode = iota
	// Streamable is Streamable HTTP only (2025-03-26 on).
	Streamable
	// SSE is the 2024-11-05 HTTP+SSE transport only: the URL is the SSE
	// stream's.
	SSE
)

// String names the mode as host configs do.
func (m Mode) String() string {
	switch m {
	case Streamable:
		return "http"
	case SSE:
		return "sse"
	}
	return "auto"
}

// DefaultMaxResumes is Options.MaxResumes's default.
const DefaultMaxResumes = 5

// DefaultRetry is the wait before resuming a stream whose server gave no
// retry field.
const DefaultRetry = time.Second

// Exchange is one HTTP request and its response's headers.
type Exchange struct {
	// ID numbers the connection's exchanges from 1 (ExchangeUpdate.ID).
	ID     uint64
	Time   time.Time // when the request was sent
	Method string    // POST, GET or DELETE
	URL    string
	// Status is the response's status code, 0 when none came.
	Status int
	// Duration is the time to the response headers (or the failure).
	Duration time.Duration
	// RequestHeader and ResponseHeader are copies with Authorization,
	// cookies and the caller's own headers redacted.
	RequestHeader  http.Header
	ResponseHeader http.Header
	// Err is why no response came.
	Err error
	// RequestBytes is the request body's size, and Body the body itself
	// (the JSON-RPC message it carried, as the Observer saw it; read only,
	// nil without one).
	RequestBytes int
	Body         []byte
	// ResponseBytes is the response's Content-Length, -1 when unknown (a
	// stream).
	ResponseBytes int64
	// Transport is the transport the exchange belongs to: "http"
	// (Streamable HTTP) or "sse" (2024-11-05 HTTP+SSE).
	Transport string
}

// Redacted replaces a secret header value.
const Redacted = "[redacted]"

// String is a one-line summary for a network log: method, status, time,
// and the session id's presence (never a header's value).
func (e Exchange) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "http %s", e.Method)
	if e.RequestHeader.Get(HeaderLastEventID) != "" {
		b.WriteString(" (resume)")
	}
	switch {
	case e.Err != nil:
		fmt.Fprintf(&b, " failed after %s: %v", e.Duration.Round(time.Microsecond), e.Err)
	default:
		fmt.Fprintf(&b, " %d %s %s", e.Status, http.StatusText(e.Status), e.Duration.Round(time.Microsecond))
		if ct := e.ResponseHeader.Get("Content-Type"); ct != "" {
			b.WriteString(" " + ct)
		}
	}
	return b.String()
}
