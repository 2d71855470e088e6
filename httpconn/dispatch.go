package httpconn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/jsonscan"
	"github.com/mcptui/mcptui/internal/rpccall"

	"github.com/mcptui/mcptui/internal/protocol"
)

func mediaType(resp *http.Response) string {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return mt
}

func isSSE(resp *http.Response) bool  { return mediaType(resp) == "text/event-stream" }
func isJSON(resp *http.Response) bool { return mediaType(resp) == "application/json" }

// goTracked runs fn in a goroutine Close waits for, unless the connection
// has stopped.
func (c *Conn) goTracked(fn func()) bool {
	c.mu.Lock()
	if c.stopErr != nil {
		c.mu.Unlock()
		return false
	}
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		fn()
	}()
	return true
}

// maxSkip bounds the bytes of an over-limit body read (and dropped) to
// measure it.
const maxSkip = 1 << 30

// readJSON reads a JSON answer (one message or a batch), bounded. It
// returns why the body was discarded, nil when it was dispatched: an
// answer over the limit fails its call at once when its id is readable.
func (c *Conn) readJSON(resp *http.Response) error {
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, int64(c.opts.MaxMessageBytes)+1))
	if err != nil {
		err = fmt.Errorf("reading the answer after %d bytes: %w", len(b), err)
		c.observeHead(nil, b[:min(len(b), headBytes)], len(b), err)
		c.failLost(b, err)
		return err
	}
	if len(b) > c.opts.MaxMessageBytes {
		n, _ := io.Copy(io.Discard, io.LimitReader(resp.Body, maxSkip))
		size := len(b) + int(n)
		err := c.overLimitError(int64(size), n == maxSkip)
		c.observeHead(nil, b[:headBytes], size, err)
		c.carried(resp, nil, size)
		c.failLost(b, err)
		return err
	}
	c.dispatch(b)
	c.carried(resp, b, len(b))
	return nil
}

// readBody reads a JSON answer's body, bounded: over reports one over
// MaxMessageBytes (read to its end and discarded, observed).
func (c *Conn) readBody(resp *http.Response) (b []byte, over bool) {
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, int64(c.opts.MaxMessageBytes)+1))
	if err != nil {
		return b, false
	}
	if len(b) > c.opts.MaxMessageBytes {
		n, _ := io.Copy(io.Discard, io.LimitReader(resp.Body, maxSkip))
		size := len(b) + int(n)
		c.observeHead(nil, b[:headBytes], size, c.overLimitError(int64(size), n == maxSkip))
		return nil, true
	}
	return b, false
}

// isRPCError reports whether b is a JSON-RPC error response.
func isRPCError(b []byte) bool {
	if !jsontext.Value(b).IsValid() || b[jsonscan.SkipSpace(b, 0)] != '{' {
		return false
	}
	e := jsonscan.Member(b, "error")
	return jsonscan.Member(b, "jsonrpc") != nil && len(e) > 0 && e[0] == '{' && jsonscan.Member(e, "code") != nil
}

// clip is the start of a body for an error message.
func clip(b []byte) string {
	return strings.ToValidUTF8(string(b[:min(len(b), 1024)]), "?")
}

// readStream reads an SSE answer until wanted reports false, resuming it
// with Last-Event-ID after the server's retry while it breaks. It returns
// why the last event it discarded was (nil: none): an event over the limit
// whose id is readable fails its call at once.
func (c *Conn) readStream(ctx context.Context, resp *http.Response, wanted func() bool) (lost error) {
	lastID, retry, failures := "", DefaultRetry, 0
	for {
		sr := newSSEReader(resp.Body, c.opts.MaxMessageBytes)
		progressed := false
		for {
			ev, err := sr.next()
			if err != nil {
				break
			}
			if ev.hasID {
				lastID = ev.id
			}
			if ev.retry >= 0 {
				retry = time.Duration(ev.retry) * time.Millisecond
			}
			switch {
			case ev.over:
				progressed = true
				lost = c.overLimitError(int64(ev.size), false)
				c.observeHead(nil, ev.head, ev.size, lost)
				c.carried(resp, nil, ev.size)
				c.failLost(ev.head, lost)
			case ev.hasData && len(ev.data) > 0:
				progressed = true
				c.dispatch(ev.data)
				c.carried(resp, ev.data, ev.size)
			}
			if !wanted() {
				sr.release()
				drainAndClose(resp.Body)
				return
			}
		}
		sr.release()
		_ = resp.Body.Close()
		if !wanted() || ctx.Err() != nil || lastID == "" {
			return
		}
		if progressed {
			failures = 0
		}
		if failures++; failures > c.opts.MaxResumes {
			return
		}
		t := time.NewTimer(retry)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		next, err := c.do(ctx, http.MethodGet, c.url, nil, http.Header{HeaderLastEventID: {lastID}})
		if err != nil {
			return
		}
		if next.StatusCode != http.StatusOK || !isSSE(next) {
			_ = c.statusError(http.MethodGet, next)
			return
		}
		resp = next
	}
}

