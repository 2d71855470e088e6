package httpconn

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/urlpolicy"
)

// Header names of the transport.
const (
	HeaderSessionID       = "Mcp-Session-Id"
	HeaderProtocolVersion = "MCP-Protocol-Version"
	HeaderLastEventID     = "Last-Event-ID"
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
)

const accept = "application/json, text/event-stream"

// Conn is a Streamable HTTP connection to one MCP endpoint. Its methods may
// be called from many goroutines at once.
type Conn struct {
	url    string
	opts   Options
	client *http.Client
	secret map[string]bool // canonical header names whose values are redacted

	ctx    context.Context // the connection's life; cancelled at Close
	cancel context.CancelFunc
	nextID atomic.Int64
	sem    chan struct{}
	wg     sync.WaitGroup // streams and handlers

	mu        sync.Mutex
	pending   map[int64]*pendingCall
	subs      map[int64]*listenSub          // open subscriptions by listen id
	handlers  map[string]context.CancelFunc // server request id (rpccall.MatchKey) → cancel
	sessionID string
	version   string
	getOpen   bool
	mode      Mode // Auto until the transport is known
	// toolHeaders are the x-mcp-header annotations of the valid tools
	// tools/list answers named.
	toolHeaders map[string][]ParamHeader
	legacy      *legacyStream
	stopErr     *conn.Error
	done        chan struct{}

	// exchanges numbers the HTTP exchanges (Exchange.ID).
	exchanges atomic.Uint64
}

// Dial makes a connection to the endpoint rawURL (http or https). Nothing is
// sent until the first Call or Notify; ctx owns the connection: when it is
// done the connection closes.
func Dial(ctx context.Context, rawURL string, opts Options) (*Conn, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &conn.Error{Code: conn.CodeInvalidParams, Message: "not an http(s) URL: " + rawURL, Cause: err}
	}
	switch {
	case opts.MaxMessageBytes == 0:
		opts.MaxMessageBytes = conn.DefaultMaxLineBytes
	case opts.MaxMessageBytes < 0:
		return nil, &conn.Error{Code: conn.CodeInvalidParams, Message: "MaxMessageBytes must not be negative"}
	}
	switch {
	case opts.MaxServerRequests == 0:
		opts.MaxServerRequests = conn.DefaultMaxServerRequests
	case opts.MaxServerRequests < 0:
		return nil, &conn.Error{Code: conn.CodeInvalidParams, Message: "MaxServerRequests must not be negative"}
	}
	if opts.MaxResumes <= 0 {
		opts.MaxResumes = DefaultMaxResumes
	}
	if opts.Mode < Auto || opts.Mode > SSE {
		return nil, &conn.Error{Code: conn.CodeInvalidParams, Message: fmt.Sprintf("unknown Mode %d", opts.Mode)}
	}
	c := &Conn{
		url: u.String(), opts: opts, client: opts.Client, mode: opts.Mode,
		secret:   map[string]bool{"Authorization": true, "Proxy-Authorization": true, "Cookie": true, "Set-Cookie": true},
		sem:      make(chan struct{}, opts.MaxServerRequests),
		pending:  map[int64]*pendingCall{},
		subs:     map[int64]*listenSub{},
		handlers: map[string]context.CancelFunc{},
		done:     make(chan struct{}),
	}
	if c.client == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		if opts.Insecure {
			t.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // asked for with --insecure
		}
		c.client = &http.Client{Transport: t}
	}
	// The one outbound policy: the caller's headers, a Bearer token and
	// the bodies go to the endpoint's origin only; a redirect to another
	// origin is refused (urlpolicy says why), within it followed.
	c.client = urlpolicy.Client(c.client)
	for name := range opts.Header {
		c.secret[http.CanonicalHeaderKey(name)] = true
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	go func() {
		select {
		case <-ctx.Done():
			_ = c.CloseWithError(context.Cause(ctx))
		case <-c.done:
		}
	}()
	return c, nil
}

// URL is the endpoint.
func (c *Conn) URL() string { return c.url }

// Mode is the transport in use: Streamable or SSE once known, Auto while
// an Auto connection has not yet had an answer that tells.
func (c *Conn) Mode() Mode {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.mode
}

// SessionID is the session id the server gave, or "".
func (c *Conn) SessionID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessionID
}

// PID is 0: there is no process.
func (c *Conn) PID() int { return 0 }

// Done is closed once the connection has stopped.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err is the -32000 error the connection stopped with, or nil.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopErr == nil {
		return nil
	}
	return c.stopErr
}

// Close ends the session: a DELETE when the server gave a session id, then
// every call still waiting fails with -32000.
func (c *Conn) Close() error { return c.Shutdown(5 * time.Second) }

// CloseWithError closes as Close does; later failures carry reason as Cause.
func (c *Conn) CloseWithError(reason error) error { return c.stop(reason, 5*time.Second) }

// Shutdown closes, giving the DELETE at most grace.
func (c *Conn) Shutdown(grace time.Duration) error { return c.stop(nil, grace) }

var errClosed = errors.New("closed by the client")

// stopping reports whether Close (or CloseWithError, Shutdown) began.
func (c *Conn) stopping() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopErr != nil
}

