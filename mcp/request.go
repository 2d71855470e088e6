package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/protocol"
)

// RequestOption adjusts one request (or Listen).
type RequestOption func(*requestOptions)

type requestOptions struct {
	conn            []conn.CallOption
	progress        func(conn.Progress) error
	resetOnProgress bool
	meta            json.RawMessage
	inputResponses  json.RawMessage
	requestState    json.RawMessage
	maxRounds       int
	maxBuffer       int
}

func (c *Client) requestOptions(opts []RequestOption) requestOptions {
	ro := requestOptions{conn: c.timeoutOptions(), maxRounds: c.opts.MaxInputRounds, maxBuffer: conn.DefaultMaxBuffer}
	for _, o := range opts {
		o(&ro)
	}
	return ro
}

// WithCallOptions passes conn call options (timeout, progress, ...) to each
// message the request sends; with input_required rounds, each round gets
// them afresh (its own timer and progress token).
func WithCallOptions(opts ...conn.CallOption) RequestOption {
	return func(o *requestOptions) { o.conn = append(o.conn, opts...) }
}

// WithTimeout is WithCallOptions(conn.WithTimeout(d)): each round's timeout.
func WithTimeout(d time.Duration) RequestOption { return WithCallOptions(conn.WithTimeout(d)) }

// WithProgress is WithCallOptions(conn.WithProgress(fn)): progress of each
// round reaches fn.
//
// A progressToken the caller put in the params' own _meta is kept (MCP
// lets the requester choose it): the request is then sent as it is and
// its progress shows on the wire, not through fn.
func WithProgress(fn func(conn.Progress) error) RequestOption {
	return func(o *requestOptions) { o.progress = fn }
}

// WithResetTimeoutOnProgress is WithCallOptions(conn.WithResetTimeoutOnProgress()),
// applied with WithProgress.
func WithResetTimeoutOnProgress() RequestOption {
	return func(o *requestOptions) { o.resetOnProgress = true }
}

// callOptions are conn's options for a message with params: WithProgress's
// (unless the params carry their own progress token) after the rest.
func (ro requestOptions) callOptions(params json.RawMessage) []conn.CallOption {
	if ro.progress == nil {
		return ro.conn
	}
	if meta, err := parseObject(params); err == nil {
		if m, err := parseObject(meta.get("_meta")); err == nil && m.get("progressToken") != nil {
			return ro.conn
		}
	}
	out := append(slices.Clone(ro.conn), conn.WithProgress(ro.progress))
	if ro.resetOnProgress {
		out = append(out, conn.WithResetTimeoutOnProgress())
	}
	return out
}

// WithMaxTotalTimeout is WithCallOptions(conn.WithMaxTotalTimeout(d)).
func WithMaxTotalTimeout(d time.Duration) RequestOption {
	return WithCallOptions(conn.WithMaxTotalTimeout(d))
}

// WithMeta merges the members of meta (a JSON object) into params._meta,
// over both the 2026-07-28 keys and the params' own _meta.
func WithMeta(meta json.RawMessage) RequestOption {
	return func(o *requestOptions) { o.meta = meta }
}

// WithInputResponses sends params.inputResponses (a JSON object) with the
// first message of a 2026-07-28 request, for a caller driving the rounds
// itself. Ignored on the initialize era.
func WithInputResponses(responses json.RawMessage) RequestOption {
	return func(o *requestOptions) { o.inputResponses = responses }
}

// WithRequestState sends params.requestState, given as the raw JSON value
// (a JSON string, echoed byte for byte), with the first message of a
// 2026-07-28 request. Ignored on the initialize era.
func WithRequestState(state json.RawMessage) RequestOption {
	return func(o *requestOptions) { o.requestState = state }
}

// WithMaxInputRounds overrides Options.MaxInputRounds for one request.
func WithMaxInputRounds(n int) RequestOption {
	return func(o *requestOptions) { o.maxRounds = n }
}

// WithMaxBuffer sets how many events a Subscription queues before dropping
// the oldest (default 100).
func WithMaxBuffer(n int) RequestOption {
	return func(o *requestOptions) {
		o.maxBuffer = n
		o.conn = append(o.conn, conn.WithMaxBuffer(n))
	}
}

