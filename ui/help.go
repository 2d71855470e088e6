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
	var cols []helpCol
	for _, s := range secs {
		kw := 0
		for _, b := range s.Keys {
			if b.Enabled() {
				kw = max(kw, inert.Width(b.Help().Key))
			}
		}
		c := helpCol{lines: []string{st.Bold.Render(s.Title)}, width: inert.Width(s.Title)}
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
	for _, band := range packHelp(cols, w-1, h-1, gap) {
		rows := 0
		for _, c := range band {
			rows = max(rows, len(c.lines))
		}
		for r := range rows {
			var b strings.Builder
			b.WriteString(" ")
			for n, c := range band {
				cell := ""
				if r < len(c.lines) {
					cell = c.lines[r]
				}
				pad := c.width - ansi.StringWidth(cell)
				if n < len(band)-1 {
					pad += gap
				}
				b.WriteString(cell + strings.Repeat(" ", max(pad, 0)))
			}
			out = append(out, kit.Fit(b.String(), w))
		}
		out = append(out, kit.Blank(w))
	}
	if len(out) > h {
		out = append(out[:h-1], kit.Row(st, w, false, kit.Own(" … more keys: make the terminal taller", w, st.Muted)))
	}
	return out
}

// helpCol is one section of the help: its lines and its width.
type helpCol struct {
	lines []string
	width int
}

// packHelp lays the sections out in bands of columns side by side within w:
// a section that does not fit beside the others goes under the band's
// shortest column when the band then stays within maxRows (or no taller
// than it is), else it starts the next band.
func packHelp(cols []helpCol, w, maxRows, gap int) [][]helpCol {
	var bands [][]helpCol
	var band []helpCol
	used := func(b []helpCol) int {
		n := 0
		for i, c := range b {
			if i > 0 {
				n += gap
			}
			n += c.width
		}
		return n
	}
	for _, c := range cols {
		if len(band) == 0 || used(band)+gap+c.width <= w {
			band = append(band, c)
			continue
		}
		rows := 0
		for _, b := range band {
			rows = max(rows, len(b.lines))
		}
		short := 0
		for i := range band {
			if len(band[i].lines) < len(band[short].lines) {
				short = i
			}
		}
		s := &band[short]
		grown := used(band) - s.width + max(s.width, c.width)
		if len(s.lines)+1+len(c.lines) <= max(rows, maxRows) && grown <= w {
			s.lines = append(append(s.lines, ""), c.lines...)
			s.width = max(s.width, c.width)
		} else {
			bands = append(bands, band)
			band = []helpCol{c}
		}
	}
	if len(band) > 0 {
		bands = append(bands, band)
	}
	return bands
}
