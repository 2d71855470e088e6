package form

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/schemaform"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/ui/kit"
)

// helpLines is how many lines the help under the fields takes.
const helpLines = 4

// rememberedTag marks a field filled from the last call.
const rememberedTag = "  ↺ last call"

// View draws the form in exactly h lines of w cells: the fields (scrolled
// to keep the cursor in view) with their errors, and the help of the field
// under the cursor.
func (m *Model) View(w, h int) []string {
	st := m.st
	m.scroll = kit.Scroll{}
	if m.raw {
		return m.rawView(w, h)
	}
	var out []string
	for _, e := range m.orphanErrors() {
		out = append(out, kit.Row(st, w, false, kit.Txt(" ✗ ", st.Error), kit.SrvFree(e.Error(), w-3, st.Error)))
	}
	bodyH := max(h-helpLines-len(out), 1)
	if len(m.rows) == 0 {
		out = append(out, kit.Row(st, w, false, kit.Own("  (nothing to fill in)", w, st.Muted)))
		return kit.Pad(append(kit.Pad(out, w, h-helpLines), m.help(w)...), w, h)
	}
	// Each row is one line, plus one per error on it. Only the rows in
	// view are drawn: a form can have thousands.
	labelW := m.labelWidth(w)
	errsOf := func(r row) []schemaform.FieldError {
		if r.kind != rowField || len(m.errs) == 0 {
			return nil
		}
		return m.errs.At(r.path)
	}
	total, cursorLine, cursorLines := 0, 0, 1
	for i, r := range m.rows {
		n := 1 + len(errsOf(r))
		if i == m.cursor {
			cursorLine, cursorLines = total, n
		}
		total += n
	}
	// Keep the cursor's row and its errors in view.
	m.offset = kit.Window(m.offset, cursorLine+cursorLines-1, total, bodyH)
	m.offset = min(m.offset, cursorLine)
	line := 0
	for i, r := range m.rows {
		errs := errsOf(r)
		if line+1+len(errs) <= m.offset {
			line += 1 + len(errs)
			continue
		}
		if line >= m.offset+bodyH {
			break
		}
		lines := []string{m.rowLine(r, w, labelW, i == m.cursor && !m.blurred)}
		for _, e := range errs {
			pad := labelW + 3
			lines = append(lines, kit.Row(st, w, false, kit.Own("", pad, st.Text),
				kit.Txt("✗ ", st.Error), kit.SrvFree(e.Message, w-pad-2, st.Error)))
		}
		for _, l := range lines {
			if line >= m.offset && line < m.offset+bodyH {
				out = append(out, l)
			}
			line++
		}
	}
	out = kit.Pad(out, w, h-helpLines)
	m.scroll = kit.Scroll{Above: m.offset, Below: max(total-m.offset-bodyH, 0)}
	return append(out, m.help(w)...)
}

// labelWidth is the width of the label column.
func (m *Model) labelWidth(w int) int {
	return min(m.labelCols, max(w*2/5, 8))
}

// widestLabel is the label column's width before the screen limits it,
// measured once per rebuild rather than per frame.
func (m *Model) widestLabel() int {
	lw := 10
	for _, r := range m.rows {
		if r.kind == rowField {
			lw = max(lw, 2*r.depth+inert.Width(r.label)+4)
		}
	}
	return lw
}

// rowLine draws one row.
func (m *Model) rowLine(r row, w, labelW int, focused bool) string {
	st := m.st
	gutter, gst := "  ", st.Muted
	if focused {
		gutter, gst = "▶ ", st.Accent
	}
	indent := strings.Repeat("  ", min(r.depth, 12))
	lst := st.Text
	if focused {
		lst = st.Bold.Foreground(st.Accent.GetForeground())
	}
	switch r.kind {
	case rowAdd:
		return kit.Row(st, w, false, kit.Txt(gutter, gst), kit.Txt(indent, st.Text), kit.Txt("+ add an item", m.pickStyle(focused)))
	case rowOption:
		mark := "( ) "
		chosen := r.v.Choice == r.index && r.v.Set
		if r.v.Field.Kind == schemaform.Multi {
			mark, chosen = "[ ] ", r.v.Picked[r.index]
			if chosen {
				mark = "[x] "
			}
		} else if chosen {
			mark = "(•) "
		}
		o := r.v.Field.Options[r.index]
		segs := []kit.Seg{kit.Txt(gutter, gst), kit.Txt(indent, st.Text), kit.Txt(mark, m.pickStyle(chosen)), kit.SrvFree(o.Label, w/2, lst)}
		if o.Titled {
			segs = append(segs, kit.Txt("  ", st.Text), kit.SrvFree(string(o.Value), w/3, st.Muted))
		}
		return kit.Row(st, w, false, segs...)
	}
	f := r.v.Field
	label := kit.SrvFree(r.label, max(labelW-2*r.depth-4, 1), lst)
	req := ""
	if f.Required {
		req = " *"
	}
	used := 2 + len(indent) + ansi.StringWidth(label.S) + len(req)
	pad := strings.Repeat(" ", max(labelW+2-used, 1))
	valW := max(w-max(used+len(pad), labelW+3), 1)
	var tag kit.Seg
	if m.isRemembered(r.v) && valW > 2*inert.Width(rememberedTag) {
		// Filled from the last call (the form's header says so too).
		valW -= inert.Width(rememberedTag)
		tag = kit.Txt(rememberedTag, st.Muted)
	}
	return kit.Row(st, w, false, kit.Txt(gutter, gst), kit.Txt(indent, st.Text), label,
		kit.Txt(req, st.Warn), kit.Txt(pad, st.Text), kit.Seg{S: m.valueText(r, valW, focused), St: st.Text}, tag)
}

