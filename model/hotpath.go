package model

import (
	"bytes"
	"unicode/utf8"

	"github.com/mcptui/mcptui/internal/jsonscan"

	"github.com/mcptui/mcptui/internal/protocol"
)

// The reducer's work per line is the inspector's cost per line of a
// flood: what is here keeps a notification to the allocations of what it
// keeps (the entry's summary), so that a flood leaves little garbage.

// knownMethods are the methods a session sees over and over: their names
// are shared, not allocated again for every line.
var knownMethods = func() map[string]string {
	m := map[string]string{}
	for _, name := range []string{
		protocol.MethodInitialize, protocol.MethodPing, protocol.MethodDiscover, protocol.MethodListen,
		protocol.MethodListTools, protocol.MethodCallTool, protocol.MethodListPrompts, protocol.MethodGetPrompt,
		protocol.MethodListResources, protocol.MethodReadResource, protocol.MethodListResourceTemplates, protocol.MethodSubscribe, protocol.MethodUnsubscribe,
		protocol.MethodComplete, protocol.MethodSetLevel, protocol.MethodCreateMessage, protocol.MethodElicit, protocol.MethodListRoots,
		protocol.MethodTasksGet, protocol.MethodTasksResult, protocol.MethodTasksList, protocol.MethodTasksCancel,
		protocol.NotificationInitialized, protocol.NotificationMessage, protocol.NotificationProgress, protocol.NotificationCancelled,
		protocol.NotificationResourceUpdated, protocol.NotificationResourcesChanged, protocol.NotificationToolsChanged,
		protocol.NotificationPromptsChanged, protocol.NotificationRootsListChanged, "notifications/elicitation/complete",
		protocol.NotificationTaskStatus, "notifications/subscriptions/acknowledged",
	} {
		m[name] = name
	}
	return m
}()

// methodName decodes a method's JSON string, sharing the name when it is
// a known one (a read-only table: no state).
func methodName(raw []byte) (string, bool) {
	if inner, ok := plainString(raw); ok {
		if name, ok := knownMethods[string(inner)]; ok {
			return name, true
		}
	}
	return str(raw)
}

// plainString is the text between the quotes of a JSON string that needs
// no decoding (no escapes, valid UTF-8, no control bytes), as str takes it.
func plainString(raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, false
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') >= 0 || bytes.IndexByte(inner, '"') >= 0 || !utf8.Valid(inner) || hasControl(inner) {
		return nil, false
	}
	return inner, true
}

// appendClipped appends as much of s as a summary keeps.
func appendClipped(b, s []byte) []byte {
	return append(b, s[:min(len(s), max(summaryBytes-len(b), 0))]...)
}

// appendStr appends the decoded JSON string raw (clipped) and reports
// whether raw is one.
func appendStr(b, raw []byte) ([]byte, bool) {
	if inner, ok := plainString(raw); ok {
		return appendClipped(b, inner), true
	}
	s, ok := str(raw)
	return appendClipped(b, []byte(s)), ok
}

// logMembers reads a log message's level, logger and data members in one
// pass: its summary and its level rank are both made of them.
func logMembers(params []byte) (v [3][]byte) {
	jsonscan.Fields(params, v[:], "level", "logger", "data")
	return v
}

// logSummary is a log message's summary, "level logger: data", built in
// one allocation from its members (logMembers).
func logSummary(v [3][]byte) string {
	var buf [summaryBytes]byte
	b, _ := appendStr(buf[:0], v[0])
	if isString(v[1]) {
		b = appendClipped(b, []byte{' '})
		b, _ = appendStr(b, v[1])
	}
	b = appendClipped(b, []byte(": "))
	if next, ok := appendStr(b, v[2]); ok {
		b = next
	} else {
		b = appendClipped(b, v[2])
	}
	return string(b)
}

// isString reports whether raw is a JSON string str can decode.
func isString(raw []byte) bool {
	if _, ok := plainString(raw); ok {
		return true
	}
	_, ok := str(raw)
	return ok
}
