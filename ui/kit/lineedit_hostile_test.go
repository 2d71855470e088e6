package kit

import (
	"testing"

	"charm.land/lipgloss/v2"

	"github.com/mcptui/mcptui/internal/inert/inerttest"
)

// TestLineEditDrawsHostileValuesInert: a value from the server (a tool's
// string default, an elicitation default) with escape sequences, C1
// controls, bidi overrides or invisible characters is drawn escaped in
// every state of the editor: unfocused, focused with the cursor at either
// end, and selected (a prefill, as a form opens).
func TestLineEditDrawsHostileValuesInert(t *testing.T) {
	st := lipgloss.NewStyle().Bold(true)
	cur := lipgloss.NewStyle().Reverse(true)
	ph := lipgloss.NewStyle().Faint(true)
	for _, name := range inerttest.Names() {
		s := inerttest.Hostile[name]
		for _, w := range []int{4, 12, 80} {
			states := map[string]func() LineEdit{
				"unfocused":  func() LineEdit { return NewLineEdit(s) },
				"cursor-end": func() LineEdit { return NewLineEdit(s) },
				"cursor-home": func() LineEdit {
					e := NewLineEdit(s)
					e.pos = 0
					return e
				},
				"selected": func() LineEdit {
					e := NewLineEdit(s)
					e.SelectAll()
					return e
				},
			}
			for state, mk := range states {
				e := mk()
				out := e.View(w, state != "unfocused", st, cur, ph, "type here")
				if err := inerttest.Drawn(out); err != nil {
					t.Errorf("%s, %s, width %d: %v", name, state, w, err)
				}
				// (Invalid bytes became U+FFFD when the value became runes.)
				if w == 80 && name != "invalid-utf8" && !inerttest.Spelled(out) {
					t.Errorf("%s, %s: the escapes are not shown: %q", name, state, out)
				}
			}
		}
	}
}
