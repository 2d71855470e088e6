package catalog

import (
	"charm.land/bubbles/v2/key"
	"fmt"
	"github.com/mcptui/mcptui/keymap"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/ui/kit"
)

// rline is one line of a result: an item's header, or a line of its body.
type rline struct {
	item   int
	sub    int
	header bool
}

// wrap wraps an item's text for width w (cached).
func (it *ritem) wrap(w int) []string {
	if it.wrapW != w || it.wrapped == nil {
		text := inert.Clip(it.text, maxTextShown)
		it.wrapped, it.more = kit.Wrap(text, max(w, 1), 0)
		it.more = it.more || len(text) < len(it.text)
		it.wrapW = w
	}
	return it.wrapped
}

// body is the number of body lines of an item at width w.
func (it *ritem) body(w int) int {
	switch {
	case it.jv != nil:
		return it.jv.Len()
	case it.kind == "resource link":
		n := 1
		if it.text != "" {
			n++
		}
		return n
	case it.text != "":
		n := len(it.wrap(w))
		if it.more {
			n++
		}
		return n
	}
	return 0
}

// lines lists every line of the result at width w.
func (r *result) lines(w int) []rline {
	var out []rline
	for i, it := range r.items {
		out = append(out, rline{item: i, header: true})
		for k := range it.body(w - 4) {
			out = append(out, rline{item: i, sub: k})
		}
	}
	return out
}

// current is the line under the cursor.
func (r *result) current(w int) (rline, *ritem, bool) {
	ls := r.lines(w)
	if r.cursor < 0 || r.cursor >= len(ls) {
		return rline{}, nil, false
	}
	l := ls[r.cursor]
	return l, r.items[l.item], true
}

// view draws a result: its title, notes, and the items.
func (m *Model) resultView(r *result, w, h int) []string {
	st := m.st
	head := []kit.Seg{kit.Txt(" ", st.Text), kit.SrvFree(r.title, w/2, st.Bold)}
	if r.elapsed > 0 {
		head = append(head, kit.Txt(" · "+r.elapsed.Round(time.Millisecond).String(), st.Muted))
	}
	head = append(head, kit.Txt(fmt.Sprintf(" · %d item(s) · %s", len(r.items), r.at.Format("15:04:05")), st.Muted))
	if r.isError {
		head = append(head, kit.Txt("  ✗ tool error", st.Error.Bold(true)))
	}
	if len(m.results) > 1 {
		head = append(head, kit.Txt(fmt.Sprintf("  (%d deep: %s)", len(m.results), keymap.Hint(keymap.Described(m.keys.Result.Back, "goes back"))), st.Muted))
	}
	out := []string{kit.Row(st, w, false, head...)}
	for _, n := range r.notes {
		nst := st.Muted
		mark := "   "
		switch n.kind {
		case noteOK:
			nst, mark = st.OK, " ✓ "
		case noteWarn:
			nst, mark = st.Warn, " ⚠ "
		case noteErr:
			nst, mark = st.Error, " ✗ "
		}
		for i, l := range kit.WrapSafe(inert.Line(n.text), max(w-3, 1)) {
			if i > 3 {
				break
			}
			if i > 0 {
				mark = "   "
			}
			out = append(out, kit.Row(st, w, false, kit.Txt(mark, nst), kit.Seg{S: l, St: nst}))
		}
	}
	out = append(out, kit.Rule(st, w))
	bodyH := max(h-len(out), 1)
	ls := r.lines(w)
	if len(ls) == 0 {
		return kit.Pad(out, w, h)
	}
	r.cursor = max(min(r.cursor, len(ls)-1), 0)
	r.offset = kit.Window(r.offset, r.cursor, len(ls), bodyH)
	for k := r.offset; k < len(ls) && k < r.offset+bodyH; k++ {
		out = append(out, m.resultLine(r, ls[k], w, k == r.cursor))
	}
	return kit.Pad(out, w, h)
}