// pickStyle is the style of a check box or radio button.
func (m *Model) pickStyle(on bool) lipglossStyle {
	if on {
		return m.st.OK
	}
	return m.st.Muted
}

// valueText draws a field's value in w cells (styled, safe).
func (m *Model) valueText(r row, w int, focused bool) string {
	st := m.st
	v, f := r.v, r.v.Field
	if v.Null {
		return st.JSONLiteral.Render("null") + st.Muted.Render(inert.Truncate("  "+keymap.Hint(keymap.Described(m.keys.Form.Null, "not null")), max(w-4, 0), ""))
	}
	switch f.Kind {
	case schemaform.String, schemaform.Number, schemaform.Integer, schemaform.Raw:
		if focused {
			return m.edit.View(w, true, st.Text, st.Selected, st.Muted, m.placeholder(f))
		}
		if !v.Set {
			return st.Muted.Render(inert.Truncate(m.placeholder(f), w, "…"))
		}
		sty, text := st.Text, v.Text
		if f.Kind == schemaform.Number || f.Kind == schemaform.Integer {
			sty, text = st.JSONNumber, kit.NumberText(text)
		}
		return sty.Render(inert.Fit(text, w))
	case schemaform.Boolean:
		switch {
		case !v.Set:
			return st.Muted.Render("[ ] (not set)")
		case v.Bool:
			return st.OK.Render("[x]") + st.Text.Render(" true")
		}
		return st.Muted.Render("[ ]") + st.Text.Render(" false")
	case schemaform.Enum:
		if v.Choice < 0 || !v.Set {
			return st.Muted.Render(inert.Truncate(fmt.Sprintf("‹ none › %d options: %s/%s or %s", len(f.Options), m.keys.Form.Left.Help().Key, m.keys.Form.Right.Help().Key, m.keys.Form.Choose.Help().Key), w, "…"))
		}
		o := f.Options[v.Choice]
		s := st.Accent.Render("‹ ") + st.Text.Render(inert.Fit(o.Label, max(w/2, 4))) + st.Accent.Render(" ›")
		if o.Titled {
			s += st.Muted.Render(" ") + st.Muted.Render(inert.Fit(string(o.Value), max(w/3, 4)))
		}
		return s
	case schemaform.Multi:
		n := 0
		for _, p := range v.Picked {
			if p {
				n++
			}
		}
		if !v.Set {
			return st.Muted.Render(fmt.Sprintf("none picked (of %d)", len(f.Options)))
		}
		return st.Text.Render(fmt.Sprintf("%d of %d picked", n, len(f.Options)))
	case schemaform.Array:
		if !v.Set {
			return st.Muted.Render("(left out)  " + keymap.Hint(keymap.Described(m.keys.Form.Choose, "adds an item")))
		}
		if len(v.Items) == 1 {
			return st.Text.Render("1 item")
		}
		return st.Text.Render(fmt.Sprintf("%d items", len(v.Items)))
	case schemaform.Object:
		if !v.Present() {
			return st.Muted.Render("(left out)  fill a field or press " + m.keys.Form.Choose.Help().Key)
		}
		return st.Muted.Render("{…}")
	case schemaform.Union:
		vv := v.Variant()
		if vv == nil {
			return st.Muted.Render(fmt.Sprintf("‹ pick one of %d › %s/%s", len(f.Variants), m.keys.Form.Left.Help().Key, m.keys.Form.Right.Help().Key))
		}
		return st.Accent.Render("‹ ") + st.Text.Render(inert.Fit(variantLabel(f, v.Choice), max(w-4, 4))) + st.Accent.Render(" ›")
	}
	return ""
}

// variantLabel names a union's variant: its title, else its kind.
func variantLabel(f *schemaform.Field, i int) string {
	vf := f.Variants[i]
	if vf.Title != "" {
		return vf.Title
	}
	if vf.Kind == schemaform.Object && len(vf.Fields) > 0 {
		names := make([]string, 0, len(vf.Fields))
		for _, c := range vf.Fields {
			names = append(names, c.Name)
		}
		return "{" + strings.Join(names, ", ") + "}"
	}
	return vf.Kind.String()
}

