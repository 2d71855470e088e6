package tap

import (
	"errors"

	"github.com/mcptui/mcptui/model"
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

// model is the direction as the traffic pane (and its filter) names it:
// out to the server, in from it.
func (d Direction) model() model.Direction {
	if d == ToServer {
		return model.Out
	}
	return model.In
}

// ParseFilter parses a breakpoint filter: the traffic pane's syntax (see
// model.Filter; "dir:out" holds lines to the server, "dir:in" lines to the
// host). A term it cannot match is an error, and so is an empty filter (it
// would hold every line: say "kind:" to mean that).
func ParseFilter(s string) (model.Filter, error) {
	f, err := model.ParseFilter(s)
	if err != nil {
		return model.Filter{}, err
	}
	if f.Empty() {
		return model.Filter{}, errors.New("filter: empty (a breakpoint on every line is \"kind:\")")
	}
	return f, nil
}

// filterDirections are the directions a filter can match.
func filterDirections(f model.Filter) []Direction {
	var dirs []Direction
	for _, d := range f.Directions() {
		if d == model.Out {
			dirs = append(dirs, ToServer)
		} else {
			dirs = append(dirs, ToHost)
		}
	}
	return dirs
}

// lineMatcher reads a line once (as the traffic pane would list it) for
// every filter it is matched against.
type lineMatcher struct {
	dir   Direction
	line  []byte
	entry *model.Entry
}

// match reports whether the line (without its newline) passes f.
func (m *lineMatcher) match(f model.Filter) bool {
	if m.entry == nil {
		e := model.LineEntry(m.dir.model(), m.line)
		m.entry = &e
	}
	return f.Match(m.entry)
}