// resultLine draws one line of a result.
func (m *Model) resultLine(r *result, l rline, w int, sel bool) string {
	st := m.st
	it := r.items[l.item]
	tint := st.Text
	if r.isError {
		tint = st.Error
	}
	if l.header {
		segs := []kit.Seg{kit.Txt(fmt.Sprintf(" %d ", l.item+1), st.Muted)}
		if it.role != "" {
			rst := st.In
			if it.role == "assistant" {
				rst = st.Out
			}
			segs = append(segs, kit.SrvFree(it.role, 12, rst.Bold(true)), kit.Txt(" · ", st.Muted))
		}
		segs = append(segs, kit.Txt(it.head, st.Accent))
		switch {
		case it.opens:
			segs = append(segs, kit.Txt(" · "+keymap.Hint(keymap.Described(m.keys.Result.Open, "reads it")), st.Accent))
		case it.saves:
			segs = append(segs, kit.Txt(" · "+keymap.Hint(keymap.Described(m.keys.Result.Save, "saves it")), st.Accent))
		}
		if it.mime != "" {
			segs = append(segs, kit.Txt(" · ", st.Muted), kit.SrvFree(it.mime, 30, st.Muted))
		}
		if it.uri != "" && it.kind != "resource link" {
			segs = append(segs, kit.Txt(" · ", st.Muted), kit.SrvFree(it.uri, w/2, st.Muted))
		}
		return kit.Row(st, w, sel, segs...)
	}
	pad := kit.Txt("    ", st.Text)
	switch {
	case it.jv != nil:
		return kit.Row(st, w, false, pad, kit.Seg{S: it.jv.DrawLine(st, l.sub, w-4, sel), St: st.Text})
	case it.kind == "resource link":
		if l.sub == 0 {
			return kit.Row(st, w, sel, pad, kit.Txt("→ ", st.Accent), kit.SrvFree(it.uri, w/2, st.Info.Underline(true)),
				kit.Txt("  ", st.Text), kit.SrvFree(it.name, w/3, st.Text))
		}
		return kit.Row(st, w, sel, pad, kit.SrvFree(it.text, w-4, st.Muted))
	}
	lines := it.wrap(w - 4)
	if l.sub >= len(lines) {
		return kit.Row(st, w, sel, pad, kit.Own(fmt.Sprintf("… cut at %s for the screen: w saves all of it", kitSize(maxTextShown)), w-4, st.Muted))
	}
	return kit.Row(st, w, sel, pad, kit.Seg{S: lines[l.sub], St: tint})
}

// resultKey handles a key on a result.
func (m *Model) resultKey(msg tea.KeyPressMsg) tea.Cmd {
	r := m.results[len(m.results)-1]
	w := m.w
	n := len(r.lines(w))
	rk, mv := m.keys.Result, m.keys.List
	switch {
	case key.Matches(msg, rk.Back):
		m.results = m.results[:len(m.results)-1]
		if len(m.results) == 0 {
			m.page = pageList
			if m.act != nil {
				m.page = pageForm
			}
		}
		return nil
	case key.Matches(msg, mv.Up):
		r.cursor = max(r.cursor-1, 0)
	case key.Matches(msg, mv.Down):
		r.cursor = min(r.cursor+1, n-1)
	case key.Matches(msg, mv.PageUp):
		r.cursor = max(r.cursor-10, 0)
	case key.Matches(msg, mv.PageDown):
		r.cursor = min(r.cursor+10, n-1)
	case key.Matches(msg, mv.Top):
		r.cursor = 0
	case key.Matches(msg, mv.Bottom):
		r.cursor = n - 1
	case key.Matches(msg, rk.NextItem, rk.PrevItem):
		// the next (or previous) item's header
		ls, step := r.lines(w), 1
		if key.Matches(msg, rk.PrevItem) {
			step = -1
		}
		for k := r.cursor + step; k >= 0 && k < len(ls); k += step {
			if ls[k].header {
				r.cursor = k
				break
			}
		}
	case key.Matches(msg, rk.Open):
		return m.openLine(r)
	case key.Matches(msg, rk.FoldAll, rk.UnfoldAll):
		if _, it, ok := r.current(w); ok && it.jv != nil {
			it.jv.SetFoldAll(key.Matches(msg, rk.FoldAll))
		}
	case key.Matches(msg, rk.Copy):
		return m.copyLine(r)
	case key.Matches(msg, rk.CopyAll):
		cmd, status, ok := kit.Copy(string(r.raw), "whole result", keymap.Hint(keymap.Described(rk.SaveAll, "saves it to a file")))
		m.say(!ok, status)
		return cmd
	case key.Matches(msg, rk.Save):
		m.openSave(r, false)
	case key.Matches(msg, rk.SaveAll):
		m.openSave(r, true)
	}
	return nil
}

// openLine acts on the line under the cursor: folds JSON, reads a
// resource link, opens an embedded resource.
func (m *Model) openLine(r *result) tea.Cmd {
	l, it, ok := r.current(m.w)
	if !ok {
		return nil
	}
	switch {
	case it.jv != nil && !l.header:
		it.jv.SetCursor(l.sub)
		it.jv.Toggle()
	case it.kind == "resource link":
		return m.read(it.uri, "read "+it.uri)
	case it.embed != nil && it.kind == "embedded resource":
		m.push(embeddedResult(it, m.now()))
	case it.jv != nil:
		it.jv.SetFoldAll(false)
	}
	return nil
}

// copyLine copies the JSON under the cursor: a JSON subtree, or the item.
func (m *Model) copyLine(r *result) tea.Cmd {
	l, it, ok := r.current(m.w)
	if !ok {
		return nil
	}
	text := string(it.raw)
	what := "item"
	if it.jv != nil && !l.header {
		it.jv.SetCursor(l.sub)
		if sel := it.jv.Selected(); sel != nil {
			text, what = string(sel), "value"
		}
	}
	if text == "" {
		m.say(true, "nothing to copy here")
		return nil
	}
	cmd, status, ok := kit.Copy(text, what, "w saves the result to a file")
	m.say(!ok, status)
	return cmd
}

// push shows a result (over the previous ones).
func (m *Model) push(r *result) {
	markEra(r, m.srv.Info())
	m.results = append(m.results, r)
	m.page = pageResult
}

func kitSize(n int) string { return strings.TrimSpace(fmtSize(n)) }
