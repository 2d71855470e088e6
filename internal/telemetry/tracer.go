// Package telemetry turns MCP traffic into OpenTelemetry spans, live (from
// conn's Observer and the server's stderr) or after the fact (from a
// recording), with the OpenTelemetry Go SDK.
//
// The spans follow the OpenTelemetry semantic conventions for MCP
// (open-telemetry/semantic-conventions-genai, docs/gen-ai/mcp.md):
//
//   - one span per request, both ways: "{mcp.method.name} {target}" with
//     the tool or prompt as the target ("tools/call echo"), else the method;
//     kind CLIENT for the requests mcptui sends, SERVER for the questions the
//     server asks (mcptui receives them);
//   - attributes mcp.method.name, jsonrpc.request.id, mcp.protocol.version,
//     network.transport (pipe for stdio, tcp for HTTP), gen_ai.tool.name and
//     gen_ai.operation.name=execute_tool for tools/call, gen_ai.prompt.name,
//     mcp.resource.uri;
//   - a failure sets error.type (the JSON-RPC code as text, tool_error for
//     a tool result with isError), rpc.response.status_code (the code) and
//     the span's status to Error with the error's message;
//   - W3C trace context travels in params._meta (traceparent), the
//     carrier SEP-414 documents: a request that carries one is given that
//     span id, so that the server's own span, parented on it, joins.
//
// Beyond the conventions (they define no session span and no events), the
// session is a span ("mcp session") that every request span descends from,
// and what happens during a request is an event on its span: progress
// ("notifications/progress"), cancellation ("notifications/cancelled"),
// log messages ("notifications/message") and the server's stderr lines
// ("stderr"). A log message or stderr line goes to every client request in
// flight when it happened (stdio ties neither to a request), to the session
// span when none was; a server's question is the child of the one client
// request in flight, or of the session when there are none or several.
// Texts that can hold secrets (stderr, log data, error messages, the
// command line) pass through internal/record's redaction.
package telemetry

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcptui/mcptui/internal/protocol"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/wiremsg"
)

// Attribute keys of the OpenTelemetry MCP conventions used here.
const (
	AttrMethod           = "mcp.method.name"
	AttrRequestID        = "jsonrpc.request.id"
	AttrProtocol         = "mcp.protocol.version"
	AttrSessionID        = "mcp.session.id"
	AttrResourceURI      = "mcp.resource.uri"
	AttrToolName         = "gen_ai.tool.name"
	AttrPromptName       = "gen_ai.prompt.name"
	AttrOperation        = "gen_ai.operation.name"
	AttrErrorType        = "error.type"
	AttrStatusCode       = "rpc.response.status_code"
	AttrNetworkTransport = "network.transport"
)

// SessionSpanName is the name of the span of the whole session, and
// ConnectionSpanName of one connection of it (Live.Connection).
const (
	SessionSpanName    = "mcp session"
	ConnectionSpanName = "mcp connection"
)

// Session describes the session a Tracer traces.
type Session struct {
	// Command and Args are the server's command line (redacted here), or
	// Command is its URL.
	Command string
	Args    []string
	// HTTP is set for a server reached over HTTP (network.transport tcp).
	HTTP bool
	// Mode is mcptui's mode ("inspect", "call", "tap", ...).
	Mode string
	// Parent, when valid, is the caller's span (--traceparent): the
	// session span is its child, in its trace.
	Parent trace.SpanContext
	// TraceID, when valid and there is no Parent, is the session's trace
	// (a recording whose requests carried a traceparent).
	TraceID trace.TraceID
	// ForeignTraceParent says a traceparent in a request's _meta was put
	// there by another client (a tap relays a host's requests): the span
	// of the request is its child, rather than taking its span id.
	ForeignTraceParent bool
}

// Tracer builds the spans of one session from its messages, in order. Its
// methods are safe for concurrent use; each takes the time the thing
// happened, so that a recording is traced with its own timings.
type Tracer struct {
	tr      trace.Tracer
	sess    Session
	ctx     context.Context // carries the session span
	session trace.Span

	mu       sync.Mutex
	protocol string
	// sessionID is mcp.session.id: the Mcp-Session-Id an HTTP server
	// gave, as redaction shows it ("" on stdio: no session id).
	sessionID string
	open      map[reqKey]*call
	tokens    map[reqKey]*call // by who asked and progress token
	order     []*call          // client requests in flight, oldest first
	used      map[trace.SpanID]bool
	ended     bool
}