// Request sends any request and returns its final result, raw. params is
// nil, a json.RawMessage holding a JSON object, or a value that marshals to
// one.
//
// On 2026-07-28 params._meta carries the protocol version, the client
// capabilities and info, and the log level when one is set; a result whose
// resultType is input_required is answered (see Answerer) and re-sent,
// round after round; a -32022 answer makes the client pick a version from
// the error's data.supported and re-send once. A method the negotiated
// version does not define fails locally with -32601 (on 2026-07-28 a method
// no version knows is sent: it may be an extension).
func (c *Client) Request(ctx context.Context, method string, params any, opts ...RequestOption) (json.RawMessage, error) {
	raw, err := toRaw(params)
	if err != nil {
		return nil, wrap(method, newError(CodeInvalidParams, err.Error(), nil))
	}
	res, err := c.request(ctx, method, raw, c.requestOptions(opts))
	return res, wrap(method, err)
}

// Notify sends a notification (for example notifications/roots/list_changed);
// one the negotiated version does not define fails locally with -32601.
func (c *Client) Notify(ctx context.Context, method string, params any) error {
	raw, err := toRaw(params)
	if err != nil {
		return wrap(method, newError(CodeInvalidParams, err.Error(), nil))
	}
	if err := checkMethod(protocol.Notifications, c.Version(), method); err != nil {
		return wrap(method, err)
	}
	var p any
	if raw != nil {
		p = raw
	}
	return wrap(method, c.w.Notify(ctx, method, p))
}

func (c *Client) request(ctx context.Context, method string, params json.RawMessage, ro requestOptions) (json.RawMessage, error) {
	if method == MethodListen {
		return nil, errorf(CodeInvalidParams, "%s is opened with Listen", MethodListen)
	}
	if jsonKind(params) == "null" {
		params = nil
	}
	base, err := parseObject(params)
	if err != nil || (params != nil && !isObject(params)) {
		return nil, errorf(CodeInvalidParams, "params must be an object")
	}
	st := c.snapshot()
	if err := checkMethod(protocol.Requests, st.version, method); err != nil {
		return nil, err
	}
	if !Stateless(st.version) {
		return c.sendLegacy(ctx, method, params, ro)
	}

	responses, state := ro.inputResponses, ro.requestState
	for round := 0; ; round++ {
		b := base
		if round > 0 { // only this round's answers and state, never the caller's
			b = b.set("inputResponses", nil).set("requestState", nil)
		}
		extras := object{}.set("inputResponses", responses).set("requestState", state)
		res, legacy, err := c.sendStateless(ctx, method, b, extras, ro)
		if err != nil || legacy {
			return res, err
		}
		obj, _ := parseObject(res) // not an object: no resultType, complete
		rt, ok := stringMember(obj, "resultType")
		if !ok && obj.has("resultType") {
			return nil, newError(CodeConnection, fmt.Sprintf("The server sent an invalid resultType %s", obj.get("resultType")),
				map[string]json.RawMessage{"resultType": obj.get("resultType")})
		}
		switch {
		case !ok || rt == "complete" || slices.Contains(c.opts.ExtraResultTypes, rt):
			c.noteServerInfo(obj)
			return res, nil
		case rt != "input_required":
			return nil, newError(CodeConnection, fmt.Sprintf("The server sent an unknown resultType %q", rt),
				map[string]string{"resultType": rt})
		}
		if round >= ro.maxRounds {
			return nil, newError(CodeConnection,
				fmt.Sprintf("The server asked for input more than %d times", ro.maxRounds),
				map[string]int{"maxInputRounds": ro.maxRounds})
		}
		state = obj.get("requestState")
		responses = nil
		if ir := obj.get("inputRequests"); ir != nil && jsonKind(ir) != "null" {
			responses, err = c.answerRound(ctx, method, params, ir, round+1)
			if err != nil {
				return nil, err
			}
		}
	}
}

