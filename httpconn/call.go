package httpconn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/jsonscan"
	"github.com/mcptui/mcptui/internal/rpccall"

	"github.com/mcptui/mcptui/internal/protocol"
)

// pendingCall is a request waiting for its response: rpccall's mailbox
// (shared with conn), the method it asked for (the answer to some teaches
// the connection), and what ends its POST's stream.
type pendingCall struct {
	rpccall.Call[conn.Progress]
	method string
	abort  context.CancelFunc
}

// abandoner is the Conn as rpccall.Abandoner, without a method in Conn's
// API.
type abandoner Conn

// Abandon gives up on call id (rpccall.Abandoner).
func (a *abandoner) Abandon(id int64, _ *rpccall.Call[conn.Progress], reason string, why *rpccall.GaveUp) bool {
	return (*Conn)(a).abandon(id, reason, why)
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
	p := &pendingCall{method: method, abort: abort}
	p.Init(s.Progress != nil)
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
	w := rpccall.Wait[conn.Progress]{
		Transport: "httpconn", ID: id, Start: start, Timeout: s.Timeout, MaxTotal: s.MaxTotal,
		ResetOnProgress: s.ResetOnProgress, Progress: s.Progress, NeverCancel: s.NeverCancel,
		Abandon: (*abandoner)(c), TimedOut: timeoutError,
	}
	if ctl := s.Control; ctl != nil {
		w.Control, w.Extended = ctl, rpccall.Bind(ctl, id, start, s.Timeout)
		defer ctl.Unbind()
	}
	go func() {
		defer c.wg.Done()
		defer abort()
		c.post(postCtx, id, method, body)
	}()
	return p.Await(ctx, &w)
}

// timeoutError is the -32001 of a call that timed out.
func timeoutError(message string, data json.RawMessage) error {
	return &conn.Error{Code: conn.CodeTimeout, Message: message, Data: data}
}

// encodeRequest is the request's JSON: params with the call options' _meta
// merged in and, for a call WithProgress, the request id as progressToken.
func encodeRequest(id int64, method string, params any, s conn.CallSettings) ([]byte, error) {
	var token int64
	if s.Progress != nil {
		token = id
	}
	raw, err := rpccall.RequestParams(params, s.Meta, token)
	if err != nil {
		return nil, err
	}
	return rpccall.AppendRequest(nil, id, method, raw), nil
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
		if e, final := c.refused(resp); final {
			c.fail(id, e)
			return
		}
		if c.fallsBack(method, resp.StatusCode) {
			c.postLegacy(ctx, id, body, c.statusError(http.MethodPost, resp))
			return
		}
		c.fail(id, connError("The HTTP request failed", c.statusError(http.MethodPost, resp)))
		return
	}
	c.settle()
	var lost error // why an answer on the POST was discarded
	switch {
	case isSSE(resp):
		lost = c.readStream(ctx, resp, func() bool { return c.isPending(id) })
	case isJSON(resp):
		lost = c.readJSON(resp)
	default:
		_ = resp.Body.Close()
	}
	if lost != nil {
		c.fail(id, connError("The server's answer ended without a response it could use", lost))
		return
	}
	c.fail(id, connError("The server's answer ended without a response", errNoResponse))
}

// errNoResponse is the cause of a call whose POST's answer ended without
// its JSON-RPC response: a transport's failure, told apart (by having a
// cause) from a server's own -32000 answer.
var errNoResponse = errors.New("the HTTP answer to the POST ended before the JSON-RPC response to it")

// refused reads a POST's answer that is not a 2xx. A session the server
// ended, or a JSON-RPC error sent with a 4xx (a -32022 or -32020, say:
// dispatched, since it answers the request, and a sign of a modern server,
// so no fallback), is final: err ends the request. Otherwise the caller
// decides, and resp.Body is whole again.
func (c *Conn) refused(resp *http.Response) (err *conn.Error, final bool) {
	if sid, ok := c.expired(resp); ok {
		return connError("The server ended the session", &SessionExpiredError{ID: sid, Status: c.statusError(http.MethodPost, resp)}), true
	}
	if resp.StatusCode/100 == 4 && (isJSON(resp) || resp.StatusCode == http.StatusBadRequest) {
		b, over := c.readBody(resp)
		if sid, ok := c.unknownSession(resp, b); ok {
			return connError("The server ended the session", &SessionExpiredError{ID: sid, Status: &StatusError{Method: http.MethodPost,
				Status: resp.StatusCode, Body: clip(b), Header: c.redact(resp.Header)}}), true
		}
		if isJSON(resp) && !over && isRPCError(b) {
			c.errorBody(b)
			c.carried(resp, b, len(b))
			return connError("The HTTP request failed", &StatusError{Method: http.MethodPost, Status: resp.StatusCode,
				Body: clip(b), Header: c.redact(resp.Header)}), true
		}
		resp.Body = io.NopCloser(bytes.NewReader(b))
	}
	return nil, false
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
	p.Finish(nil, err)
}

func (c *Conn) isPending(id int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pending[id] != nil
}

// abandon removes a pending call, tells the server with
// notifications/cancelled (unless reason is "") and ends the POST's
// stream. It reports false when the outcome was claimed already. why (nil
// for none) is the Err of the cancellation's Sent event.
func (c *Conn) abandon(id int64, reason string, why *rpccall.GaveUp) bool {
	p := c.claim(id)
	if p == nil {
		return false
	}
	if reason == "" {
		p.abort()
		return true
	}
	c.goTracked(func() {
		params := fmt.Appendf(nil, `{"requestId":%d,"reason":`, id)
		params, _ = jsontext.AppendQuote(params, reason)
		params = append(params, '}')
		ctx, cancel := context.WithTimeout(c.ctx, 10*time.Second)
		var whyErr error
		if why != nil {
			whyErr = why
		}
		_ = c.send(ctx, protocol.NotificationCancelled, rpccall.AppendRequest(nil, 0, protocol.NotificationCancelled, params), whyErr)
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
	raw, err := rpccall.EncodeParams(params)
	if err != nil {
		return fmt.Errorf("httpconn: %s params: %w", method, err)
	}
	if err := c.notify(ctx, method, raw); err != nil {
		return err
	}
	if method == protocol.NotificationInitialized && c.Mode() != SSE {
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
	body := rpccall.AppendRequest(nil, 0, method, params)
	return c.send(ctx, method, body, nil)
}

// send POSTs a notification or a response, which the server answers with
// 202 and no body (to the session's endpoint over HTTP+SSE); why is its
// Sent event's Err (nil but for a cancellation that says why).
func (c *Conn) send(ctx context.Context, method string, body []byte, why error) error {
	c.observe(conn.Sent, body, len(body), why)
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
		st := c.statusError(http.MethodPost, resp)
		if sid, ok := c.unknownSession(resp, []byte(st.Body)); ok {
			return connError("The server ended the session", &SessionExpiredError{ID: sid, Status: st})
		}
		return connError("The HTTP request failed", st)
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
	case protocol.MethodCallTool, protocol.MethodGetPrompt:
		name = jsonscan.Member(params, "name")
	case protocol.MethodReadResource:
		name = jsonscan.Member(params, "uri")
	}
	if len(name) > 0 && name[0] == '"' {
		tool := jsonscan.Unquote(name)
		h.Set(HeaderName, EncodeHeaderValue(tool))
		if method == protocol.MethodCallTool {
			c.mu.Lock()
			headers := c.toolHeaders[tool]
			c.mu.Unlock()
			paramHeaders(h, headers, jsonscan.Member(params, "arguments"))
		}
	}
	return h
}
