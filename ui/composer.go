package ui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/ui/composer"
)

// The new-request dialog is package ui/composer, an overlay of the model.

// openComposer opens the new-request dialog: the last request stays, to
// send again or change; typing starts at the method.
func (m *Model) openComposer() tea.Cmd {
	if m.composer == nil {
		m.composer = composer.New[*Model](m.sess.Config().Timeout)
	}
	cmd := m.composer.Open(m)
	m.show(m.composer)
	return cmd
}

// offerArrived gives the composer what the server offers.
func (m *Model) offerArrived(msg composer.OfferMsg) {
	if m.composer != nil {
		m.composer.OfferArrived(m, msg)
	}
}
