package composer

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/kit"
)

// composerLine is one line field of the composer (method, target,
// timeout): kit's LineEdit, the one line editor that draws its text inert
// (a tool name or URI from the server never reaches the terminal raw), with
// its placeholder, width and focus.
type composerLine struct {
	edit        kit.LineEdit
	placeholder string
	width       int
	focused     bool
}

// Value is the text.
func (l *composerLine) Value() string { return l.edit.Value() }

// SetValue replaces the text, the cursor at its end.
func (l *composerLine) SetValue(s string) { l.edit.Set(s) }

// SelectAll selects a prefilled text: typing replaces it, moving keeps it.
func (l *composerLine) SelectAll() { l.edit.SelectAll() }

// Focus and Blur say whether the cursor is in the field.
func (l *composerLine) Focus() { l.focused = true }

// Blur takes the cursor out of the field.
func (l *composerLine) Blur() { l.focused = false }

// SetWidth is the width the field is drawn in.
func (l *composerLine) SetWidth(w int) { l.width = w }

// update applies a key of t (keymap.Text) or a paste.
func (l *composerLine) update(msg tea.Msg, t keymap.Text) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		l.edit.Key(msg, t)
	case tea.PasteMsg:
		l.edit.Insert(msg.Content)
	}
}

// view draws the field as the forms draw theirs.
func (l *composerLine) view(st *themes.Styles) string {
	return l.edit.View(l.width, l.focused, st.Text, st.Selected, st.Muted, l.placeholder)
}
