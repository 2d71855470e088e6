package ui

import (
	"encoding/json"

	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/viewer"
)

// The JSON viewer is package ui/viewer, an overlay of the model; these
// open it.

// openSeq opens the viewer on a traffic entry, if it is still kept.
func (m *Model) openSeq(seq uint64) {
	e := m.sess.History().BySeq(seq)
	if e == nil {
		m.say(true, "that line is no longer in the history")
		return
	}
	m.openEntry(e)
}

// openEntry opens the viewer on an entry.
func (m *Model) openEntry(e *model.Entry) {
	m.show(viewer.New[*Model](e))
}

// openRaw opens the viewer on a piece of JSON that is not a traffic line.
func (m *Model) openRaw(title string, raw json.RawMessage) {
	m.show(viewer.New[*Model](&model.Entry{Raw: raw, Size: len(raw), Method: title}))
}

// orNull is raw, or JSON null when there is none.
func orNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}
