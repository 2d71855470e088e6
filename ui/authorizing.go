package ui

import (
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/model"
)

// authorizingStatus is the status line while an OAuth authorization runs
// after the screen opened: "authorizing…", the step it is at (what it
// waits for), and the URL to open when it waits for the browser (all of
// it also in pane 5, where a long URL can be read whole).
func (m *Model) authorizingStatus(a model.Authorizing, w int) string {
	st := m.styles
	text := "authorizing… " + inert.Line(a.Text)
	if a.URL != "" {
		text += " " + inert.Line(a.URL)
	}
	return st.Warn.Render(" " + inert.Fit(text, w-2))
}
