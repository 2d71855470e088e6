package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/ui/catalog"
)

// handNotes gives the catalog the notifications it acts on (list changes,
// resource updates, task status) that the model gathered from the wire
// since the last batch: the catalog has no feed of its own. Notes of an
// earlier process are not its business (it lists the new one afresh).
func (m *Model) handNotes() tea.Cmd {
	notes, last := m.sess.NotesAfter(m.views.notesSeen)
	m.views.notesSeen = last
	e := m.rich.catalog
	if e == nil {
		return nil
	}
	var cmds []tea.Cmd
	for _, n := range notes {
		if n.Gen == m.rich.catalogGen {
			cmds = append(cmds, e.Update(catalog.NotificationMsg{N: mcp.Notification{Method: n.Method, Params: n.Params}}))
		}
	}
	return tea.Batch(cmds...)
}
