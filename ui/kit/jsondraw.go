package kit

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/themes"
)

// Drawing a JSONView: the outline face draws visible lines by number
// (Lines, DrawLine), the lazy face the JSON text from a column (Rows).
// Server text goes through inert either way.

// Lines draws h outline lines of width w around the cursor (highlighted
// when focused).
func (v *JSONView) Lines(st *themes.Styles, w, h int, focused bool) []string {
	vis := v.outline()
	cur := v.Cursor()
	v.offset = Window(v.offset, cur, len(vis), h)
	var out []string
	for k := v.offset; k < len(vis) && len(out) < h; k++ {
		out = append(out, v.outlineRow(st, vis[k], w, focused && k == cur))
	}
	return Pad(out, w, h)
}

// DrawLine draws visible outline line k (0 <= k < Len) in w cells.
func (v *JSONView) DrawLine(st *themes.Styles, k, w int, sel bool) string {
	vis := v.outline()
	if k < 0 || k >= len(vis) {
		return Blank(w)
	}
	return v.outlineRow(st, vis[k], w, sel)
}

// outlineRow draws doc line i as the outline shows it.
func (v *JSONView) outlineRow(st *themes.Styles, i, w int, sel bool) string {
	d := v.doc
	ln := &d.lines[i]
	depth := min(int(ln.depth), 20)
	segs := []Seg{Own(strings.Repeat("  ", depth), depth*2, st.Text)}
	gutter := "  "
	if ln.kind == lineOpen {
		gutter = "▾ "
		if v.folded[i] {
			gutter = "▸ "
		}
	}
	segs = append(segs, Txt(gutter, st.Muted))
	if label := v.itemLabel(i); label != "" {
		segs = append(segs, Txt(label, st.Muted))
	} else if k := d.key(i); k != nil {
		segs = append(segs, SrvFree(quotedKey(k), max(w/2, 8), st.JSONKey), Txt(": ", st.JSONPunct))
	}
	switch ln.kind {
	case lineClose, lineEmpty:
		segs = append(segs, Txt(string(d.val(i)), st.JSONPunct))
	case lineOpen:
		if v.folded[i] {
			unit := "keys"
			if ln.brace == '[' {
				unit = "items"
			}
			segs = append(segs, Txt(string(ln.brace)+"…"+string(closer(jsontext.Kind(ln.brace))), st.JSONPunct),
				Txt(fmt.Sprintf("  %d %s", ln.count, unit), st.Muted))
		} else {
			segs = append(segs, Txt(string(ln.brace), st.JSONPunct))
		}
	default:
		val := d.val(i)
		sty := valueStyle(st.JSONString, st.JSONNumber, st.JSONLiteral, st.JSONPunct, val)
		segs = append(segs, SrvFree(inert.Clip(string(val), maxScalar), max(w-2*int(ln.depth)-10, 8), sty))
		if len(val) > maxScalar {
			segs = append(segs, Txt(fmt.Sprintf("  (%d bytes)", len(val)), st.Muted))
		}
	}
	return Row(st, w, sel, segs...)
}

// maxIndent caps the lazy face's indentation so deep nesting stays
// readable.
const maxIndent = 40

// Rows draws h lines of the lazy face from column left, w cells wide,
// keeping the cursor in view; it reads only the lines it draws.
func (v *JSONView) Rows(st *themes.Styles, left, w, h int) []string {
	d := v.doc
	d.ensure(1)
	var out []string
	if len(d.lines) > 0 {
		v.cursor = min(v.cursor, len(d.lines)-1)
		v.scroll(h)
		for i, ok := v.top, true; ok && len(out) < h; i, ok = v.after(i) {
			out = append(out, v.textRow(st, i, left, w, i == v.cursor))
		}
	}
	for len(out) < h {
		out = append(out, strings.Repeat(" ", w))
	}
	return out
}

// Status says where the cursor is: "line 3 of 40" (+ while the document
// is still unread), how many containers are folded, and the document's
// error if it is not valid JSON; text reports a source that is not JSON.
func (v *JSONView) Status() (s string, text bool) {
	d := v.doc
	n, done := d.complete()
	more := "+"
	if done {
		more = ""
	}
	s = fmt.Sprintf("line %d of %d%s", v.cursor+1, n, more)
	if len(v.folded) > 0 {
		s += fmt.Sprintf(" · %d folded", len(v.folded))
	}
	if d.err != nil {
		s += " · not valid JSON past here: " + d.err.Error()
	}
	return s, d.text
}

// textRow draws doc line i as JSON text from column left, w cells wide;
// sel draws it as the cursor's line.
func (v *JSONView) textRow(st *themes.Styles, i, left, w int, sel bool) string {
	d := v.doc
	d.ensure(i + 2) // the comma is known once the next line is
	ln := d.lines[i]
	if ln.kind == lineText {
		return SliceRow(st, []Seg{Txt(string(d.val(i)), st.Text)}, left, w, sel)
	}
	parts := []Seg{Txt(strings.Repeat("  ", min(int(ln.depth), maxIndent)), st.Text)}
	if k := d.key(i); k != nil {
		parts = append(parts, Txt(string(k), st.JSONKey), Txt(": ", st.JSONPunct))
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
		parts = append(parts, Txt(string(ln.brace)+" … "+string(closer(jsontext.Kind(ln.brace))), st.JSONPunct))
		d.ensure(int(ln.end) + 2)
		comma = d.hasComma(int(ln.end))
		if comma {
			parts = append(parts, Txt(",", st.JSONPunct))
			comma = false
		}
		parts = append(parts, Txt(fmt.Sprintf("  %d %s", ln.count, what), st.Muted))
	} else {
		val := d.val(i)
		parts = append(parts, Txt(string(val), valueStyle(st.JSONString, st.JSONNumber, st.JSONLiteral, st.JSONPunct, val)))
	}
	if comma {
		parts = append(parts, Txt(",", st.JSONPunct))
	}
	return SliceRow(st, parts, left, w, sel)
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

// SliceRow draws raw segments (server text, escaped here) from column
// left, w cells wide; sel draws the whole row in the selection style. A
// huge segment is never measured whole: it is assumed to fill the rest of
// the line.
func SliceRow(st *themes.Styles, parts []Seg, left, w int, sel bool) string {
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
		if st.Palette.Mono {
			text = "▌" + ansi.Truncate(text, w-1, "")
		}
		return st.Selected.Render(text)
	}
	return b.String()
}

const hugeWidth = 1 << 30
