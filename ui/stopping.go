package ui

import (
	"fmt"

	"github.com/mcptui/mcptui/internal/inert"
)

// stoppingFooter replaces the keys with the stage of a shutdown while the
// server is being stopped (for a quit or a restart): which signal was sent,
// what is awaited.
func (m *Model) stoppingFooter(w int) (string, bool) {
	c := m.sess.Conn()
	if c.Stopping == "" {
		return "", false
	}
	msg := " stopping the server"
	if c.PID != 0 {
		msg += fmt.Sprintf(" (pid %d)", c.PID)
	}
	msg += ": " + c.Stopping + "…"
	return m.styles.Warn.Render(inert.Pad(inert.Fit(msg, w), w)), true
}
