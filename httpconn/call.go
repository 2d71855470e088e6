package httpconn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/jsonscan"
)

// Cancellation reasons sent in notifications/cancelled (conn's).
const (
	reasonTimedOut       = "Request timed out"
	reasonStoppedWaiting = "The client stopped waiting"
)

// pendingCall is a request waiting for its response; progress and the
// outcome reach the caller's goroutine through a mailbox, in order.
type pendingCall struct {
	method   string
	mu       sync.Mutex
	queue    []progressAt
	finished bool
	result   json.RawMessage
	err      error
	wake     chan struct{}
	abort    context.CancelFunc // ends the POST's stream
}

type progressAt struct {
	conn.Progress
	at time.Time
}

func (p *pendingCall) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *pendingCall) addProgress(pr conn.Progress, at time.Time) {
	p.mu.Lock()
	p.queue = append(p.queue, progressAt{pr, at})
	p.mu.Unlock()
	p.signal()
}

func (p *pendingCall) finish(result json.RawMessage, err error) {
	p.mu.Lock()
	p.finished, p.result, p.err = true, result, err
	p.mu.Unlock()
	p.signal()
}

func (p *pendingCall) take(buf []progressAt) ([]progressAt, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	buf = append(buf[:0], p.queue...)
	p.queue = p.queue[:0]
	return buf, p.finished
}

// claim removes the call from the pending table; only the one who claims it
// finishes it.
func (c *Conn) claim(id int64) *pendingCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.pending[id]
	delete(c.pending, id)
	return p
}

// Call POSTs a request and waits for its response, with conn's rules: an
// *conn.Error for an error response, a timeout (-32001, the server is sent
// notifications/cancelled) or a failed exchange (-32000, the HTTP status
// in Cause); the context's error if ctx ends first.
func (c *Conn) Call(ctx context.Context, method string, params any, opts ...conn.CallOption) (json.RawMessage, error) {
	s := conn.ResolveCallOptions(opts...)
	if s.ResetOnProgress && s.Progress == nil {
		return nil, errors.New("httpconn: WithResetTimeoutOnProgress needs WithProgress")
	}
	if e := c.stopped(); e != nil {
		return nil, e
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("httpconn: call %s: %w", method, context.Cause(ctx))
	}
	id := c.nextID.Add(1)
	body, err := encodeRequest(id, method, params, s)
	if err != nil {
		return nil, fmt.Errorf("httpconn: %s params: %w", method, err)
	}
	postCtx, abort := context.WithCancel(c.ctx)
	p := &pendingCall{method: method, wake: make(chan struct{}, 1), abort: abort}
	c.mu.Lock()
	if c.stopErr != nil {
		e := c.stopErr
		c.mu.Unlock()
		abort()
		return nil, e
	}
	c.pending[id] = p
	c.wg.Add(1) // under the lock: Close waits only once stopErr is set
	c.mu.Unlock()
	start := time.Now()
	var extendC <-chan struct{}
	if ctl := s.Control; ctl != nil {
		var shown time.Time
		if s.Timeout > 0 {
			shown = start.Add(s.Timeout)
		}
		extendC = ctl.Bind(id, shown)
		defer ctl.Unbind()
	}
	go func() {
		defer c.wg.Done()
		defer abort()
		c.post(postCtx, id, method, body)
	}()
	return c.await(ctx, id, p, s, start, extendC)
}