// reqKey names a request: who sent it and its id (or progress token).
type reqKey struct {
	fromServer bool
	id         string
}

type call struct {
	method    string
	protocol  string // the version its _meta named
	span      trace.Span
	key       reqKey
	token     string
	cancelled string
	hasCancel bool
}

// NewTracer starts the session span at start on tp's tracer (use
// NewProvider's, or any).
func NewTracer(tp trace.TracerProvider, start time.Time, s Session) *Tracer {
	return newTracer(tp, start, s, SessionSpanName)
}

func newTracer(tp trace.TracerProvider, start time.Time, s Session, name string) *Tracer {
	t := &Tracer{tr: tp.Tracer("github.com/mcptui/mcptui"), sess: s,
		open: map[reqKey]*call{}, tokens: map[reqKey]*call{}, used: map[trace.SpanID]bool{}}
	ctx := context.Background()
	if s.Parent.IsValid() {
		ctx = trace.ContextWithRemoteSpanContext(ctx, s.Parent)
	} else if s.TraceID.IsValid() {
		ctx = withTraceID(ctx, s.TraceID)
	}
	attrs := []attribute.KeyValue{attribute.String(AttrNetworkTransport, transport(s.HTTP))}
	if s.Command != "" {
		attrs = append(attrs, attribute.String("process.command", record.RedactURL(s.Command)))
	}
	if len(s.Args) > 0 {
		attrs = append(attrs, attribute.StringSlice("process.command_args", record.RedactArgs(s.Args, false)))
	}
	if s.Mode != "" {
		attrs = append(attrs, attribute.String("mcptui.mode", s.Mode))
	}
	t.ctx, t.session = t.tr.Start(ctx, name, trace.WithTimestamp(start),
		trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	return t
}

func transport(http bool) string {
	if http {
		return "tcp"
	}
	return "pipe"
}

// SpanContext is the session span's context: what --traceparent
// continues from, and the trace a request's _meta carries.
func (t *Tracer) SpanContext() trace.SpanContext { return t.session.SpanContext() }

// Ready records that the session is usable: the negotiated protocol, the
// server's name and version and its pid.
func (t *Tracer) Ready(at time.Time, protocol, serverName, serverVersion string, pid int) {
	t.mu.Lock()
	t.protocol = protocol
	t.mu.Unlock()
	attrs := []attribute.KeyValue{attribute.String(AttrProtocol, protocol)}
	if serverName != "" {
		attrs = append(attrs, attribute.String("mcp.server.name", serverName))
	}
	if serverVersion != "" {
		attrs = append(attrs, attribute.String("mcp.server.version", serverVersion))
	}
	if pid > 0 {
		attrs = append(attrs, attribute.Int("process.pid", pid))
	}
	t.session.SetAttributes(attrs...)
	t.session.AddEvent("ready", trace.WithTimestamp(at), trace.WithAttributes(attrs...))
}

// SessionID records the session id an HTTP server gave (its
// Mcp-Session-Id header), already redacted as recordings show it
// (record.RedactHeader: the id is a bearer of the session; its first four
// characters tell sessions apart): mcp.session.id on the session span, on
// the requests in flight (the initialize whose answer brought it) and on
// every request after. A new id (the server forgot the session and gave
// another) replaces it.
func (t *Tracer) SessionID(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended || id == "" || id == t.sessionID {
		return
	}
	t.sessionID = id
	kv := attribute.String(AttrSessionID, id)
	t.session.SetAttributes(kv)
	for _, c := range t.open {
		c.span.SetAttributes(kv)
	}
}

// Message traces one JSON-RPC line: fromServer says the server sent it.
// A line that is no JSON-RPC message is an event on the session span.
func (t *Tracer) Message(at time.Time, fromServer bool, line []byte) {
	m, ok := wiremsg.Parse(line)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended {
		return
	}
	if !ok {
		t.session.AddEvent("unreadable line", trace.WithTimestamp(at),
			trace.WithAttributes(attribute.Bool("mcptui.from_server", fromServer), attribute.Int("mcptui.size", len(line))))
		return
	}
	switch m.Kind {
	case wiremsg.Request:
		t.startCall(at, fromServer, m)
	case wiremsg.Response:
		// A response answers a request of the other side.
		t.endCall(at, reqKey{fromServer: !fromServer, id: m.ID}, m)
	case wiremsg.Notification:
		t.notification(at, fromServer, m)
	}
}

func (t *Tracer) startCall(at time.Time, fromServer bool, m wiremsg.Msg) {
	key := reqKey{fromServer: fromServer, id: m.ID}
	if old := t.open[key]; old != nil { // an id used again: the first is over
		old.span.SetStatus(codes.Error, "its id was used again before an answer came")
		old.span.End(trace.WithTimestamp(at))
		t.forget(old)
	}
	parent := t.ctx
	kind := trace.SpanKindClient
	if fromServer {
		kind = trace.SpanKindServer
		if len(t.order) == 1 {
			parent = trace.ContextWithSpan(t.ctx, t.order[0].span)
		}
	}
	if sc, ok := parseTraceParent(m.TraceParent); ok {
		if t.sess.ForeignTraceParent || fromServer {
			parent = trace.ContextWithRemoteSpanContext(parent, sc)
		} else if sc.TraceID() == t.session.SpanContext().TraceID() && !t.used[sc.SpanID()] {
			// The span the request named; a second request naming
			// the same one (a re-send) gets an id of its own.
			t.used[sc.SpanID()] = true
			parent = withSpanID(parent, sc.SpanID())
		}
	}
	attrs := []attribute.KeyValue{
		attribute.String(AttrMethod, m.Method),
		attribute.String(AttrRequestID, m.IDString),
		attribute.String(AttrNetworkTransport, transport(t.sess.HTTP)),
	}
	// The version the request itself names (2026-07-28 requests carry
	// it; a probe's may not be the session's), else the session's.
	if p := cmp.Or(m.Protocol, t.protocol); p != "" {
		attrs = append(attrs, attribute.String(AttrProtocol, p))
	}
	if t.sessionID != "" {
		attrs = append(attrs, attribute.String(AttrSessionID, t.sessionID))
	}
	switch m.Method {
	case protocol.MethodCallTool:
		attrs = append(attrs, attribute.String(AttrToolName, m.Target), attribute.String(AttrOperation, "execute_tool"))
	case protocol.MethodGetPrompt:
		attrs = append(attrs, attribute.String(AttrPromptName, m.Target))
	}
	if m.URI != "" {
		attrs = append(attrs, attribute.String(AttrResourceURI, record.RedactURL(m.URI)))
	}
	_, span := t.tr.Start(parent, m.SpanName(), trace.WithTimestamp(at), trace.WithSpanKind(kind), trace.WithAttributes(attrs...))
	c := &call{method: m.Method, protocol: m.Protocol, span: span, key: key, token: m.ProgressToken}
	t.open[key] = c
	if c.token != "" {
		t.tokens[reqKey{fromServer: fromServer, id: c.token}] = c
	}
	if !fromServer {
		t.order = append(t.order, c)
	}
}

func (t *Tracer) endCall(at time.Time, key reqKey, m wiremsg.Msg) {
	c := t.open[key]
	if c == nil {
		t.session.AddEvent("response to no request", trace.WithTimestamp(at),
			trace.WithAttributes(attribute.String(AttrRequestID, m.IDString)))
		return
	}
	switch {
	case m.Error != nil:
		c.span.SetAttributes(attribute.String(AttrErrorType, m.ErrorType()), attribute.String(AttrStatusCode, strconv.Itoa(m.Error.Code)))
		c.span.SetStatus(codes.Error, record.RedactText(m.Error.Message))
	case m.ToolError:
		c.span.SetAttributes(attribute.String(AttrErrorType, m.ErrorType()))
		c.span.SetStatus(codes.Error, "tool_error")
	case m.InputRequired:
		c.span.SetAttributes(attribute.String("mcp.result_type", "input_required"))
	case c.method == protocol.MethodInitialize && m.Protocol != "" && t.protocol == "":
		t.protocol = m.Protocol // what the server chose
		c.span.SetAttributes(attribute.String(AttrProtocol, m.Protocol))
		t.session.SetAttributes(attribute.String(AttrProtocol, m.Protocol))
	case c.protocol != "" && t.protocol == "":
		t.protocol = c.protocol // a 2026-07-28 request the server answered
		t.session.SetAttributes(attribute.String(AttrProtocol, c.protocol))
	}
	c.span.End(trace.WithTimestamp(at))
	t.forget(c)
}

func (t *Tracer) forget(c *call) {
	delete(t.open, c.key)
	if c.token != "" {
		delete(t.tokens, reqKey{fromServer: c.key.fromServer, id: c.token})
	}
	for i, o := range t.order {
		if o == c {
			t.order = append(t.order[:i], t.order[i+1:]...)
			break
		}
	}
}

func (t *Tracer) notification(at time.Time, fromServer bool, m wiremsg.Msg) {
	ts := trace.WithTimestamp(at)
	switch m.Method {
	case protocol.NotificationProgress:
		// Progress of a request of the other side.
		c := t.tokens[reqKey{fromServer: !fromServer, id: m.ProgressToken}]
		attrs := progressAttrs(m.Params)
		if c == nil {
			t.session.AddEvent(m.Method, ts, trace.WithAttributes(append(attrs, attribute.String("mcp.progress.token", m.ProgressToken))...))
			return
		}
		c.span.AddEvent(m.Method, ts, trace.WithAttributes(attrs...))
	case protocol.NotificationCancelled:
		// The sender gives up on its own request.
		c := t.open[reqKey{fromServer: fromServer, id: m.CancelledID}]
		attrs := []attribute.KeyValue{attribute.String("mcp.cancel.reason", record.RedactText(m.Reason))}
		if c == nil {
			t.session.AddEvent(m.Method, ts, trace.WithAttributes(append(attrs, attribute.String(AttrRequestID, m.CancelledID))...))
			return
		}
		c.hasCancel, c.cancelled = true, m.Reason
		c.span.AddEvent(m.Method, ts, trace.WithAttributes(attrs...))
	case protocol.NotificationMessage:
		t.inFlight(m.Method, at, logAttrs(m.Params))
	default:
		t.session.AddEvent(m.Method, ts, trace.WithAttributes(attribute.Bool("mcptui.from_server", fromServer)))
	}
}

// inFlight adds an event to every client request in flight, or to the
// session span when none is.
func (t *Tracer) inFlight(name string, at time.Time, attrs []attribute.KeyValue) {
	opts := []trace.EventOption{trace.WithTimestamp(at), trace.WithAttributes(attrs...)}
	if len(t.order) == 0 {
		t.session.AddEvent(name, opts...)
		return
	}
	for _, c := range t.order {
		c.span.AddEvent(name, opts...)
	}
}

// Stderr traces one line of the server's stderr.
func (t *Tracer) Stderr(at time.Time, text string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended {
		return
	}
	t.inFlight("stderr", at, []attribute.KeyValue{attribute.String("mcptui.stderr.line", record.RedactText(text))})
}

// Discarded traces a line from the server that could not be used.
func (t *Tracer) Discarded(at time.Time, reason string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.ended {
		t.session.AddEvent("discarded line", trace.WithTimestamp(at), trace.WithAttributes(attribute.String("mcptui.reason", record.RedactText(reason))))
	}
}

// Exit traces the end of the server process.
func (t *Tracer) Exit(at time.Time, status string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.ended {
		t.session.AddEvent("exit", trace.WithTimestamp(at), trace.WithAttributes(attribute.String("mcptui.exit.status", status)))
	}
}

// Failed traces that mcptui gave up on the server.
func (t *Tracer) Failed(at time.Time, err string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.ended {
		msg := record.RedactText(err)
		t.session.AddEvent("failed", trace.WithTimestamp(at), trace.WithAttributes(attribute.String("mcptui.error", msg)))
		t.session.SetStatus(codes.Error, msg)
	}
}

// End ends the requests still open (cancelled, or unanswered when the
// session ended) and the session span. Later calls do nothing.
func (t *Tracer) End(at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended {
		return
	}
	t.ended = true
	for _, c := range t.open {
		if c.hasCancel {
			c.span.SetAttributes(attribute.String(AttrErrorType, "cancelled"))
			c.span.SetStatus(codes.Error, "cancelled: "+record.RedactText(c.cancelled))
		} else {
			c.span.SetAttributes(attribute.String(AttrErrorType, "_OTHER"))
			c.span.SetStatus(codes.Error, "no answer before the session ended")
		}
		c.span.End(trace.WithTimestamp(at))
	}
	t.open, t.tokens, t.order = map[reqKey]*call{}, map[reqKey]*call{}, nil
	t.session.End(trace.WithTimestamp(at))
}

func progressAttrs(params json.RawMessage) []attribute.KeyValue {
	var p struct {
		Progress *float64 `json:"progress"`
		Total    *float64 `json:"total"`
		Message  string   `json:"message"`
	}
	_ = json.Unmarshal(params, &p)
	var attrs []attribute.KeyValue
	if p.Progress != nil {
		attrs = append(attrs, attribute.Float64("mcp.progress.progress", *p.Progress))
	}
	if p.Total != nil {
		attrs = append(attrs, attribute.Float64("mcp.progress.total", *p.Total))
	}
	if p.Message != "" {
		attrs = append(attrs, attribute.String("mcp.progress.message", record.RedactText(p.Message)))
	}
	return attrs
}

func logAttrs(params json.RawMessage) []attribute.KeyValue {
	var p struct {
		Level  string          `json:"level"`
		Logger string          `json:"logger"`
		Data   json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(params, &p)
	data := string(p.Data)
	var s string
	if json.Unmarshal(p.Data, &s) == nil {
		data = s
	}
	attrs := []attribute.KeyValue{attribute.String("mcp.log.level", p.Level), attribute.String("mcp.log.data", record.RedactText(data))}
	if p.Logger != "" {
		attrs = append(attrs, attribute.String("mcp.log.logger", p.Logger))
	}
	return attrs
}

// parseTraceParent reads a W3C traceparent header value.
func parseTraceParent(s string) (trace.SpanContext, bool) {
	if s == "" {
		return trace.SpanContext{}, false
	}
	sc, err := ParseTraceParent(s)
	return sc, err == nil
}

// ParseTraceParent reads a W3C traceparent ("00-<32 hex>-<16 hex>-<2 hex>"),
// as --traceparent takes it.
func ParseTraceParent(s string) (trace.SpanContext, error) {
	var version, tid, sid, flags string
	if len(s) != 55 || s[2] != '-' || s[35] != '-' || s[52] != '-' {
		return trace.SpanContext{}, fmt.Errorf("traceparent %q: not 00-<32 hex digits>-<16 hex digits>-<2 hex digits>", s)
	}
	version, tid, sid, flags = s[:2], s[3:35], s[36:52], s[53:]
	if version != "00" {
		return trace.SpanContext{}, fmt.Errorf("traceparent %q: version %s is not 00", s, version)
	}
	traceID, err := trace.TraceIDFromHex(tid)
	if err != nil {
		return trace.SpanContext{}, fmt.Errorf("traceparent %q: trace id: %w", s, err)
	}
	spanID, err := trace.SpanIDFromHex(sid)
	if err != nil {
		return trace.SpanContext{}, fmt.Errorf("traceparent %q: parent id: %w", s, err)
	}
	f, err := strconv.ParseUint(flags, 16, 8)
	if err != nil {
		return trace.SpanContext{}, fmt.Errorf("traceparent %q: flags: %w", s, err)
	}
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: traceID, SpanID: spanID,
		TraceFlags: trace.TraceFlags(f), Remote: true}), nil
}

// FormatTraceParent writes a W3C traceparent for sc.
func FormatTraceParent(sc trace.SpanContext) string {
	return fmt.Sprintf("00-%s-%s-%s", sc.TraceID(), sc.SpanID(), sc.TraceFlags())
}
