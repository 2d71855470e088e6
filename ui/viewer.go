package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/mcptui/mcptui/inert"
	"github.com/mcptui/mcptui/model"
)

// viewer shows one traffic entry pretty-printed, virtualized: only the
// visible lines are formatted, and only the visible cells of each line are
// escaped and drawn.
type viewer struct {
	entry     model.Entry // a copy: the history may evict the original
	doc       *doc
	top, left int
}

func newViewer(e *model.Entry) *viewer {
	return &viewer{entry: *e, doc: newDoc(e.Raw)}
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

// draw renders the viewer's body: h-1 lines of document and a position
// line.
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
		return []string{m.row(w, false, srv(" "+msg, w, st.Muted))}
	}
	bodyH := max(h-1, 1)
	v.doc.ensure(v.top + bodyH + 1)
	n, done := v.doc.complete()
	v.top = min(v.top, max(n-1, 0))
	var out []string
	for i := v.top; i < n && len(out) < bodyH; i++ {
		out = append(out, m.docRow(v.doc, i, v.left, w))
	}
	for len(out) < bodyH {
		out = append(out, strings.Repeat(" ", w))
	}
	pos := fmt.Sprintf(" lines %d–%d of %d", v.top+1, min(v.top+bodyH, n), n)
	if !done {
		pos = fmt.Sprintf(" lines %d–%d of %d+", v.top+1, min(v.top+bodyH, n), n)
	}
	if v.left > 0 {
		pos += fmt.Sprintf(" · column %d", v.left+1)
	}
	if v.doc.err != nil {
		pos += " · not valid JSON past here: " + v.doc.err.Error()
	}
	out = append(out, m.row(w, false, own(pos, w, st.Muted)))
	return out
}

// docRow draws line i of a document from column left, w cells wide.
func (m *Model) docRow(d *doc, i, left, w int) string {
	st := m.styles
	ln := d.lines[i]
	if d.text {
		return m.row(w, false, seg{inert.Pad(inert.Slice(string(ln.val), left, w), w), st.Text})
	}
	var parts []seg
	parts = append(parts, seg{strings.Repeat("  ", min(ln.depth, maxIndent)), st.Text})
	if ln.key != nil {
		parts = append(parts, seg{string(ln.key), st.JSONKey}, seg{": ", st.JSONPunct})
	}
	parts = append(parts, seg{string(ln.val), valueStyle(st.JSONString, st.JSONNumber, st.JSONLiteral, st.JSONPunct, ln.val)})
	if d.hasComma(i) {
		parts = append(parts, seg{",", st.JSONPunct})
	}
	return m.sliceRow(parts, left, w)
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
// w cells wide. A huge segment is never measured whole: it is assumed to
// fill the rest of the line.
func (m *Model) sliceRow(parts []seg, left, w int) string {
	var b strings.Builder
	used := 0
	skip := left
	for _, p := range parts {
		if used >= w {
			break
		}
		width := hugeWidth
		if len(p.s) <= 4096 {
			width = inert.Width(p.s)
		}
		if skip >= width {
			skip -= width
			continue
		}
		piece := inert.Slice(p.s, skip, w-used)
		skip = 0
		used += inert.Width(piece)
		b.WriteString(p.st.Render(piece))
	}
	if used < w {
		b.WriteString(strings.Repeat(" ", w-used))
	}
	return b.String()
}

const hugeWidth = 1 << 30
