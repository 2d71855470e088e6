package httpconn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcptui/mcptui/conn"

	"github.com/mcptui/mcptui/internal/protocol"
)

// The 2024-11-05 HTTP+SSE transport: a GET opens the session's stream,
// whose first event, "endpoint", names the URL every message is POSTed
// to; the server answers each POST with 202 and sends its responses,
// requests and notifications on the stream. The stream is the session:
// when it ends the connection stops (this revision has no resumption).

// legacyStream is the HTTP+SSE session's stream; ready is closed once the
// endpoint is known or the stream failed before it came.
type legacyStream struct {
	ready    chan struct{}
	endpoint string
	err      error
}

// FallbackError is a Streamable HTTP initialize the server refused whose
// fallback to the 2024-11-05 HTTP+SSE transport failed too.
type FallbackError struct {
	// Refused is the initialize POST's answer.
	Refused *StatusError
	// Err is why the HTTP+SSE stream could not be used.
	Err error
}

func (e *FallbackError) Error() string {
	return fmt.Sprintf("%v; opened as a 2024-11-05 HTTP+SSE endpoint instead: %v", e.Refused, e.Err)
}

// Unwrap returns both errors, the POST's answer first.
func (e *FallbackError) Unwrap() []error { return []error{e.Refused, e.Err} }

// transportName is the Exchange.Transport of a request made in mode m.
func (m Mode) transportName() string {
	if m == SSE {
		return SSE.String()
	}
	return Streamable.String()
}

// settle makes an Auto connection Streamable HTTP: the server answered a
// POST with success.
func (c *Conn) settle() {
	c.mu.Lock()
	if c.mode == Auto {
		c.mode = Streamable
	}
	c.mu.Unlock()
}

// fallsBack reports whether an answer of status to a POST of method
// switches the connection to HTTP+SSE: an Auto connection's initialize
// refused with 400, 404 or 405, as the spec's backwards compatibility
// describes (401 and 403 are about authorization, not the transport).
func (c *Conn) fallsBack(method string, status int) bool {
	switch status {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed:
	default:
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mode != Auto || method != protocol.MethodInitialize {
		return false
	}
	c.mode = SSE
	return true
}

// postLegacy POSTs a request to the session's endpoint; its response
// comes on the stream. refused is the Streamable HTTP answer that made an
// Auto connection fall back, or nil.
func (c *Conn) postLegacy(ctx context.Context, id int64, body []byte, refused *StatusError) {
	ep, err := c.legacyEndpoint(ctx)
	if err != nil {
		if refused != nil {
			err = &FallbackError{Refused: refused, Err: err}
		}
		c.fail(id, connError("The HTTP+SSE stream could not be opened", err))
		return
	}
	resp, err := c.do(ctx, http.MethodPost, ep, body, nil)
	if err != nil {
		c.fail(id, connError("The HTTP request failed", err))
		return
	}
	if resp.StatusCode/100 != 2 {
		c.fail(id, connError("The HTTP request failed", c.statusError(http.MethodPost, resp)))
		return
	}
	if isJSON(resp) {
		_ = c.readJSON(resp) // a server that also answers on the POST
		return
	}
	drain(resp)
}

// drain reads a little of an answer that carries nothing, so the
// connection can be reused, and closes it.
func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	_ = resp.Body.Close()
}

// legacyEndpoint opens the session's stream once and returns the endpoint
// its first event named.
func (c *Conn) legacyEndpoint(ctx context.Context) (string, error) {
	c.mu.Lock()
	l := c.legacy
	start := l == nil
	if start {
		l = &legacyStream{ready: make(chan struct{})}
		c.legacy = l
	}
	c.mu.Unlock()
	if start && !c.goTracked(func() { c.runLegacy(l) }) {
		l.err = c.stopped()
		close(l.ready)
	}
	select {
	case <-l.ready:
		return l.endpoint, l.err
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
}

// errStreamEnded stops a connection whose HTTP+SSE stream ended.
var errStreamEnded = errors.New("the server ended the HTTP+SSE stream (the session)")

// runLegacy GETs the session's stream and reads it to its end: the
// endpoint event first, then messages. Its end stops the connection.
func (c *Conn) runLegacy(l *legacyStream) {
	ready := false
	fail := func(err error) {
		if !ready {
			ready, l.err = true, err
			close(l.ready)
		}
	}
	defer fail(errors.New("the stream ended before its endpoint event"))
	resp, err := c.do(c.ctx, http.MethodGet, c.url, nil, nil)
	if err != nil {
		fail(err)
		return
	}
	if resp.StatusCode != http.StatusOK || !isSSE(resp) {
		if resp.StatusCode == http.StatusOK {
			drain(resp)
			fail(fmt.Errorf("the GET answered %q, not an event stream", resp.Header.Get("Content-Type")))
			return
		}
		fail(c.statusError(http.MethodGet, resp))
		return
	}
	defer func() {
		if c.ctx.Err() == nil {
			reason := errStreamEnded
			if l.err != nil {
				reason = l.err // the stream was of no use: say why
			}
			// stop waits for this goroutine: it cannot run on it.
			go func() { _ = c.CloseWithError(reason) }()
		}
	}()
	defer resp.Body.Close()
	sr := newSSEReader(resp.Body, c.opts.MaxMessageBytes)
	defer sr.release()
	for {
		ev, err := sr.next()
		if err != nil {
			return
		}
		switch {
		case ev.over:
			lost := c.overLimitError(int64(ev.size), false)
			c.observeHead(nil, ev.head, ev.size, lost)
			c.carried(resp, nil, ev.size)
			c.failLost(ev.head, lost)
		case ev.event == "endpoint":
			if ready {
				c.observe(conn.Discarded, ev.data, ev.size, errors.New("a second endpoint event"))
				continue
			}
			ep, err := c.resolveEndpoint(string(ev.data))
			if err != nil {
				fail(err)
				return
			}
			l.endpoint, ready = ep, true
			close(l.ready)
		case ev.hasData && len(ev.data) > 0:
			c.dispatch(ev.data)
			c.carried(resp, ev.data, ev.size)
		}
	}
}

// resolveEndpoint resolves the endpoint event's URL against the stream's
// and keeps it on the stream's origin: the headers given (credentials)
// must not go to another host.
func (c *Conn) resolveEndpoint(raw string) (string, error) {
	base, err := url.Parse(c.url)
	if err != nil {
		return "", err
	}
	ep, err := base.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("the endpoint event's URL %q: %w", raw, err)
	}
	if ep.Scheme != base.Scheme || ep.Host != base.Host {
		return "", fmt.Errorf("the endpoint event names another origin (%s://%s), not the stream's (%s://%s): refused", ep.Scheme, ep.Host, base.Scheme, base.Host)
	}
	return ep.String(), nil
}