func (c *Conn) stop(reason error, grace time.Duration) error {
	c.mu.Lock()
	if c.stopErr != nil {
		c.mu.Unlock()
		return nil
	}
	if reason == nil {
		reason = errClosed
	}
	c.stopErr = &conn.Error{Code: conn.CodeConnection, Message: "The HTTP connection is closed", Cause: reason}
	pending := c.pending
	c.pending = map[int64]*pendingCall{}
	sid := c.sessionID
	c.mu.Unlock()
	for _, p := range pending {
		p.Finish(nil, c.stopErr)
	}
	c.endSubs(c.stopErr)
	c.cancel()
	var err error
	if sid != "" {
		ctx, cancel := context.WithTimeout(context.Background(), grace)
		var resp *http.Response
		resp, err = c.do(ctx, http.MethodDelete, c.url, nil, nil)
		cancel()
		if resp != nil {
			_ = resp.Body.Close()
			// 405: the server does not let clients end sessions; fine.
			if resp.StatusCode >= 300 && resp.StatusCode != http.StatusMethodNotAllowed {
				err = fmt.Errorf("httpconn: DELETE %s: %s", c.url, resp.Status)
			}
		}
	}
	c.wg.Wait()
	close(c.done)
	return err
}

// stopped returns the stop error, or nil.
func (c *Conn) stopped() *conn.Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stopErr
}

// do sends one HTTP request to target with the transport's headers and
// reports the exchange. extra headers are added last.
func (c *Conn) do(ctx context.Context, method, target string, body []byte, extra http.Header) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return nil, fmt.Errorf("httpconn: %s %s: %w", method, target, err)
	}
	for name, values := range c.opts.Header {
		req.Header[http.CanonicalHeaderKey(name)] = append([]string(nil), values...)
	}
	c.mu.Lock()
	sid, version, mode := c.sessionID, c.version, c.mode
	c.mu.Unlock()
	if sid != "" {
		req.Header.Set(HeaderSessionID, sid)
	}
	if version != "" && mode != SSE { // 2024-11-05 has no such header
		req.Header.Set(HeaderProtocolVersion, version)
	}
	switch method {
	case http.MethodPost:
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", accept)
	case http.MethodGet:
		req.Header.Set("Accept", "text/event-stream")
	}
	for name, values := range extra {
		req.Header[name] = values
	}
	start := time.Now()
	exID := c.exchanges.Add(1)
	resp, err := c.client.Do(req)
	if resp != nil {
		c.watchBody(resp, exID)
	}
	if c.opts.OnExchange != nil {
		ex := Exchange{ID: exID, Time: start, Method: method, URL: target, Duration: time.Since(start),
			RequestHeader: c.redact(req.Header), Err: err, RequestBytes: len(body), Body: body, ResponseBytes: -1,
			Transport: mode.transportName()}
		if resp != nil {
			ex.Status, ex.ResponseHeader, ex.ResponseBytes = resp.StatusCode, c.redact(resp.Header), resp.ContentLength
		}
		c.opts.OnExchange(ex)
	}
	if err != nil {
		return nil, fmt.Errorf("httpconn: %s %s: %w", method, target, err)
	}
	if id := resp.Header.Get(HeaderSessionID); id != "" {
		c.mu.Lock()
		if c.sessionID == "" {
			c.sessionID = id
		}
		c.mu.Unlock()
	}
	return resp, nil
}

// redact copies h with secret values replaced.
func (c *Conn) redact(h http.Header) http.Header {
	out := h.Clone()
	for name := range out {
		if c.secret[http.CanonicalHeaderKey(name)] {
			out[name] = []string{Redacted}
		}
	}
	return out
}

// StatusError is an HTTP answer that is not a success.
type StatusError struct {
	Method string
	Status int
	// Body is the start of the answer's body (at most 1 KiB).
	Body string
	// Header is the answer's headers, redacted.
	Header http.Header
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("HTTP %s answered %d %s", e.Method, e.Status, http.StatusText(e.Status))
	if b := strings.TrimSpace(e.Body); b != "" {
		s += ": " + b
	}
	return s
}

// statusError reads the start of a failed answer's body and closes it.
func (c *Conn) statusError(method string, resp *http.Response) *StatusError {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
	_ = resp.Body.Close()
	return &StatusError{Method: method, Status: resp.StatusCode, Body: strings.ToValidUTF8(string(b), "?"), Header: c.redact(resp.Header)}
}

// connError is a -32000 with cause.
func connError(msg string, cause error) *conn.Error {
	return &conn.Error{Code: conn.CodeConnection, Message: msg, Cause: cause}
}

// observe reports a message event.
func (c *Conn) observe(kind conn.EventKind, line []byte, size int, err error) {
	if c.opts.Observer != nil {
		c.opts.Observer(conn.Event{Time: time.Now(), Kind: kind, Line: line, Size: size, Err: err})
	}
}

// observeHead reports a discarded message with the start of it that was
// kept (conn.Event.Head), when it was over the limit.
func (c *Conn) observeHead(line, head []byte, size int, err error) {
	if c.opts.Observer != nil {
		c.opts.Observer(conn.Event{Time: time.Now(), Kind: conn.Discarded, Line: line, Head: head, Size: size, Err: err})
	}
}
