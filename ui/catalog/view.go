package catalog

import (
	"charm.land/bubbles/v2/key"
	"fmt"
	"github.com/mcptui/mcptui/keymap"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/kit"
)

// joinLines joins drawn lines into a frame.
func joinLines(lines []string) string { return strings.Join(lines, "\n") }

// boxLines draws body in a w×h box as lines.
func boxLines(st *themes.Styles, w, h int, title string, body []string) []string {
	return strings.Split(kit.Box(st, w, h, title, true, body), "\n")
}

// View draws the catalog in exactly h lines of w cells.
func (m *Model) View(w, h int) []string {
	if w < 20 || h < 6 {
		return kit.Pad([]string{kit.Row(m.st, w, false, kit.Own(" too small", w, m.st.Muted))}, w, h)
	}
	m.w, m.h = w, h
	out := []string{m.tabBar(w), m.statusLine(w)}
	bodyH := h - 3
	var body []string
	switch m.page {
	case pageForm:
		body = m.formView(w, bodyH)
	case pageRunning:
		body = m.runningView(w, bodyH)
	case pageResult:
		body = m.resultView(m.results[len(m.results)-1], w, bodyH)
	case pageTask:
		body = m.taskView(w, bodyH)
	default:
		body = m.listPage(w, bodyH)
	}
	body = kit.Pad(body, w, bodyH)
	if m.dlg.kind != dlgNone {
		body = overlay(body, m.dialogView(min(w-4, 100), min(bodyH, m.dialogHeight(bodyH))), w)
	}
	out = append(out, body...)
	return append(out, m.footer(w))
}

// dialogHeight is how tall the open dialog is.
func (m *Model) dialogHeight(max int) int {
	switch m.dlg.kind {
	case dlgSave:
		return 6
	case dlgLevel:
		return kit.LevelPickerHeight() + 2 // and its box
	case dlgRoots:
		return max
	}
	return min(len(m.subRows())+4, max)
}

// overlay puts a box over the middle of the body.
func overlay(body, box []string, w int) []string {
	top := max((len(body)-len(box))/2, 0)
	bw := 0
	if len(box) > 0 {
		bw = ansi.StringWidth(box[0])
	}
	left := max((w-bw)/2, 0)
	for i, l := range box {
		if top+i >= len(body) {
			break
		}
		row := body[top+i]
		body[top+i] = ansi.Truncate(row, left, "") + l + ansi.TruncateLeft(row, left+bw, "")
	}
	return body
}

// tabBar draws the tabs with counts and change marks, and the session.
func (m *Model) tabBar(w int) string {
	st := m.st
	var segs []kit.Seg
	for k := Tools; k < kinds; k++ {
		if k == Skills && !m.offered(Skills) {
			continue
		}
		label := " " + k.String()
		if k < Log {
			l := m.lists[k]
			switch {
			case l.loading && !l.loaded:
				label += " …"
			case l.err != "":
				label += " –"
			default:
				label += fmt.Sprintf(" %d", len(l.items))
			}
			if a, r, c := l.diff(); a+r+c > 0 {
				label += fmt.Sprintf(" ±%d", a+r+c)
			}
		} else if n := m.logs.count(); n > 0 {
			label += fmt.Sprintf(" %d", n)
		}
		label += " "
		sty := st.Muted
		if k == m.tab {
			sty = st.Selected.Bold(true)
		}
		segs = append(segs, kit.Txt(label, sty), kit.Txt(" ", st.Text))
	}
	info := m.srv.Info()
	right := info.Version
	if level := m.log.Conn().LogLevel; level != "" {
		right = "log " + inert.Fit(level, 12) + " · " + right
	}
	if n := m.openSubs(); n > 0 {
		right = fmt.Sprintf("%d subscription(s) · %s", n, right)
	}
	used := 0
	for _, s := range segs {
		used += ansi.StringWidth(s.S)
	}
	pad := max(w-used-inert.Width(right)-1, 1)
	segs = append(segs, kit.Txt(strings.Repeat(" ", pad), st.Text), kit.SrvFree(right, w-used-pad, st.Muted))
	return kit.Row(st, w, false, segs...)
}

// openSubs counts the subscriptions the person opened.
func (m *Model) openSubs() int {
	if m.opts.Subscriptions != nil {
		return m.opts.Subscriptions()
	}
	n := 0
	for _, s := range m.subs {
		if !s.auto {
			n++
		}
	}
	return n
}

