package lint

import (
	"encoding/json"
	"strconv"

	"github.com/mcptui/mcptui/internal/jsonscan"

	"github.com/mcptui/mcptui/internal/protocol"
)

// The inspector lints every line live, so a flood of notifications is a
// flood of judgements: the plain notification, the common case, is read in
// place (jsonscan.Fields allocates nothing) rather than decoded with
// encoding/json, and anything out of the ordinary goes the full way.

// notificationFast judges a line that is a plain notification ("jsonrpc"
// exactly "2.0", a method needing no unescaping, no id) and reports
// whether it was one; any other line is left to received.
func (j *judge) notificationFast(ln Line) bool {
	if len(ln.Raw) > maxFastLine {
		return false // a flood is not made of these: no second pass over it
	}
	v, ok := ln.Head, ln.HeadOK
	if !ln.HeadRead {
		ok = jsonscan.Fields(ln.Raw, v[:], "jsonrpc", "id", "method", "params")
	}
	if !ok || v[1] != nil || string(v[0]) != `"2.0"` {
		return false
	}
	method, ok := plain(v[2])
	if !ok {
		return false
	}
	j.notification(shared(method, notificationMethods), v[3])
	return true
}

// notificationMethods are the notifications the rules look at.
var notificationMethods = []string{protocol.NotificationMessage, protocol.NotificationProgress, protocol.NotificationCancelled,
	protocol.NotificationToolsChanged, protocol.NotificationPromptsChanged, protocol.NotificationResourcesChanged,
	protocol.NotificationResourceUpdated}

// shared is s as one of names (no allocation), or a copy of it.
func shared(s []byte, names []string) string {
	for _, name := range names {
		if string(s) == name {
			return name
		}
	}
	return string(s)
}

// maxFastLine bounds the lines notificationFast reads: a longer one (a
// big answer) is read once, by received.
const maxFastLine = 64 << 10

// plain is the text of a JSON string that needs no unescaping.
func plain(raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, false
	}
	inner := raw[1 : len(raw)-1]
	for _, c := range inner {
		if c == '\\' || c == '"' || c < 0x20 {
			return nil, false
		}
	}
	return inner, true
}

// logLevel is a log message's level, "" when it has none that is a string.
// level is its level member as jsonscan.Fields read it from params.
func logLevel(level, params []byte) string {
	if s, ok := plain(level); ok {
		if r := protocol.LevelRank(string(s)); r >= 0 {
			return protocol.LevelName(r) // shared: no copy of s
		}
		return string(s)
	}
	var p struct {
		Level string `json:"level"`
	}
	_ = json.Unmarshal(params, &p)
	return p.Level
}

// progressOf is a progress notification's token and progress (nil when
// it has none that is a number).
func progressOf(params []byte) (token json.RawMessage, progress *float64) {
	var v [2][]byte
	jsonscan.Fields(params, v[:], "progressToken", "progress")
	if f, err := strconv.ParseFloat(string(v[1]), 64); err == nil && len(v[1]) > 0 && (v[1][0] == '-' || v[1][0] >= '0' && v[1][0] <= '9') {
		progress = &f
	}
	return v[0], progress
}

// tokenKey is valueKey for a progress token, without decoding the common
// ones (a short integer, an ASCII string needing no escapes), whose key is
// their text.
func tokenKey(raw []byte) string {
	if len(raw) > 0 && len(raw) <= 15 {
		digits := true
		for i, c := range raw {
			if (c < '0' || c > '9') && (i > 0 || c != '-') {
				digits = false
				break
			}
		}
		if digits && raw[len(raw)-1] != '-' {
			return string(raw)
		}
	}
	if s, ok := plain(raw); ok {
		ascii := true
		for _, c := range s {
			if c >= 0x80 || c == '<' || c == '>' || c == '&' {
				ascii = false
				break
			}
		}
		if ascii {
			return string(raw)
		}
	}
	return valueKey(raw)
}
