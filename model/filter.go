package model

import (
	"fmt"
	"strings"
)

// Filter is a traffic filter, the one syntax of the traffic pane and of a
// tap's breakpoints: space-separated terms that must all match.
// "dir:out" (a line to the server) and "dir:in" (to the client),
// "kind:error" (a prefix of the kind's name: request, notification,
// response, error, ...), "method:tools/" (a case-insensitive substring of
// the method) and "id:7" select by field; any other word is a
// case-insensitive substring of the method, the id or the summary, or a
// prefix of the kind's name or label ("req", "err").
type Filter struct {
	text  string
	terms []filterTerm
}

type filterTerm struct{ field, value string }

// ParseFilter parses a filter. It always returns one (a term with a value
// it does not know, "dir:up", matches nothing); the error says which term
// that is, for a caller that refuses such a filter.
func ParseFilter(s string) (Filter, error) {
	f := Filter{text: strings.TrimSpace(s)}
	var err error
	for _, w := range strings.Fields(s) {
		field, value, ok := strings.Cut(w, ":")
		switch {
		case ok && (field == "dir" || field == "kind" || field == "method" || field == "id"):
			value = strings.ToLower(value)
			if e := checkTerm(field, value); e != nil && err == nil {
				err = e
			}
			f.terms = append(f.terms, filterTerm{field, value})
		default:
			f.terms = append(f.terms, filterTerm{"", strings.ToLower(w)})
		}
	}
	return f, err
}

// checkTerm says what is wrong with a field term's value.
func checkTerm(field, value string) error {
	switch field {
	case "dir":
		if value != Out.String() && value != In.String() {
			return fmt.Errorf("filter: dir:%s: want dir:out (to the server) or dir:in (from it)", value)
		}
	case "kind":
		for k := KindRequest; k <= KindBatch; k++ {
			if strings.HasPrefix(k.String(), value) {
				return nil
			}
		}
		return fmt.Errorf("filter: kind:%s: want request, notification, response, error, discarded, invalid or batch (or a prefix)", value)
	}
	return nil
}

// String is the filter as it was written (trimmed).
func (f Filter) String() string { return f.text }

// Empty reports whether the filter has no terms (it matches everything).
func (f Filter) Empty() bool { return len(f.terms) == 0 }

// Directions are the directions a line must go to match: both, unless a
// "dir:" term says one.
func (f Filter) Directions() []Direction {
	for _, t := range f.terms {
		if t.field == "dir" {
			switch t.value {
			case Out.String():
				return []Direction{Out}
			case In.String():
				return []Direction{In}
			}
			return nil
		}
	}
	return []Direction{Out, In}
}

// Match reports whether an entry passes every term.
func (f Filter) Match(e *Entry) bool {
	for _, t := range f.terms {
		if !t.match(e) {
			return false
		}
	}
	return true
}

func (t filterTerm) match(e *Entry) bool {
	switch t.field {
	case "dir":
		return e.Dir.String() == t.value
	case "kind":
		return strings.HasPrefix(e.Kind.String(), t.value)
	case "method":
		return strings.Contains(strings.ToLower(e.Method), t.value)
	case "id":
		return strings.Trim(string(e.ID), `"`) == strings.Trim(t.value, `"`)
	}
	return containsFold(e.Method, t.value) || containsFold(string(e.ID), t.value) || containsFold(e.Summary, t.value) ||
		strings.HasPrefix(e.Kind.Label(), t.value) || strings.HasPrefix(e.Kind.String(), t.value)
}

func containsFold(s, lowerSub string) bool {
	return strings.Contains(strings.ToLower(s), lowerSub)
}

// Label is the kind's short name, as the traffic pane lists it.
func (k Kind) Label() string {
	switch k {
	case KindRequest:
		return "req"
	case KindNotification:
		return "note"
	case KindResponse:
		return "resp"
	case KindError:
		return "err"
	case KindDiscarded:
		return "drop"
	case KindInvalid:
		return "bad"
	case KindBoundary:
		return "──"
	case KindBatch:
		return "batch"
	}
	return ""
}

// LineEntry is the traffic entry of one line going dir, read on its own
// (no session: no links, no lint): its kind, id, method and summary, what a
// filter reads. The entry keeps line as its Raw.
func LineEntry(dir Direction, line []byte) Entry {
	e := Entry{Dir: dir, Size: len(line), Raw: line}
	if kind(line) == '[' {
		if _, summary, ok := parseBatch(line); ok {
			e.Kind, e.Summary = KindBatch, summary
			return e
		}
	}
	env := parseEnvelope(line)
	e.Kind, e.ID, e.Method, e.Summary = env.kind, env.id, env.method, summarize(env)
	return e
}
