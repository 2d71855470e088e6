package model

import (
	"encoding/json"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Notes are the server notifications the catalog acts on (list changes,
// resource updates, task status), kept for the UI to hand to it: the
// catalog has no notification feed of its own, it reads the model like
// every other view. Bounded: the UI hands them over after each batch, and
// a catalog that misses some lists again anyway.

// maxNotes is how many notes are kept.
const maxNotes = 256

// Note is one server notification for the catalog.
type Note struct {
	// N numbers the notes from 1.
	N      uint64
	Gen    int
	Method string
	Params json.RawMessage
}

// notesFor are the methods noted.
var notesFor = map[string]bool{
	protocol.NotificationToolsChanged:     true,
	protocol.NotificationPromptsChanged:   true,
	protocol.NotificationResourcesChanged: true,
	protocol.NotificationResourceUpdated:  true,
	protocol.NotificationTaskStatus:       true,
	protocol.NotificationTasks:            true,
}

// note keeps a notification the catalog acts on.
func (s *Session) note(method string, params []byte) {
	if !notesFor[method] || member(member(params, "_meta"), subscriptionIDKey) != nil {
		// One a subscription claimed goes to its subscriber.
		return
	}
	s.noteN++
	s.notes = append(s.notes, Note{N: s.noteN, Gen: s.conn.Gen, Method: method, Params: clone(clipNote(params))})
	if len(s.notes) > maxNotes {
		s.notes = append(s.notes[:0:0], s.notes[len(s.notes)-maxNotes/2:]...)
	}
}

// clipNote bounds a note's params (a task status is small; anything
// huge is not kept whole).
func clipNote(params []byte) []byte {
	if len(params) > 64<<10 {
		return nil
	}
	return params
}

// NotesAfter are the notes numbered after n, oldest first, and the
// number of the newest note (pass it next time).
func (s *Session) NotesAfter(n uint64) ([]Note, uint64) {
	i := len(s.notes)
	for i > 0 && s.notes[i-1].N > n {
		i--
	}
	return s.notes[i:], s.noteN
}