// statusLine shows the filter, the notice, or the diff of the list.
func (m *Model) statusLine(w int) string {
	st := m.st
	switch {
	case m.filtering:
		return kit.Row(st, w, false, kit.Txt(" / ", st.Accent), kit.Seg{S: m.filter.View(w-3, true, st.Text, st.Selected, st.Muted, "filter as you type"), St: st.Text})
	case m.notice != "":
		nst := st.Accent
		if m.noticeErr {
			nst = st.Error
		}
		return kit.Row(st, w, false, kit.Txt(" ", st.Text), kit.SrvFree(m.notice, w-1, nst))
	case m.tab < Log && m.page == pageList:
		l := m.lists[m.tab]
		var segs []kit.Seg
		if f := m.filters[m.tab]; f != "" {
			segs = append(segs, kit.Txt(" filter ", st.Muted), kit.SrvFree(f, w/3, st.Accent), kit.Txt(fmt.Sprintf(" (%d shown)", l.rows(f).len()), st.Muted))
		}
		if a, r, c := l.diff(); l.refreshes > 0 && a+r+c == 0 {
			segs = append(segs, kit.Txt(" no changes since the first listing · listed again at "+l.at.Format("15:04:05"), st.Muted))
		} else if l.refreshes > 0 {
			segs = append(segs, kit.Txt(" since the last listing: ", st.Muted),
				kit.Txt(fmt.Sprintf("+%d added", a), st.OK), kit.Txt("  ", st.Text),
				kit.Txt(fmt.Sprintf("−%d removed", r), st.Error), kit.Txt("  ", st.Text),
				kit.Txt(fmt.Sprintf("~%d changed", c), st.Warn), kit.Txt(" · at "+l.changedAt.Format("15:04:05"), st.Muted))
			if !l.at.Equal(l.changedAt) {
				segs = append(segs, kit.Txt(" (listed again at "+l.at.Format("15:04:05")+": no further change)", st.Muted))
			}
		} else if m.marking(m.tab) && l.loaded && l.err == "" {
			if len(segs) > 0 {
				segs = append(segs, kit.Txt(" ·", st.Muted))
			}
			segs = append(segs, m.markStatus(l)...) // the marks matter more than the time
		} else if l.loaded && l.err == "" {
			segs = append(segs, kit.Txt(" listed at "+l.at.Format("15:04:05"), st.Muted))
		}
		return kit.Row(st, w, false, segs...)
	}
	return kit.Blank(w)
}

// listPage draws the list and the selected entry's details side by side.
func (m *Model) listPage(w, h int) []string {
	st := m.st
	if m.tab == Log {
		return m.logs.view(st, w, h)
	}
	lw := min(max(w*2/5, 24), 60)
	dw := w - lw - 1
	left := m.listView(lw, h)
	var right []string
	if r := m.current(); r != nil {
		right = m.cachedDetails(r, dw)
		m.scroll = min(m.scroll, max(len(right)-h, 0))
		right = right[m.scroll:]
	}
	right = kit.Pad(right, dw, h)
	out := make([]string, h)
	for i := range h {
		out[i] = left[i] + st.Subtle.Render("│") + right[i]
	}
	return out
}

// listView draws the shown list.
func (m *Model) listView(w, h int) []string {
	st := m.st
	l := m.lists[m.tab]
	var out []string
	switch {
	case l.loading && !l.loaded:
		return kit.Pad([]string{kit.Row(st, w, false, kit.Own("  listing…", w, st.Muted))}, w, h)
	case l.err != "":
		return kit.Pad([]string{kit.Row(st, w, false, kit.Txt("  ", st.Text), kit.SrvFree(l.err, w-2, st.Error))}, w, h)
	}
	rows := l.rows(m.filters[m.tab])
	if rows.len() == 0 {
		msg := "  nothing here"
		if m.filters[m.tab] != "" {
			msg = "  nothing matches the filter"
		}
		return kit.Pad([]string{kit.Row(st, w, false, kit.Own(msg, w, st.Muted))}, w, h)
	}
	l.cursor = max(min(l.cursor, rows.len()-1), 0)
	body := h
	if rows.len() > h && h > 1 {
		body = h - 1 // the last row says where the list goes on
	}
	l.offset = kit.Window(l.offset, l.cursor, rows.len(), body)
	marking := m.marking(m.tab)
	for i := l.offset; i < rows.len() && len(out) < body; i++ {
		r := rows.at(i)
		mark, mst := "  ", st.Text
		switch r.mark {
		case added:
			mark, mst = "+ ", st.OK
		case changed:
			mark, mst = "~ ", st.Warn
		case removed:
			mark, mst = "− ", st.Error
		}
		name := r.it.name
		if m.tab == Resources || m.tab == Templates {
			name = r.it.key
		}
		nst := st.Text
		if r.removed {
			nst = st.Muted.Strikethrough(true)
		}
		lead := 3
		segs := []kit.Seg{kit.Txt(" "+mark, mst)}
		if marking {
			segs, lead = append(segs, m.rowTag(l, r.it.key)...), lead+3
		}
		segs = append(segs, kit.SrvFree(name, w-lead, nst))
		if r.it.title != "" && r.it.title != name && inert.Width(name)+4 < w-lead {
			segs = append(segs, kit.Txt("  ", st.Text), kit.SrvFree(r.it.title, max(w-lead-3-inert.Width(name), 0), st.Muted))
		}
		out = append(out, kit.Row(st, w, i == l.cursor, segs...))
	}
	if body < h {
		out = append(out, kit.Row(st, w, false, kit.Own(listPosition(l.cursor, l.offset, body, rows.len(), w), w, st.Muted)))
	}
	return kit.Pad(out, w, h)
}

