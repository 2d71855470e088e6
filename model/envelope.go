package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcptui/mcptui/internal/jsonscan"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Kind is what a traffic entry is.
type Kind int

// The kinds of traffic entry.
const (
	// KindRequest has a method and an id.
	KindRequest Kind = iota + 1
	// KindNotification has a method and no id.
	KindNotification
	// KindResponse has an id and a result.
	KindResponse
	// KindError has an id and an error.
	KindError
	// KindDiscarded is a line conn could not use.
	KindDiscarded
	// KindInvalid is a line that is not a JSON-RPC message (seen only when
	// conn reports such a line as sent or received).
	KindInvalid
	// KindBoundary is not a line: it marks a restart of the server.
	KindBoundary
	// KindBatch is a JSON-RPC batch (an array of messages on one line,
	// allowed in protocol 2025-03-26): one entry, its parts in the summary.
	KindBatch
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case KindRequest:
		return "request"
	case KindNotification:
		return "notification"
	case KindResponse:
		return "response"
	case KindError:
		return "error"
	case KindDiscarded:
		return "discarded"
	case KindInvalid:
		return "invalid"
	case KindBoundary:
		return "restart"
	case KindBatch:
		return "batch"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int
	Message string
}

// Error formats the code and message.
func (e *RPCError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

// envelope is the parsed top level of a JSON-RPC line; the byte slices point
// into the line.
type envelope struct {
	kind   Kind
	id     []byte
	method string
	params []byte
	result []byte
	err    *RPCError
}

// parseEnvelope reads the top-level members of a JSON-RPC line without
// decoding params or result.
func parseEnvelope(line []byte) envelope {
	var v [5][]byte
	ok := jsonscan.Fields(line, v[:], "id", "method", "params", "result", "error")
	return envelopeOf(v, ok)
}

// envelopeOf is the envelope of a line's id, method, params, result and
// error members (as jsonscan.Fields read them; ok its answer).
func envelopeOf(v [5][]byte, ok bool) envelope {
	if !ok {
		return envelope{kind: KindInvalid}
	}
	e := envelope{id: v[0], params: v[2], result: v[3]}
	if m, ok := methodName(v[1]); ok {
		e.method = m
	}
	if kind(e.id) == 'n' {
		e.id = nil // "id": null is an error response to an unreadable request
	}
	switch {
	case e.method != "" && e.id != nil:
		e.kind = KindRequest
	case e.method != "":
		e.kind = KindNotification
	case v[4] != nil:
		e.kind = KindError
		e.err = parseError(v[4])
	case e.id != nil && e.result != nil:
		e.kind = KindResponse
	default:
		e.kind = KindInvalid
	}
	return e
}

// parseError reads a JSON-RPC error object.
func parseError(raw []byte) *RPCError {
	v, _ := members(raw, "code", "message")
	e := &RPCError{}
	if f, ok := num(v[0]); ok {
		e.Code = int(f)
	}
	e.Message, _ = str(v[1])
	return e
}

// summaryBytes bounds a one-line summary.
const summaryBytes = 200

// target is what a request is about: the tool or prompt name, the resource
// uri, or the completion reference.
func target(method string, params []byte) string {
	switch method {
	case protocol.MethodCallTool, protocol.MethodGetPrompt:
		s, _ := str(member(params, "name"))
		return s
	case protocol.MethodReadResource, protocol.MethodSubscribe, protocol.MethodUnsubscribe:
		s, _ := str(member(params, "uri"))
		return s
	case protocol.MethodComplete:
		v, _ := members(member(params, "ref"), "name", "uri")
		if s, ok := str(v[0]); ok {
			return s
		}
		s, _ := str(v[1])
		return s
	}
	return ""
}

// summarize is the one-line summary of a parsed line.
func summarize(e envelope) string {
	switch e.kind {
	case KindRequest:
		if t := target(e.method, e.params); t != "" {
			return clip(t)
		}
		return clipRaw(e.params)
	case KindNotification:
		return notificationSummary(e.method, e.params)
	case KindResponse:
		return resultSummary(e.result)
	case KindError:
		return clip(e.err.Error())
	}
	return ""
}

// resultSummary is what a person wants to read of a result: its content's
// text, a tool error, how many items a list has, the questions of an
// input_required round; else the result without _meta and resultType.
// Results over summaryScanBytes are summarised by their start only, so the
// reducer's work per line stays bounded.
func resultSummary(res []byte) string {
	if len(res) > summaryScanBytes {
		return clipRaw(res)
	}
	v, ok := members(res, "resultType", "content", "isError", "contents", "messages", "inputRequests",
		"tools", "resources", "resourceTemplates", "prompts", "structuredContent",
		"protocolVersion", "supportedVersions", "capabilities", "serverInfo", "_meta")
	if !ok {
		return clipRaw(res)
	}
	if s, ok := helloSummary(v[11], v[12], v[13], v[14], v[15]); ok {
		return s
	}
	if rt, _ := str(v[0]); rt == "input_required" {
		var entries map[string]json.RawMessage
		_ = json.Unmarshal(v[5], &entries)
		return clip(fmt.Sprintf("input required: %d question(s) for the person", len(entries)))
	}
	switch {
	case kind(v[1]) == '[':
		text := contentText(v[1])
		if text == "" && v[10] != nil {
			text = clipRaw(v[10])
		}
		if isErr := string(bytes.TrimSpace(v[2])); isErr == "true" {
			return clip("tool error: " + text)
		}
		return clip(text)
	case kind(v[3]) == '[':
		var items []json.RawMessage
		_ = json.Unmarshal(v[3], &items)
		if len(items) > 0 {
			iv, _ := members(items[0], "uri", "mimeType", "text", "blob")
			uri, _ := str(iv[0])
			if t, ok := str(iv[2]); ok {
				return clip(uri + ": " + strings.Join(strings.Fields(t), " "))
			}
			mime, _ := str(iv[1])
			return clip(fmt.Sprintf("%s: %s blob", uri, mime))
		}
		return "no contents"
	case kind(v[4]) == '[':
		var items []json.RawMessage
		_ = json.Unmarshal(v[4], &items)
		return fmt.Sprintf("%d message(s)", len(items))
	}
	for i, name := range []string{"tools", "resources", "resource templates", "prompts"} {
		if kind(v[6+i]) == '[' {
			var items []json.RawMessage
			_ = json.Unmarshal(v[6+i], &items)
			return fmt.Sprintf("%d %s", len(items), name)
		}
	}
	return clipRaw(withoutMembers(res, "_meta", "resultType"))
}

// summaryScanBytes is the largest result resultSummary takes apart.
const summaryScanBytes = 64 << 10

// withoutMembers is an object without the named members (the object
// itself when it has none of them or does not parse).
func withoutMembers(raw []byte, names ...string) []byte {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return raw
	}
	dropped := false
	for _, n := range names {
		if _, ok := obj[n]; ok {
			delete(obj, n)
			dropped = true
		}
	}
	if !dropped {
		return raw
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return raw
	}
	return out
}

