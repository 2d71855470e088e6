package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// viewer shows one traffic entry pretty-printed, with folding, virtualized:
// only the visible lines are formatted, and only the visible cells of each
// line are escaped and drawn.
type viewer struct {
	entry model.Entry // a copy: the history may evict the original
	doc   *doc
	// top and cursor are doc line indices of visible lines; left is the
	// horizontal scroll in cells.
	top, cursor, left int
	// folded are the open lines whose insides are hidden.
	folded map[int]bool
}

func newViewer(e *model.Entry) *viewer {
	return &viewer{entry: *e, doc: newDoc(e.Raw), folded: map[int]bool{}}
}

// maxIndent caps the indentation so deep nesting stays readable.
const maxIndent = 40

// viewerTitle says what is open.
func (v *viewer) title() string {
	e := &v.entry
	dir := "→"
	if e.Dir == model.In {
		dir = "←"
	}
	s := fmt.Sprintf("#%d %s %s · %s", e.Seq, dir, e.Kind, model.FormatSize(e.Size))
	if e.Seq == 0 {
		s = model.FormatSize(e.Size)
	}
	if len(e.ID) > 0 {
		s += " · id " + inert.Fit(string(e.ID), 16)
	}
	if e.Method != "" {
		s += " · " + inert.Fit(e.Method, 30)
	}
	if e.Link != 0 {
		s += fmt.Sprintf(" · ↔ #%d", e.Link)
	}
	return s
}

// drawViewer renders the viewer's body: h-1 lines of document and a
// position line.
func (m *Model) drawViewer(v *viewer, w, h int) []string {
	st := m.styles
	e := &v.entry
	if e.Raw == nil {
		msg := "this line was not kept"
		switch {
		case e.Kind == model.KindDiscarded:
			msg = "discarded (" + e.Reason + "): the line was not kept"
		case e.Size > 0:
			msg = "the line (" + model.FormatSize(e.Size) + ") is larger than the history cap and was not kept"
		}
		return []string{kit.Row(m.styles, w, false, kit.Srv(" "+msg, w, st.Muted))}
	}
	bodyH := max(h-1, 1)
	d := v.doc
	d.ensure(1)
	var out []string
	if len(d.lines) > 0 {
		v.cursor = min(v.cursor, len(d.lines)-1)
		v.scroll(bodyH)
		for i, ok := v.top, true; ok && len(out) < bodyH; i, ok = v.after(i) {
			out = append(out, m.docRow(v, i, w, i == v.cursor))
		}
	}
	for len(out) < bodyH {
		out = append(out, strings.Repeat(" ", w))
	}
	n, done := d.complete()
	more := "+"
	if done {
		more = ""
	}
	pos := fmt.Sprintf(" line %d of %d%s", v.cursor+1, n, more)
	if len(v.folded) > 0 {
		pos += fmt.Sprintf(" · %d folded", len(v.folded))
	}
	if v.left > 0 {
		pos += fmt.Sprintf(" · column %d", v.left+1)
	}
	if d.err != nil {
		pos += " · not valid JSON past here: " + d.err.Error()
	}
	if !d.text {
		pos += " · space folds"
	}
	out = append(out, kit.Row(m.styles, w, false, kit.Own(pos, w, st.Muted)))
	return out
}

// docRow draws line i of the viewer's document from its column left, w
// cells wide; sel draws it as the cursor's line.
func (m *Model) docRow(v *viewer, i, w int, sel bool) string {
	st := m.styles
	d := v.doc
	d.ensure(i + 2) // the comma is known once the next line is
	ln := d.lines[i]
	if ln.kind == lineText {
		return m.sliceRow([]kit.Seg{kit.Txt(string(d.val(i)), st.Text)}, v.left, w, sel)
	}
	parts := []kit.Seg{kit.Txt(strings.Repeat("  ", min(int(ln.depth), maxIndent)), st.Text)}
	if k := d.key(i); k != nil {
		parts = append(parts, kit.Txt(string(k), st.JSONKey), kit.Txt(": ", st.JSONPunct))
	}
	comma := d.hasComma(i)
	if v.folded[i] && ln.end >= 0 {
		what := "members"
		if ln.brace == '[' {
			what = "items"
		}
		if ln.count == 1 {
			what = what[:len(what)-1]
		}
		parts = append(parts, kit.Txt(string(ln.brace)+" … "+string(closer(jsontext.Kind(ln.brace))), st.JSONPunct))
		d.ensure(int(ln.end) + 2)
		comma = d.hasComma(int(ln.end))
		if comma {
			parts = append(parts, kit.Txt(",", st.JSONPunct))
			comma = false
		}
		parts = append(parts, kit.Txt(fmt.Sprintf("  %d %s", ln.count, what), st.Muted))
	} else {
		val := d.val(i)
		parts = append(parts, kit.Txt(string(val), valueStyle(st.JSONString, st.JSONNumber, st.JSONLiteral, st.JSONPunct, val)))
	}
	if comma {
		parts = append(parts, kit.Txt(",", st.JSONPunct))
	}
	return m.sliceRow(parts, v.left, w, sel)
}

// valueStyle picks the style of a raw JSON value by its first byte.
func valueStyle(str, num, lit, punct lipgloss.Style, v []byte) lipgloss.Style {
	if len(v) == 0 {
		return punct
	}
	switch c := v[0]; {
	case c == '"':
		return str
	case c == '-' || (c >= '0' && c <= '9'):
		return num
	case c == 't' || c == 'f' || c == 'n':
		return lit
	}
	return punct
}

// sliceRow draws raw segments (server text, escaped here) from column left,
// w cells wide; sel draws the whole row in the selection style. A huge
// segment is never measured whole: it is assumed to fill the rest of the
// line.
func (m *Model) sliceRow(parts []kit.Seg, left, w int, sel bool) string {
	var b strings.Builder
	used := 0
	skip := left
	for _, p := range parts {
		if used >= w {
			break
		}
		width := hugeWidth
		if len(p.S) <= 4096 {
			width = inert.Width(p.S)
		}
		if skip >= width {
			skip -= width
			continue
		}
		piece := inert.Slice(p.S, skip, w-used)
		skip = 0
		used += inert.Width(piece)
		if sel {
			b.WriteString(piece)
		} else {
			b.WriteString(p.St.Render(piece))
		}
	}
	if used < w {
		b.WriteString(strings.Repeat(" ", w-used))
	}
	if sel {
		text := b.String()
		if m.styles.Palette.Mono {
			text = "▌" + ansi.Truncate(text, w-1, "")
		}
		return m.styles.Selected.Render(text)
	}
	return b.String()
}

const hugeWidth = 1 << 30