// listPosition is the last row of a list longer than its room: the
// cursor's place in it, and arrows where it goes on ("↑ 12/22 ↓"), at the
// right.
func listPosition(cursor, offset, shown, n, w int) string {
	s := fmt.Sprintf("%d/%d", cursor+1, n)
	if offset > 0 {
		s = "↑ " + s
	}
	if offset+shown < n {
		s += " ↓"
	}
	return fmt.Sprintf("%*s ", max(w-1, 0), s)
}

// footer is the keys that work now.
func (m *Model) footer(w int) string {
	if m.dlg.kind != dlgNone || m.page == pageTask {
		// They draw their keys themselves.
		return kit.Row(m.st, w, false)
	}
	return kit.Row(m.st, w, false, kit.Own(" "+keymap.HintFit(w-1, m.Keys()...), w, m.st.Subtle))
}

// Keys are the bindings that work now, most useful first: the footer
// draws them and the host's ? help lists them.
func (m *Model) Keys() []key.Binding {
	c, r, f := m.keys.Catalog, m.keys.Result, m.keys.Form
	switch {
	case m.dlg.kind == dlgRoots:
		return m.dlg.roots.Keys()
	case m.dlg.kind == dlgSave:
		return []key.Binding{keymap.Described(c.Choose, "saves"), keymap.Described(c.Back, "cancels")}
	case m.dlg.kind == dlgLevel:
		return []key.Binding{keymap.Described(c.Choose, "sets it"), keymap.Described(c.Back, "cancels")}
	case m.dlg.kind == dlgSubscribe:
		return []key.Binding{c.Toggle, keymap.Described(c.Choose, "subscribes"), keymap.Described(c.Back, "cancels")}
	case m.filtering:
		return []key.Binding{keymap.Described(m.keys.Traffic.KeepFilter, "keeps it"), keymap.Described(m.keys.Traffic.ClearFilter, "clears it")}
	case m.page == pageForm && m.act != nil && m.act.editOpts:
		return []key.Binding{c.Send, keymap.Described(c.Options, "back to the arguments"), f.Next, keymap.Described(c.Back, "back to the list")}
	case m.page == pageForm:
		keys := []key.Binding{c.Send, f.Next, f.Raw, f.Clear}
		if m.act != nil && m.act.form.Remembered() > 0 {
			keys = append(keys, f.Reset)
		}
		if m.act != nil && m.act.kind == actTool {
			keys = append(keys, c.Options)
		}
		return append(keys, c.Back)
	case m.page == pageRunning:
		return []key.Binding{c.Cancel, keymap.Described(c.Back, "back (the call goes on)")}
	case m.page == pageResult:
		return []key.Binding{r.Open, r.NextItem, r.Copy, r.CopyAll, r.Save, r.SaveAll, r.FoldAll, r.UnfoldAll, r.Back}
	case m.page == pageTask:
		if m.task != nil && m.task.done {
			return []key.Binding{c.Fetch, c.Back}
		}
		return []key.Binding{c.Cancel, c.Poll, c.Back}
	case m.tab == Log:
		return []key.Binding{keymap.Pair(c.PrevList, c.NextList, "lists"), keymap.Described(c.Open, "opens data"), c.Level, c.Subscribe, c.Back}
	}
	keys := []key.Binding{keymap.Pair(c.PrevList, c.NextList, "lists"), c.Filter, c.Open, c.Level, c.Subscribe, c.Roots, c.Relist, c.Copy,
		c.Tools, c.Resources, c.Templates, c.Prompts}
	if m.offered(Skills) {
		keys = append(keys, c.Skills)
	}
	return append(keys, c.Log, c.DetailDown, c.DetailUp, c.Back)
}
