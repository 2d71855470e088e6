package attach

import (
	"encoding/json"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/replay"
	"github.com/mcptui/mcptui/internal/tap"
	"github.com/mcptui/mcptui/model"
)

// Messages the feed sends the program.
type (
	// tapMsg is a message of the tap to this viewer (armed, hold,
	// resolved, refused).
	tapMsg struct{ m tap.Message }
	// noteMsg is a note of the tap's (its feed fell behind).
	noteMsg struct{ text string }
	// lostMsg says the viewer skipped count entries.
	lostMsg struct{ count int }
	// endedMsg says the feed ended: the tap stopped, or the connection
	// failed.
	endedMsg struct{ err error }
)

// feedSource is where the feed comes from (a tap.Viewer).
type feedSource interface {
	Next() ([]byte, error)
}

// readHeader reads the feed's first entry, the recording's header.
func readHeader(src feedSource) (record.Entry, error) {
	line, err := src.Next()
	if err != nil {
		return record.Entry{}, fmt.Errorf("attach: reading the tap's feed: %w", err)
	}
	var h record.Entry
	if err := json.Unmarshal(line, &h); err != nil || h.Type != record.TypeHeader || h.Format != record.Format {
		return record.Entry{}, fmt.Errorf("attach: the tap's feed does not start with a recording header")
	}
	return h, nil
}

// follow reads the feed until it ends: recording entries become the
// inspector's events (through the backend), the tap's messages go to the
// program.
func follow(src feedSource, f *replay.Follower, b *replay.Backend, pre *model.Prelinter, send func(tea.Msg)) {
	for {
		line, err := src.Next()
		if err != nil {
			send(endedMsg{err: err})
			return
		}
		var e record.Entry
		if err := json.Unmarshal(line, &e); err != nil {
			continue // not an entry this mcptui reads
		}
		switch e.Type {
		case tap.TypeArmed, tap.TypeHold, tap.TypeResolved, tap.TypeRefused:
			var m tap.Message
			if json.Unmarshal(line, &m) == nil {
				send(tapMsg{m: m})
			}
			continue
		case record.TypeNote:
			if e.Text != nil {
				send(noteMsg{text: *e.Text})
			}
		case record.TypeLost:
			send(lostMsg{count: e.Count})
		}
		if evs := f.Feed(&e); len(evs) > 0 {
			if pre != nil {
				pre.Lint(evs)
			}
			b.Push(evs...)
		}
	}
}