// sendLegacy sends an initialize-era request: params as given, with
// WithMeta's members merged into _meta.
func (c *Client) sendLegacy(ctx context.Context, method string, params json.RawMessage, ro requestOptions) (json.RawMessage, error) {
	meta, err := c.requestMeta(method, ro.meta)
	if err != nil {
		return nil, err
	}
	if meta != nil {
		base, _ := parseObject(params)
		merged, err := mergeMeta(base.get("_meta"), meta)
		if err != nil {
			return nil, err
		}
		params = base.set("_meta", merged).encode()
	}
	var p any
	if params != nil {
		p = params
	}
	seen := c.sessionCount()
	res, err := c.w.Call(ctx, method, p, ro.callOptions(params)...)
	if err == nil || !errors.Is(err, httpconn.ErrSessionExpired) {
		return res, err
	}
	if rerr := c.newSession(ctx, seen, method, err); rerr != nil {
		return nil, rerr
	}
	return c.w.Call(ctx, method, p, ro.callOptions(params)...)
}

// sendStateless sends one 2026-07-28 message: base plus extras, with the
// dialect _meta; a -32022 answer re-negotiates and re-sends once. legacy
// reports that a re-negotiation moved the client to the initialize era and
// the request was sent that way.
func (c *Client) sendStateless(ctx context.Context, method string, base, extras object, ro requestOptions) (res json.RawMessage, legacy bool, err error) {
	for attempt := 0; ; attempt++ {
		st := c.snapshot()
		if !Stateless(st.version) {
			if err := checkMethod(protocol.Requests, st.version, method); err != nil {
				return nil, true, err
			}
			res, err := c.sendLegacy(ctx, method, base.encode(), ro)
			return res, true, err
		}
		meta, err := c.requestMeta(method, ro.meta)
		if err != nil {
			return nil, false, err
		}
		params, err := c.statelessParams(base.merge(extras), st, meta)
		if err != nil {
			return nil, false, err
		}
		res, err := c.w.Call(ctx, method, params, ro.callOptions(params)...)
		if err == nil {
			return res, false, nil
		}
		e := asError(err)
		if attempt > 0 || e == nil || e.Code != CodeUnsupportedVersion || c.connStopped(err) {
			return nil, false, err
		}
		if rerr := c.renegotiate(ctx, st.gen, method, e); rerr != nil {
			return nil, false, rerr
		}
	}
}

func (c *Client) sessionCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessions
}

// newSession handles an HTTP server's 404 (or 400 naming the session) for the session id (seen is the
// session count before the request): the spec's fresh initialize, on the
// same version, once for all the requests that met the expiry.
func (c *Client) newSession(ctx context.Context, seen int, method string, expired error) error {
	c.renegMu.Lock()
	defer c.renegMu.Unlock()
	if c.sessionCount() != seen {
		return nil // another request began the new session: re-send
	}
	c.record(Step{Kind: StepSessionExpired, Method: method, Err: expired, Start: time.Now(),
		Decision: "the server ended the session (it refused its Mcp-Session-Id: 404, or 400 naming the session): initialize a new one, re-send once"})
	if err := c.initialize(ctx, c.Version(), "the server ended the session"); err != nil {
		return fmt.Errorf("a new session after the old one expired: %w", err)
	}
	c.mu.Lock()
	c.sessions++
	c.mu.Unlock()
	return nil
}

// requestMeta is the _meta members one message of a request adds: those
// of Options.RequestMeta (asked afresh for every message: each round of a
// 2026-07-28 request is a request of its own) under the caller's own.
func (c *Client) requestMeta(method string, own json.RawMessage) (json.RawMessage, error) {
	if c.opts.RequestMeta == nil {
		return own, nil
	}
	extra := c.opts.RequestMeta(method)
	if len(extra) == 0 {
		return own, nil
	}
	return mergeMeta(extra, own)
}

// dialectMeta is the 2026-07-28 _meta every request carries.
func (c *Client) dialectMeta(version, logLevel string) object {
	m := object{}.
		set(MetaProtocolVersion, quote(version)).
		set(MetaClientCapabilities, c.opts.clientCapabilities(version)).
		set(MetaClientInfo, c.opts.clientInfo())
	if logLevel != "" {
		m = m.set(MetaLogLevel, quote(logLevel))
	}
	return m
}

// statelessParams puts the dialect _meta under the params' own _meta and
// the WithMeta members.
func (c *Client) statelessParams(p object, st snapshot, extra json.RawMessage) (json.RawMessage, error) {
	meta, err := mergeMeta(c.dialectMeta(st.version, st.logLevel).encode(), p.get("_meta"))
	if err != nil {
		return nil, err
	}
	if meta, err = mergeMeta(meta, extra); err != nil {
		return nil, err
	}
	return p.set("_meta", meta).encode(), nil
}

