package ui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"strings"

	"charm.land/bubbles/v2/key"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/ui/kit"
)

// helpOverlay is the ? help: the keys of where the keyboard was when it
// opened (ctx), with that screen's own (here: the catalog's page, an
// editor; nil for the context's).
type helpOverlay struct {
	ctx  keymap.Context
	here []key.Binding
}

// openHelp opens the help on the keys of where the keyboard is, over
// whatever is open: closing it goes back there.
func (m *Model) openHelp() {
	h := &helpOverlay{}
	if o := m.top(); o != nil {
		h.ctx, h.here = o.Context(m), o.Keys(m)
	} else {
		h.ctx = m.paneContext()
		h.here = m.paneHereKeys(h.ctx)
	}
	m.push(h)
}

// paneHereKeys are the keys of the screen inside the focused pane when it
// has its own (the catalog's page), or nil to use the context's.
func (m *Model) paneHereKeys(c keymap.Context) []key.Binding {
	if (c == keymap.CatalogPane || c == keymap.CatalogInput) && m.rich.catalog != nil {
		return append(m.rich.catalog.Keys(), m.keys.Catalog.Answer)
	}
	return nil
}

// Update closes the help on esc, the help key or quit.
func (h *helpOverlay) Update(m *Model, msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, m.keys.Overlay.Close, m.keys.Global.Help, m.keys.Global.Quit) {
		m.closeOverlay(h)
	}
	return nil
}

// Title says how to close it.
func (h *helpOverlay) Title(m *Model) string {
	return "Keys (" + keymap.Hint(keymap.Described(m.keys.Overlay.Close, "closes")) + ")"
}

// View draws the help.
func (h *helpOverlay) View(m *Model, w, ht int) []string { return m.drawHelp(h, w, ht) }

// Context is the focused pane's: the footer under the help lists its keys.
func (h *helpOverlay) Context(m *Model) keymap.Context { return m.paneContext() }

// Keys are none of its own.
func (h *helpOverlay) Keys(*Model) []key.Binding { return nil }

// drawHelp draws the ? help: the sections of the context as columns, as
// many side by side as fit in w, the rest in bands below, so that no
// column falls off a narrow screen.
func (m *Model) drawHelp(hp *helpOverlay, w, h int) []string {
	secs := m.keys.Sections(hp.ctx, hp.here)
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
