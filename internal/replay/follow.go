package replay

import (
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/model"
)

// Follower turns the entries of a recording that is still being written
// (a tap's live feed) into model events one entry at a time, as Events does
// for a whole recording. It finds readiness and the server's questions in
// the lines. It is not safe for concurrent use.
type Follower struct {
	q  *questions
	rd *readiness
}

// NewFollower starts following the recording whose header is h; the events
// it returns are the session starting.
func NewFollower(h record.Entry) (*Follower, []model.Event) {
	f := &Follower{q: newQuestions(), rd: &readiness{requests: map[string]string{}}}
	command := append([]string{h.Command}, h.Args...)
	return f, []model.Event{model.Started{Stamp: model.Stamp{Time: h.Time}, Command: command}}
}

// Feed returns the events of the next entry.
func (f *Follower) Feed(e *record.Entry) []model.Event {
	if e.Type == record.TypeReady {
		f.rd = nil // the recording says when it is ready itself
	}
	return entryEvents(e, f.q, f.rd)
}
