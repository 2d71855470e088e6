package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/mcp"
)

// The raw wire path: requests the typed client would refuse or shape
// differently (unknown methods, wrong params, a missing or wrong _meta) go
// straight through conn, with the _meta the era needs added by hand.

// meta is the 2026-07-28 _meta of a request on version.
func meta(version string) map[string]any {
	return map[string]any{
		mcp.MetaProtocolVersion:    version,
		mcp.MetaClientCapabilities: map[string]any{},
		mcp.MetaClientInfo:         map[string]any{"name": mcp.ClientName, "version": "check"},
	}
}

// params is p (an object) with the era's _meta added on 2026-07-28.
func (r *run) params(p map[string]any) map[string]any {
	if p == nil {
		p = map[string]any{}
	}
	if mcp.Stateless(r.era) {
		if _, ok := p["_meta"]; !ok {
			p["_meta"] = meta(r.era)
		}
	}
	return p
}

// raw sends method with params on the main connection (a process's or an
// HTTP endpoint's), bypassing mcp.
func (r *run) raw(method string, params any) (json.RawMessage, *mcp.Error) {
	c, e := r.before(method, params)
	if e != nil {
		return nil, e
	}
	defer r.track(c, method, params)()
	res, e := rawCall(r.ctx, c.Transport(), method, params, r.o, r.traceMeta(c, method, params)...)
	r.after(c, method, params, e)
	return res, e
}

// setMeta keeps the RequestMeta of main connection c (nil: untraced).
func (r *run) setMeta(c *mcp.Client, meta func(string) json.RawMessage) {
	if meta == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.metas == nil {
		r.metas = map[*mcp.Client]func(string) json.RawMessage{}
	}
	r.metas[c] = meta
}

// traceMeta is the call option that puts c's traceparent (Options.Trace)
// into the _meta of a raw request whose params are a JSON object; a probe
// with no params or other params is sent exactly as written.
func (r *run) traceMeta(c *mcp.Client, method string, params any) []conn.CallOption {
	r.mu.Lock()
	meta := r.metas[c]
	r.mu.Unlock()
	if meta == nil || params == nil {
		return nil
	}
	b, ok := params.(json.RawMessage)
	if !ok {
		var err error
		if b, err = json.Marshal(params); err != nil {
			return nil
		}
	}
	if b = bytes.TrimLeft(b, " \t\r\n"); len(b) == 0 || b[0] != '{' {
		return nil
	}
	if m := meta(method); len(m) > 0 {
		return []conn.CallOption{conn.WithMeta(m)}
	}
	return nil
}

func rawCall(ctx context.Context, c mcp.Transport, method string, params any, o Options, opts ...conn.CallOption) (json.RawMessage, *mcp.Error) {
	res, err := c.Call(ctx, method, params, append([]conn.CallOption{conn.WithTimeout(o.Timeout)}, opts...)...)
	if err == nil {
		return res, nil
	}
	var e *mcp.Error
	if errors.As(err, &e) {
		return nil, e
	}
	return nil, &mcp.Error{Code: mcp.CodeConnection, Message: err.Error(), Cause: err}
}

// request sends method through the typed client (the era's _meta and
// input_required rounds handled), returning the result or the error.
// A request that failed after the check declined a question the server
// asked for it gets this code (never on the wire): the failure may be the
// decline's consequence, so it is no verdict on the server.
const codeDeclined = 1

func (r *run) request(method string, params any, opts ...mcp.RequestOption) (json.RawMessage, *mcp.Error) {
	return r.requestCtx(r.ctx, method, params, opts...)
}

// requestCtx is request under ctx (cancelling ctx cancels the request).
func (r *run) requestCtx(ctx context.Context, method string, params any, opts ...mcp.RequestOption) (json.RawMessage, *mcp.Error) {
	c, e := r.before(method, params)
	if e != nil {
		return nil, e
	}
	defer r.track(c, method, params)()
	before := r.declines()
	res, err := c.Request(ctx, method, params, opts...)
	if err == nil {
		return res, nil
	}
	if !errors.As(err, &e) {
		e = &mcp.Error{Code: mcp.CodeConnection, Message: err.Error(), Cause: err}
	}
	if ctx.Err() == nil {
		r.after(c, method, params, e)
	}
	if r.declines() != before {
		return nil, &mcp.Error{Code: codeDeclined, Message: "a question was declined meanwhile: " + e.Message}
	}
	return nil, e
}

// transportGone reports whether e is no verdict on the server: the
// client's own failure (timeout, connection lost, an answer it had to
// discard) or a declined question.
func transportGone(e *mcp.Error) bool {
	return e != nil && (transportFailed(e) || e.Code == conn.CodeTimeout || e.Code == codeDeclined || e.Code == codeNotAsked)
}

// transportFailed reports whether e is a -32000 of the transport's own
// (the connection lost, an answer discarded), which always carries a
// Cause, rather than the server's own answer with that code: -32000 is in
// JSON-RPC's range for implementation-defined server errors, and a server
// answering with it has answered.
func transportFailed(e *mcp.Error) bool {
	return e != nil && e.Code == mcp.CodeConnection && e.Cause != nil
}

// describe is an error as seen on the wire.
func describe(e *mcp.Error) string {
	if e == nil {
		return "a result"
	}
	return fmt.Sprintf("error %d %q", e.Code, clip(e.Message, 120))
}

// object decodes a JSON object's members (nil when it is not one).
func object(raw json.RawMessage) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// isString, isBool and isNumber tell a member's JSON type.
func isString(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '"' }
func isBool(raw json.RawMessage) bool {
	s := string(raw)
	return s == "true" || s == "false"
}
func isNumber(raw json.RawMessage) bool {
	var f float64
	return len(raw) > 0 && raw[0] != '"' && json.Unmarshal(raw, &f) == nil
}
func isObject(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '{' }

func str(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}
