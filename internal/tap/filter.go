package tap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Direction is which way a line goes through the tap.
type Direction int

// The directions.
const (
	// ToServer is a line the host wrote to the server (a "sent" entry).
	ToServer Direction = iota
	// ToHost is a line the server wrote to the host (a "received" entry).
	ToHost
)

// String is the direction as the recording names its lines.
func (d Direction) String() string {
	if d == ToServer {
		return "sent"
	}
	return "received"
}

// Filter selects lines for a breakpoint. It takes the traffic pane's
// syntax: space-separated terms that must all match; "dir:out" (to the
// server) and "dir:in" (to the host), "method:tools/" (a substring of the
// method), "id:7", "kind:request" (request, notification, response, error:
// a prefix), and any other word a case-insensitive substring of the line.
type Filter struct {
	text  string
	terms []filterTerm
}

type filterTerm struct{ field, value string }

// ParseFilter parses a breakpoint filter; an empty one is an error (it
// would hold every line: say "kind:" to mean that).
func ParseFilter(s string) (Filter, error) {
	f := Filter{text: strings.TrimSpace(s)}
	for _, w := range strings.Fields(s) {
		field, value, ok := strings.Cut(w, ":")
		switch {
		case ok && field == "dir":
			if value != "in" && value != "out" {
				return Filter{}, fmt.Errorf("filter: dir:%s: want dir:out (to the server) or dir:in (to the host)", value)
			}
		case ok && field == "kind":
			if !strings.HasPrefix("request", value) && !strings.HasPrefix("notification", value) &&
				!strings.HasPrefix("response", value) && !strings.HasPrefix("error", value) {
				return Filter{}, fmt.Errorf("filter: kind:%s: want request, notification, response or error", value)
			}
		case ok && (field == "method" || field == "id"):
		default:
			field, value = "", w
		}
		f.terms = append(f.terms, filterTerm{field, strings.ToLower(value)})
	}
	if len(f.terms) == 0 {
		return Filter{}, fmt.Errorf("filter: empty (a breakpoint on every line is \"kind:\")")
	}
	return f, nil
}

// String is the filter as it was written.
func (f Filter) String() string { return f.text }

// lineEnvelope is what a filter reads of a JSON-RPC line.
type lineEnvelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func (e *lineEnvelope) kind() string {
	switch {
	case e.Method != "" && e.ID != nil:
		return "request"
	case e.Method != "":
		return "notification"
	case e.Error != nil:
		return "error"
	case e.ID != nil:
		return "response"
	}
	return "invalid"
}

// Match reports whether the line (without its newline) going dir passes
// every term.
func (f Filter) Match(dir Direction, line []byte) bool {
	var env *lineEnvelope
	envelope := func() *lineEnvelope {
		if env == nil {
			env = &lineEnvelope{}
			_ = json.Unmarshal(line, env)
		}
		return env
	}
	for _, t := range f.terms {
		var ok bool
		switch t.field {
		case "dir":
			ok = (t.value == "out") == (dir == ToServer)
		case "kind":
			ok = strings.HasPrefix(envelope().kind(), t.value)
		case "method":
			ok = strings.Contains(strings.ToLower(envelope().Method), t.value)
		case "id":
			ok = strings.Trim(string(envelope().ID), `"`) == strings.Trim(t.value, `"`) && envelope().ID != nil
		default:
			ok = containsFold(line, t.value)
		}
		if !ok {
			return false
		}
	}
	return true
}

// containsFold reports whether lowerSub (lower case) is in b, ignoring
// ASCII case.
func containsFold(b []byte, lowerSub string) bool {
	if lowerSub == "" {
		return true
	}
	return bytes.Contains(bytes.ToLower(b), []byte(lowerSub))
}