// post sends one request and reads its answer: a JSON body or an SSE
// stream, resumed while it breaks before the response. Over HTTP+SSE the
// answer comes on the session's stream instead.
func (c *Conn) post(ctx context.Context, id int64, method string, body []byte) {
	c.observe(conn.Sent, body, len(body), nil)
	if c.Mode() == SSE {
		c.postLegacy(ctx, id, body, nil)
		return
	}
	resp, err := c.do(ctx, http.MethodPost, c.url, body, c.standardHeaders(method, body))
	if err != nil {
		c.fail(id, connError("The HTTP request failed", err))
		return
	}
	if resp.StatusCode/100 != 2 {
		if sid, ok := c.expired(resp); ok {
			c.fail(id, connError("The server ended the session", &SessionExpiredError{ID: sid, Status: c.statusError(http.MethodPost, resp)}))
			return
		}
		// A JSON-RPC error may come with a 4xx (a -32022 or -32020, say):
		// it answers the request, and it says the server is a modern one
		// (no fallback).
		if isJSON(resp) && resp.StatusCode/100 == 4 {
			b, over := c.readBody(resp)
			if !over && isRPCError(b) {
				c.dispatch(b)
				c.carried(resp, b, len(b))
				c.fail(id, connError("The HTTP request failed", &StatusError{Method: http.MethodPost, Status: resp.StatusCode,
					Body: clip(b), Header: c.redact(resp.Header)}))
				return
			}
			resp.Body = io.NopCloser(bytes.NewReader(b))
		}
		if c.fallsBack(method, resp.StatusCode) {
			c.postLegacy(ctx, id, body, c.statusError(http.MethodPost, resp))
			return
		}
		c.fail(id, connError("The HTTP request failed", c.statusError(http.MethodPost, resp)))
		return
	}
	c.settle()
	switch {
	case isSSE(resp):
		c.readStream(ctx, resp, func() bool { return c.isPending(id) })
	case isJSON(resp):
		c.readJSON(resp)
	default:
		_ = resp.Body.Close()
	}
	c.fail(id, connError("The server's answer ended without a response", nil))
}