// Bounds of the drain of an answered stream.
const (
	drainWait  = time.Second
	drainBytes = 64 << 10
)

// drainAndClose reads what is left of a stream whose answer came (the
// server ends it right after, as the spec says it should) and closes it:
// a body read to its end lets net/http put the connection back in the
// pool, where closing it early would cost the next request a new TCP (and
// TLS) handshake. A stream that goes on past drainBytes or drainWait is
// cut.
func drainAndClose(body io.ReadCloser) {
	cut := time.AfterFunc(drainWait, func() { _ = body.Close() })
	_, _ = io.CopyN(io.Discard, body, drainBytes)
	cut.Stop()
	_ = body.Close()
}

// startGET opens the GET stream for server-initiated messages once; a 405
// means the server offers none. The returned channel is closed once the
// GET's answer (or failure) came, so that the caller can have the stream
// open before its next request: what the server sends on it in between is
// then not missed.
func (c *Conn) startGET() <-chan struct{} {
	opened := make(chan struct{})
	c.mu.Lock()
	if c.getOpen {
		c.mu.Unlock()
		close(opened)
		return opened
	}
	c.getOpen = true
	c.mu.Unlock()
	started := c.goTracked(func() {
		resp, err := c.do(c.ctx, http.MethodGet, c.url, nil, nil)
		close(opened)
		if err != nil {
			return
		}
		if resp.StatusCode != http.StatusOK || !isSSE(resp) {
			_ = c.statusError(http.MethodGet, resp)
			return
		}
		_ = c.readStream(c.ctx, resp, func() bool { return c.ctx.Err() == nil })
	})
	if !started {
		close(opened)
	}
	return opened
}

// dispatch handles one message or batch that arrived.
func (c *Conn) dispatch(b []byte) {
	v := jsontext.Value(b)
	if !v.IsValid() {
		why := errors.New("not JSON")
		if jsonscan.DeeperThan(b, maxDepth) {
			why = rpccall.ErrTooDeep
		}
		c.observe(conn.Discarded, b, len(b), why)
		c.failLost(b, why)
		return
	}
	start := jsonscan.SkipSpace(b, 0)
	if b[start] == '[' {
		var items []jsontext.Value
		if err := jsonv2.Unmarshal(b, &items); err != nil {
			c.observe(conn.Discarded, b, len(b), fmt.Errorf("not a JSON-RPC batch: %w", err))
			return
		}
		for _, it := range items {
			c.dispatchOne(it)
		}
		return
	}
	c.dispatchOne(b)
}

func (c *Conn) dispatchOne(b []byte) {
	if b[jsonscan.SkipSpace(b, 0)] != '{' {
		c.observe(conn.Discarded, b, len(b), errors.New("not a JSON-RPC message"))
		return
	}
	method, id := jsonscan.Member(b, "method"), jsonscan.Member(b, "id")
	switch {
	case method != nil && method[0] == '"' && id != nil:
		c.observe(conn.Received, b, len(b), nil)
		c.serverRequest(id, jsonscan.Unquote(method), jsonscan.Member(b, "params"))
	case method != nil && method[0] == '"':
		c.observe(conn.Received, b, len(b), nil)
		c.notification(jsonscan.Unquote(method), jsonscan.Member(b, "params"))
	case id != nil:
		c.response(b, id)
	default:
		c.observe(conn.Discarded, b, len(b), errors.New("not a JSON-RPC message"))
	}
}