// mergeMeta sets over's members on base (both _meta objects, either absent).
func mergeMeta(base, over json.RawMessage) (json.RawMessage, error) {
	b, err := parseObject(base)
	if err != nil || (base != nil && !isObject(base)) {
		return nil, errorf(CodeInvalidParams, "params._meta must be an object")
	}
	o, err := parseObject(over)
	if err != nil || (over != nil && !isObject(over)) {
		return nil, errorf(CodeInvalidParams, "_meta must be an object")
	}
	return b.merge(o).encode(), nil
}

// renegotiate handles a -32022 answer: the most preferred allowed version
// in data.supported is used from now on (an initialize-era one initialized
// on the same process); none in common is -32602.
func (c *Client) renegotiate(ctx context.Context, gen int, method string, e *Error) error {
	c.renegMu.Lock()
	defer c.renegMu.Unlock()
	if c.snapshot().gen != gen {
		return nil // another request re-negotiated meanwhile: re-send
	}
	supported := supportedFromData(e.Data)
	v := choose(c.opts.Versions, supported)
	step := Step{Kind: StepRenegotiate, Method: method, PID: c.w.PID(), Err: e, Start: time.Now()}
	switch {
	case v == "":
		step.Decision = fmt.Sprintf("-32022 lists %v, none allowed", supported)
		c.record(step)
		return noCommonVersion(c.opts.Versions, supported)
	case Stateless(v):
		step.Decision = fmt.Sprintf("-32022 lists %v: use %s and re-send once", supported, v)
		c.record(step)
		c.decide(v, "a -32022 answer listed it")
		return nil
	}
	step.Decision = fmt.Sprintf("-32022 lists %v: use %s, initialize on the same process, re-send once", supported, v)
	c.record(step)
	return c.initialize(ctx, v, "a -32022 answer listed it")
}

// answerRound answers every entry of an inputRequests object and returns
// the inputResponses object. Every entry is checked before any answerer
// runs: a malformed entry is -32000, one nobody can answer -32602; then the
// answerers run one at a time in key order.
func (c *Client) answerRound(ctx context.Context, method string, callParams, inputRequests json.RawMessage, round int) (json.RawMessage, error) {
	entries, err := parseObject(inputRequests)
	if err != nil || !isObject(inputRequests) {
		return nil, errorf(CodeConnection, "The server sent malformed inputRequests")
	}
	questions := make([]*Question, 0, len(entries))
	keys := make([]string, 0, len(entries))
	for _, en := range entries {
		eo, err := parseObject(en.value)
		m, ok := stringMember(eo, "method")
		if err != nil || !isObject(en.value) || !ok {
			return nil, errorf(CodeConnection, "The server sent a malformed input request %q", en.name)
		}
		kind, params, err := classify(m, eo.get("params"))
		if kind == 0 {
			return nil, newError(CodeInvalidParams, fmt.Sprintf("No answerer for %s (input request %q)", m, en.name),
				map[string]string{"key": en.name, "method": m})
		}
		if err != nil {
			e := asError(err)
			return nil, newError(e.Code, fmt.Sprintf("Input request %q: %s", en.name, e.Message), e.Data)
		}
		if c.opts.answerer(kind) == nil {
			return nil, newError(CodeInvalidParams, fmt.Sprintf("No answerer for %s (input request %q)", kind, en.name),
				map[string]string{"key": en.name, "method": m})
		}
		questions = append(questions, &Question{
			Kind:   kind,
			Method: m,
			Params: slices.Clone(params),
			Origin: Origin{CallMethod: method, CallParams: callParams, Key: en.name, Round: round},
		})
		keys = append(keys, en.name)
	}
	order := make([]int, len(questions))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if keys[a] < keys[b] {
			return -1
		}
		if keys[a] > keys[b] {
			return 1
		}
		return 0
	})
	if len(questions) == 0 {
		return nil, nil // state only
	}
	var answers object
	for _, i := range order {
		ans, err := c.ask(ctx, questions[i])
		if err != nil {
			return nil, fmt.Errorf("answering input request %q (%s): %w", keys[i], questions[i].Kind, err)
		}
		answers = answers.set(keys[i], ans)
	}
	return answers.encode(), nil
}