// notificationSummary picks the telling members of common notifications.
func notificationSummary(method string, params []byte) string {
	switch method {
	case protocol.NotificationProgress:
		v, _ := members(params, "progress", "total", "message")
		s := string(v[0])
		if v[1] != nil {
			s += "/" + string(v[1])
		}
		if m, ok := str(v[2]); ok {
			s += " " + m
		}
		return clip(s)
	case protocol.NotificationCancelled:
		v, _ := members(params, "requestId", "reason")
		s := "id " + string(v[0])
		if r, ok := str(v[1]); ok {
			s += ": " + r
		}
		return clip(s)
	case protocol.NotificationResourceUpdated:
		if u, ok := str(member(params, "uri")); ok {
			return clip(u)
		}
	case protocol.NotificationToolsChanged, protocol.NotificationPromptsChanged, protocol.NotificationResourcesChanged:
		return ""
	case protocol.NotificationMessage:
		return logSummary(logMembers(params))
	}
	return clipRaw(params)
}

// clip bounds a summary.
func clip(s string) string {
	if len(s) > summaryBytes {
		return s[:summaryBytes]
	}
	return s
}

// clipBytes is the start of a raw value, at most summaryBytes.
func clipBytes(raw []byte) []byte {
	if len(raw) > summaryBytes {
		return raw[:summaryBytes]
	}
	return raw
}

// clipRaw is the start of a raw value on one line.
func clipRaw(raw []byte) string {
	b := clipBytes(bytes.TrimSpace(raw))
	if bytes.ContainsAny(b, "\r\n\t") {
		b = bytes.Join(bytes.Fields(b), []byte(" "))
	}
	return string(b)
}

// FormatSize is a byte count for people, in at most 9 cells: 512 B,
// 1.5 KiB, 16.0 MiB, 1.0 GiB (a unit is promoted before its number reaches
// four digits).
func FormatSize(n int) string {
	if n < 1000 {
		return strconv.Itoa(n) + " B"
	}
	f := float64(n)
	const units = "KMGTPE"
	for i := range len(units) {
		f /= 1024
		if f < 999.95 || i == len(units)-1 {
			return fmt.Sprintf("%.1f %ciB", f, units[i])
		}
	}
	return ""
}

// maxStubID bounds the id an envelope stub keeps; a longer id is no id a
// client made.
const maxStubID = 1 << 10

// EnvelopeStub is the envelope of a request, response or error line without
// its content: the id, the method of a request, the code and message of an
// error, and "result": null for a result. The inbox keeps it, marked Lost,
// when it must shed a line's content under load, so that the request it
// answers still closes. It is nil for a notification, a line that is not a
// JSON-RPC message and an id longer than 1 KiB: those are shed whole.
func EnvelopeStub(line []byte) []byte {
	env := parseEnvelope(line)
	if env.id == nil || len(env.id) > maxStubID {
		return nil
	}
	b := append([]byte(`{"jsonrpc":"2.0","id":`), env.id...)
	switch env.kind {
	case KindRequest:
		m, _ := json.Marshal(clip(env.method))
		b = append(append(append(b, `,"method":`...), m...), '}')
	case KindResponse:
		b = append(b, `,"result":null}`...)
	case KindError:
		msg, _ := json.Marshal(clip(env.err.Message))
		b = fmt.Appendf(b, `,"error":{"code":%d,"message":%s}}`, env.err.Code, msg)
	default:
		return nil
	}
	return b
}
