// Package wiremsg reads one JSON-RPC message of a recorded or observed MCP
// line the way the exporters need it: its kind, id, method, the target a
// span is named after, and what ties a notification to a request (a
// progress token, a cancelled request id). It is shared by the exporters
// of internal/export and internal/telemetry, so that both see a line alike.
package wiremsg

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Kind is what a message is.
type Kind int

// The kinds of message.
const (
	// Invalid is not a JSON-RPC object (a batch is Invalid too).
	Invalid Kind = iota
	Request
	Notification
	Response
)

// Msg is one JSON-RPC message, decoded.
type Msg struct {
	Kind   Kind
	Method string
	// ID is the id's JSON text ("7", `"abc"`); IDString its value as
	// OpenTelemetry's jsonrpc.request.id wants it (7, abc).
	ID       string
	IDString string
	Params   json.RawMessage
	Result   json.RawMessage
	Error    *Error
	// Target is the low-cardinality name a span is named after: the tool
	// of tools/call, the prompt of prompts/get; "" otherwise.
	Target string
	// URI is params.uri (resources/read, subscribe, ...).
	URI string
	// ProgressToken is params._meta.progressToken of a request, or
	// params.progressToken of notifications/progress, as JSON text.
	ProgressToken string
	// CancelledID is params.requestId of notifications/cancelled, as JSON
	// text, and Reason its reason.
	CancelledID string
	Reason      string
	// TraceParent is params._meta.traceparent, when present.
	TraceParent string
	// ToolError reports a result with isError true.
	ToolError bool
	// InputRequired reports a 2026-07-28 result asking for input.
	InputRequired bool
	// Protocol is the protocol version the message names: a request's
	// 2026-07-28 _meta (io.modelcontextprotocol/protocolVersion), an
	// initialize result's protocolVersion.
	Protocol string
}

// Error is a JSON-RPC error object.
type Error struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

type wire struct {
	ID     json.RawMessage `json:"id"`
	Method *string         `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *Error          `json:"error"`
}

// params are the members of a message's params read here. Each is kept
// raw and read on its own (str), so that one of the wrong type (a probe's
// "name": 42) loses only itself, not the traceparent and the rest.
type params struct {
	Name          json.RawMessage `json:"name"`
	URI           json.RawMessage `json:"uri"`
	ProgressToken json.RawMessage `json:"progressToken"`
	RequestID     json.RawMessage `json:"requestId"`
	Reason        json.RawMessage `json:"reason"`
	Meta          json.RawMessage `json:"_meta"`
}

type meta struct {
	ProgressToken json.RawMessage `json:"progressToken"`
	TraceParent   json.RawMessage `json:"traceparent"`
	Protocol      json.RawMessage `json:"io.modelcontextprotocol/protocolVersion"`
}

// str is raw's value when it is a JSON string, else "".
func str(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

type result struct {
	IsError         bool   `json:"isError"`
	ResultType      string `json:"resultType"`
	ProtocolVersion string `json:"protocolVersion"`
}

// Parse decodes line; ok is false when it is no JSON-RPC message.
func Parse(line []byte) (Msg, bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return Msg{}, false
	}
	var w wire
	if err := json.Unmarshal(line, &w); err != nil {
		return Msg{}, false
	}
	m := Msg{Params: w.Params, Result: w.Result, Error: w.Error}
	hasID := len(w.ID) > 0 && string(w.ID) != "null"
	if hasID {
		m.ID = string(w.ID)
		m.IDString = idString(w.ID)
	}
	switch {
	case w.Method != nil && hasID:
		m.Kind, m.Method = Request, *w.Method
	case w.Method != nil:
		m.Kind, m.Method = Notification, *w.Method
	case hasID && (w.Result != nil || w.Error != nil):
		m.Kind = Response
	default:
		return Msg{}, false
	}
	if len(w.Params) > 0 && w.Params[0] == '{' {
		var p params
		if json.Unmarshal(w.Params, &p) == nil {
			var mt meta
			if len(p.Meta) > 0 && p.Meta[0] == '{' {
				_ = json.Unmarshal(p.Meta, &mt)
			}
			switch m.Method {
			case protocol.MethodCallTool, protocol.MethodGetPrompt:
				m.Target = str(p.Name)
			}
			m.URI = str(p.URI)
			m.TraceParent = str(mt.TraceParent)
			m.Protocol = str(mt.Protocol)
			if m.Kind == Request && len(mt.ProgressToken) > 0 {
				m.ProgressToken = string(mt.ProgressToken)
			}
			if m.Method == protocol.NotificationProgress && len(p.ProgressToken) > 0 {
				m.ProgressToken = string(p.ProgressToken)
			}
			if m.Method == protocol.NotificationCancelled && len(p.RequestID) > 0 {
				m.CancelledID, m.Reason = string(p.RequestID), str(p.Reason)
			}
		}
	}
	if len(w.Result) > 0 && w.Result[0] == '{' {
		var r result
		if json.Unmarshal(w.Result, &r) == nil {
			m.ToolError = r.IsError
			m.InputRequired = r.ResultType == "input_required"
			m.Protocol = r.ProtocolVersion
		}
	}
	return m, true
}

// idString is an id as text: a string's value, a number as written.
func idString(id json.RawMessage) string {
	var s string
	if json.Unmarshal(id, &s) == nil {
		return s
	}
	return string(id)
}

// SpanName is the span name the OpenTelemetry MCP conventions give a
// request: "{mcp.method.name} {target}" when there is a target, else the
// method.
func (m Msg) SpanName() string {
	if m.Target != "" {
		return m.Method + " " + m.Target
	}
	return m.Method
}

// ErrorType is the value of error.type for a response: the JSON-RPC error
// code as text, "tool_error" for a tool result with isError; "" when the
// response is no failure.
func (m Msg) ErrorType() string {
	switch {
	case m.Error != nil:
		return strconv.Itoa(m.Error.Code)
	case m.ToolError:
		return "tool_error"
	}
	return ""
}