// response finishes the call or ends the subscription it answers.
func (c *Conn) response(b, rawID []byte) {
	var p *pendingCall
	if n, ok := rpccall.OurID(rawID); ok {
		if c.subscriptionEnd(b, n) {
			return
		}
		p = c.claim(n)
	}
	if p == nil {
		c.observe(conn.Discarded, b, len(b), errors.New("a response that matches no request"))
		return
	}
	c.observe(conn.Received, b, len(b), nil)
	result, err := outcome(b)
	if err == nil {
		if p.method == protocol.MethodListTools {
			c.learnTools(result)
		}
		if p.method == protocol.MethodInitialize {
			if v := jsonscan.Member(result, "protocolVersion"); len(v) > 0 && v[0] == '"' {
				c.mu.Lock()
				c.version = jsonscan.Unquote(v)
				c.mu.Unlock()
			}
		}
	}
	p.Finish(result, err)
}

// outcome turns a response into its result or an *conn.Error.
func outcome(b []byte) (json.RawMessage, error) {
	result, rpcErr := jsonscan.Member(b, "result"), jsonscan.Member(b, "error")
	switch {
	case result != nil && rpcErr != nil:
		return nil, connError("The server sent both a result and an error", nil)
	case rpcErr != nil:
		var e struct {
			Code    int            `json:"code"`
			Message string         `json:"message"`
			Data    jsontext.Value `json:"data"`
		}
		if jsonv2.Unmarshal(rpcErr, &e) != nil {
			return nil, connError("The server sent an invalid JSON-RPC response", nil)
		}
		return nil, &conn.Error{Code: e.Code, Message: e.Message, Data: []byte(e.Data)}
	case result != nil:
		return result, nil
	}
	return nil, connError("The server sent an invalid JSON-RPC response", nil)
}

// notification routes progress to its call, a cancellation to its
// handler, anything else to OnNotification.
func (c *Conn) notification(method string, params []byte) {
	if c.subscriptionEvent(method, params) {
		return
	}
	switch method {
	case protocol.NotificationProgress:
		if id, ok := rpccall.ProgressCall(params); ok {
			c.mu.Lock()
			p := c.pending[id]
			c.mu.Unlock()
			if p != nil && p.WantsProgress() {
				p.AddProgress(conn.Progress(rpccall.DecodeProgress(params)), time.Now())
				return
			}
		}
	case protocol.NotificationCancelled:
		if key := rpccall.MatchKey(jsonscan.Member(params, "requestId")); key != "" {
			c.mu.Lock()
			cancel := c.handlers[key]
			c.mu.Unlock()
			if cancel != nil {
				cancel()
				return
			}
		}
	}
	if c.opts.OnNotification != nil {
		c.opts.OnNotification(conn.Notification{Method: method, Params: params})
	}
}

// serverRequest runs the handler, at most MaxServerRequests at once, and
// POSTs its answer unless the server cancelled the request.
func (c *Conn) serverRequest(id []byte, method string, params []byte) {
	key := rpccall.MatchKey(id)
	hctx, cancel := context.WithCancel(c.ctx)
	c.mu.Lock()
	c.handlers[key] = cancel
	c.mu.Unlock()
	started := c.goTracked(func() {
		defer func() {
			c.mu.Lock()
			delete(c.handlers, key)
			c.mu.Unlock()
			cancel()
		}()
		select {
		case c.sem <- struct{}{}:
		case <-hctx.Done():
			return
		}
		defer func() { <-c.sem }()
		var result []byte
		var rpcErr *conn.Error
		if c.opts.OnServerRequest == nil {
			rpcErr = &conn.Error{Code: conn.CodeMethodNotFound, Message: "Method not found"}
		} else {
			res, err := c.opts.OnServerRequest(hctx, &conn.Request{ID: id, Method: method, Params: params})
			switch {
			case err == nil:
				result = res
			case errors.As(err, &rpcErr):
			default:
				rpcErr = &conn.Error{Code: conn.CodeInternal, Message: err.Error()}
			}
		}
		if hctx.Err() != nil {
			return // cancelled: no answer
		}
		_ = c.send(c.ctx, "", appendResponse(nil, id, result, rpcErr), nil)
	})
	if !started {
		cancel()
	}
}