// fail finishes call id with err unless its outcome was claimed already.
// No JSON-RPC answer came (an HTTP failure): the observer is shown one,
// marked as mcptui's, so that whatever follows the wire (the inspector's
// requests in flight) sees the request end.
func (c *Conn) fail(id int64, err error) {
	p := c.claim(id)
	if p == nil {
		return
	}
	if c.opts.Observer != nil {
		msg, _ := jsonv2.Marshal("no JSON-RPC answer (shown by mcptui): " + err.Error())
		line := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"error":{"code":%d,"message":%s}}`, id, conn.CodeConnection, msg)
		c.observe(conn.Received, line, len(line), nil)
	}
	p.finish(nil, err)
}

func (c *Conn) isPending(id int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pending[id] != nil
}

// await waits for the outcome, running progress callbacks and the timer as
// conn does.
func (c *Conn) await(ctx context.Context, id int64, p *pendingCall, s conn.CallSettings, start time.Time, extendC <-chan struct{}) (json.RawMessage, error) {
	var timer *time.Timer
	var timerC <-chan time.Time
	deadline := start.Add(s.Timeout)
	capAt := start.Add(s.MaxTotal)
	clamped := false
	if s.Timeout > 0 {
		timer = time.NewTimer(time.Until(deadline))
		timerC = timer.C
		defer timer.Stop()
	}
	var batch []progressAt
	for {
		select {
		case <-extendC:
			if d := s.Control.TakeExtension(); timer != nil && timerC != nil {
				deadline, capAt, clamped = deadline.Add(d), capAt.Add(d), false
				timer.Reset(time.Until(deadline))
				s.Control.SetDeadline(deadline)
			}
		case <-p.wake:
			var finished bool
			batch, finished = p.take(batch)
			for _, pr := range batch {
				if s.ResetOnProgress && timer != nil {
					next := pr.at.Add(s.Timeout)
					if next.After(capAt) {
						next, clamped = capAt, true
					}
					if next.After(deadline) {
						deadline = next
						timer.Reset(time.Until(deadline))
						if s.Control != nil {
							s.Control.SetDeadline(deadline)
						}
					}
				}
				if s.Progress != nil {
					if err := s.Progress(pr.Progress); err != nil {
						c.abandon(id, reasonStoppedWaiting)
						return nil, err
					}
				}
			}
			if finished {
				p.mu.Lock()
				result, err := p.result, p.err
				p.mu.Unlock()
				return result, err
			}
		case <-timerC:
			if !c.abandon(id, reasonTimedOut) {
				timerC = nil // the outcome is on its way
				continue
			}
			if clamped {
				return nil, &conn.Error{Code: conn.CodeTimeout, Message: conn.MessageMaxTotalTimeout,
					Data: fmt.Appendf(nil, `{"maxTotalTimeoutMs":%d}`, s.MaxTotal.Milliseconds())}
			}
			return nil, &conn.Error{Code: conn.CodeTimeout, Message: conn.MessageTimedOut,
				Data: fmt.Appendf(nil, `{"timeoutMs":%d}`, s.Timeout.Milliseconds())}
		case <-ctx.Done():
			if c.abandon(id, reasonStoppedWaiting) {
				return nil, fmt.Errorf("httpconn: call %d: %w", id, context.Cause(ctx))
			}
			ctx = context.Background()
		}
	}
}

// abandon removes a pending call, tells the server with
// notifications/cancelled and ends the POST's stream. It reports false when
// the outcome was claimed already.
func (c *Conn) abandon(id int64, reason string) bool {
	p := c.claim(id)
	if p == nil {
		return false
	}
	c.goTracked(func() {
		params := fmt.Appendf(nil, `{"requestId":%d,"reason":%q}`, id, reason)
		ctx, cancel := context.WithTimeout(c.ctx, 10*time.Second)
		_ = c.notify(ctx, "notifications/cancelled", params)
		cancel()
		p.abort() // after the cancellation went out: closing the stream is not a cancellation
	})
	return true
}

// getOpenWait is how long Notify(notifications/initialized) waits for the
// GET stream's answer.
const getOpenWait = 2 * time.Second

// Notify POSTs a notification; the server answers 202 Accepted.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	if e := c.stopped(); e != nil {
		return e
	}
	raw, err := encodeParams(params)
	if err != nil {
		return fmt.Errorf("httpconn: %s params: %w", method, err)
	}
	if err := c.notify(ctx, method, raw); err != nil {
		return err
	}
	if method == "notifications/initialized" && c.Mode() != SSE {
		// Wait (a little) for the stream's answer: a server may send on it
		// what belongs to the next request.
		t := time.NewTimer(getOpenWait)
		defer t.Stop()
		select {
		case <-c.startGET():
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return nil
}

func (c *Conn) notify(ctx context.Context, method string, params []byte) error {
	body := appendMessage(nil, nil, method, params)
	return c.send(ctx, method, body)
}

// send POSTs a notification or a response, which the server answers with
// 202 and no body (to the session's endpoint over HTTP+SSE).
func (c *Conn) send(ctx context.Context, method string, body []byte) error {
	c.observe(conn.Sent, body, len(body), nil)
	target, extra := c.url, c.standardHeaders(method, body)
	if c.Mode() == SSE {
		ep, err := c.legacyEndpoint(ctx)
		if err != nil {
			return connError("The HTTP+SSE stream could not be opened", err)
		}
		target, extra = ep, nil
	}
	resp, err := c.do(ctx, http.MethodPost, target, body, extra)
	if err != nil {
		return connError("The HTTP request failed", err)
	}
	if resp.StatusCode/100 != 2 {
		if sid, ok := c.expired(resp); ok {
			return connError("The server ended the session", &SessionExpiredError{ID: sid, Status: c.statusError(http.MethodPost, resp)})
		}
		return connError("The HTTP request failed", c.statusError(http.MethodPost, resp))
	}
	drain(resp) // a body here answers nothing
	return nil
}

// standardHeaders are the 2026-07-28 request metadata headers, for a
// request whose _meta names a protocol version (a stateless one): the
// version, Mcp-Method, Mcp-Name (params.name, or params.uri for a read)
// and, for tools/call, the Mcp-Param-* mirrors of the arguments the tool
// marks with x-mcp-header. Names and values outside plain ASCII go in the
// spec's Base64 sentinel.
func (c *Conn) standardHeaders(method string, body []byte) http.Header {
	if method == "" {
		return nil
	}
	params := jsonscan.Member(body, "params")
	v := jsonscan.Member(jsonscan.Member(params, "_meta"), "io.modelcontextprotocol/protocolVersion")
	if v == nil {
		return nil
	}
	h := http.Header{HeaderMethod: {method}, HeaderProtocolVersion: {jsonscan.Unquote(v)}}
	var name []byte
	switch method {
	case "tools/call", "prompts/get":
		name = jsonscan.Member(params, "name")
	case "resources/read":
		name = jsonscan.Member(params, "uri")
	}
	if len(name) > 0 && name[0] == '"' {
		tool := jsonscan.Unquote(name)
		h.Set(HeaderName, EncodeHeaderValue(tool))
		if method == "tools/call" {
			c.mu.Lock()
			headers := c.toolHeaders[tool]
			c.mu.Unlock()
			paramHeaders(h, headers, jsonscan.Member(params, "arguments"))
		}
	}
	return h
}
