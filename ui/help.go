package ui

import (
	"github.com/charmbracelet/x/ansi"
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/ui/kit"
)

// hereKeys are the keys of the screen inside the focused pane or overlay
// when that screen has its own (the catalog's page, an answer editor), or
// nil to use the context's.
func (m *Model) hereKeys(c keymap.Context) []key.Binding {
	switch {
	case c == keymap.AnswerOverlay && m.rich.answer != nil:
		return m.rich.answer.Keys()
	case (c == keymap.CatalogPane || c == keymap.CatalogInput) && m.rich.explorer != nil:
		return append(m.rich.explorer.Keys(), m.keys.Catalog.Answer)
	case c == keymap.ComposerOverlay:
		return m.composerKeys()
	case c == keymap.ListenOverlay:
		return m.listenKeys()
	case c == keymap.EditorOverlay:
		return m.editorKeys()
	case c == keymap.DialogOverlay && m.helpFrom == overlayVersion:
		return m.versionKeys()
	case c == keymap.DialogOverlay:
		return m.rejectKeys()
	}
	return nil
}

// drawHelp draws the ? help: the sections of the context as columns, as
// many side by side as fit in w, the rest in bands below, so that no
// column falls off a narrow screen.
func (m *Model) drawHelp(w, h int) []string {
	secs := m.keys.Sections(m.helpFor, m.helpHere)
	st := m.styles
	type col struct {
		lines []string
		width int
	}
	var cols []col
	for _, s := range secs {
		kw := 0
		for _, b := range s.Keys {
			kw = max(kw, inert.Width(b.Help().Key))
		}
		c := col{lines: []string{st.Bold.Render(s.Title)}, width: inert.Width(s.Title)}
		for _, b := range s.Keys {
			if !b.Enabled() {
				continue
			}
			k := b.Help().Key
			line := st.Accent.Render(k) + strings.Repeat(" ", kw-inert.Width(k)+1) + st.Text.Render(b.Help().Desc)
			c.width = max(c.width, kw+1+inert.Width(b.Help().Desc))
			c.lines = append(c.lines, line)
		}
		cols = append(cols, c)
	}
	const gap = 3
	var out []string
	for i := 0; i < len(cols); {
		// One band: the columns that fit beside each other.
		j, used := i, 0
		for j < len(cols) && (j == i || used+gap+cols[j].width <= w-1) {
			if j > i {
				used += gap
			}
			used += cols[j].width
			j++
		}
		rows := 0
		for _, c := range cols[i:j] {
			rows = max(rows, len(c.lines))
		}
		for r := range rows {
			var b strings.Builder
			b.WriteString(" ")
			for n, c := range cols[i:j] {
				cell := ""
				if r < len(c.lines) {
					cell = c.lines[r]
				}
				pad := c.width - ansi.StringWidth(cell)
				if n < j-i-1 {
					pad += gap
				}
				b.WriteString(cell + strings.Repeat(" ", max(pad, 0)))
			}
			out = append(out, kit.Fit(b.String(), w))
		}
		out = append(out, kit.Blank(w))
		i = j
	}
	if len(out) > h {
		out = append(out[:h-1], kit.Row(st, w, false, kit.Own(" … more keys: make the terminal taller", w, st.Muted)))
	}
	return out
}