// placeholder is what an empty text field shows.
func (m *Model) placeholder(f *schemaform.Field) string {
	now := m.keys.Form.Now
	switch f.Format {
	case "email":
		return "name@example.com"
	case "uri", "url":
		return "https://…"
	case "date":
		return "YYYY-MM-DD  (" + keymap.Hint(keymap.Described(now, "today")) + ")"
	case "date-time":
		return "YYYY-MM-DDThh:mm:ssZ  (" + keymap.Hint(keymap.Described(now, "now")) + ")"
	case "time":
		return "hh:mm:ssZ  (" + keymap.Hint(keymap.Described(now, "now")) + ")"
	}
	switch f.Kind {
	case schemaform.Number:
		return "a number"
	case schemaform.Integer:
		return "an integer"
	case schemaform.Raw:
		return "any JSON"
	}
	return "—"
}

// help is the description and constraints of the field under the cursor,
// and the keys that work on it.
func (m *Model) help(w int) []string {
	st := m.st
	out := []string{kit.ScrollRule(st, w, m.scroll)}
	r := m.current()
	var desc, hint, keys string
	if r != nil {
		f, fk := r.v.Field, m.keys.Form
		desc, hint = f.Description, f.Hint(kit.Number)
		var bs []key.Binding
		switch {
		case r.kind == rowAdd:
			bs, desc, hint = []key.Binding{keymap.Described(fk.Choose, "adds an item")}, "", ""
		case r.kind == rowOption && f.Kind == schemaform.Multi:
			bs = []key.Binding{keymap.Described(fk.Toggle, "toggles")}
		case r.kind == rowOption:
			bs = []key.Binding{keymap.Described(fk.Choose, "chooses")}
		case r.array != nil:
			bs = []key.Binding{keymap.Described(fk.Clear, "removes this item")}
		case textual(r.v):
			keys = "type to edit · empty is left out · "
			bs = []key.Binding{keymap.Described(fk.Clear, "clears")}
		case f.Kind == schemaform.Boolean:
			bs = []key.Binding{keymap.Described(fk.Toggle, "toggles"), fk.Clear}
		case f.Kind == schemaform.Enum:
			bs = []key.Binding{keymap.Pair(fk.Left, fk.Right, "changes"), keymap.Described(fk.Choose, "lists the options")}
		case f.Kind == schemaform.Union:
			bs = []key.Binding{keymap.Pair(fk.Left, fk.Right, "picks the alternative")}
		case f.Kind == schemaform.Array:
			bs = []key.Binding{keymap.Described(fk.Choose, "adds an item"), keymap.Described(fk.Clear, "empties")}
		}
		if f.Nullable {
			bs = append(bs, fk.Null)
		}
		if m.Remembered() > 0 {
			bs = append(bs, fk.Reset)
		}
		keys += keymap.Hint(bs...)
	}
	lines, more := kit.Wrap(desc, max(w-2, 1), 2)
	for i, l := range lines {
		if i == len(lines)-1 && more {
			l = inert.Truncate(l, max(w-3, 1), "") + "…"
		}
		out = append(out, kit.Row(st, w, false, kit.Txt(" ", st.Text), kit.Seg{S: l, St: st.Text}))
	}
	out = kit.Pad(out, w, helpLines-1)
	return append(out, kit.Row(st, w, false, kit.Txt(" ", st.Text), kit.SrvFree(hint, max(w/2, 1), st.Muted),
		kit.Txt("  ", st.Text), kit.Own(keys, max(w-w/2-3, 1), st.Subtle)))
}

// orphanErrors are the errors that belong to no row (the whole instance,
// members the schema does not list).
func (m *Model) orphanErrors() schemaform.Errors {
	var out schemaform.Errors
	for _, e := range m.errs {
		found := false
		for _, r := range m.rows {
			if r.kind == rowField && r.path == e.Path {
				found = true
				break
			}
		}
		if !found {
			out = append(out, e)
		}
	}
	return out
}

// rawView draws the raw JSON editor.
func (m *Model) rawView(w, h int) []string {
	st := m.st
	msg, sty := "raw JSON: "+keymap.Hint(keymap.Described(m.keys.Form.Raw, "back to the form (when it fits)"), keymap.Described(m.send, "sends it as it is")), st.Muted
	if m.rawErr != "" {
		msg, sty = "✗ "+m.rawErr, st.Error
	}
	m.ta.SetWidth(w)
	m.ta.SetHeight(max(h-1, 1))
	var out []string
	for _, l := range strings.Split(m.ta.View(), "\n") {
		out = append(out, kit.Fit(l, w))
	}
	out = kit.Pad(out, w, h-1)
	return append(out, kit.Row(st, w, false, kit.SrvFree(" "+msg, w, sty)))
}
