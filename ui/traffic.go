package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"fmt"
	"github.com/mcptui/mcptui/internal/inert"

	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// drawTraffic draws only the visible rows of the traffic log.
func (m *Model) drawTraffic(w, h int) []string {
	st := m.styles
	hist := m.sess.History()
	v := &m.traffic
	n := v.len(hist)
	if v.editing {
		h-- // the filter input takes the last row
	}
	v.list.clamp(n)
	v.list.show(h)
	var out []string
	i := v.list.offset
	for ; i < n && len(out) < h; i++ {
		out = append(out, m.entryRow(v.entry(hist, i), w, i == v.list.cursor && m.focus == paneTraffic))
	}
	m.scrolls[paneTraffic] = kit.Scroll{Above: v.list.offset, Below: n - i}
	if n == 0 {
		msg := "  no traffic yet"
		if v.filtering() {
			msg = "  nothing matches the filter"
		}
		out = append(out, kit.Row(m.styles, w, false, kit.Own(msg, w, st.Muted)))
	}
	if v.editing {
		for len(out) < h {
			out = append(out, kit.Row(m.styles, w, false))
		}
		out = append(out, kit.Row(m.styles, w, false, kit.Txt(m.filterInput.View(), st.Text)))
	}
	return out
}

// entryRow is one traffic line: time, direction, kind, id, size, method and
// summary.
func (m *Model) entryRow(e *model.Entry, w int, sel bool) string {
	st := m.styles
	if e.Kind == model.KindBoundary {
		label := fmt.Sprintf("──── %s · restarted: process %d ", fmtClock(e.Time), e.Gen)
		return kit.Row(m.styles, w, sel, kit.Own(label+repeat("─", w), w, st.Warn))
	}
	arrow, dirSt := "→", st.Out
	if e.Dir == model.In {
		arrow, dirSt = "←", st.In
	}
	kindSt := st.Muted
	switch {
	case e.Negotiation:
		// The probe's -32601 from an older server: a negotiation step.
	case e.Kind == model.KindError, e.Kind == model.KindDiscarded, e.Kind == model.KindInvalid:
		kindSt = st.Error
	case e.Kind == model.KindRequest:
		kindSt = st.Accent
	}
	link := " "
	if e.Link != 0 {
		link = "↔"
	}
	const timeW, kindW, idW, sizeW = 14, 5, 6, 9
	methodW := 24
	sumW := max(w-timeW-2-kindW-idW-sizeW-methodW-3, 0)
	if need := inert.Width(e.Method) - methodW; need > 0 && len(e.Summary) < sumW {
		// A long method takes the room its (short) summary leaves; a long
		// summary is not measured (it can be a huge line's).
		if free := sumW - inert.Width(e.Summary); free > 0 {
			methodW, sumW = methodW+min(need, free), sumW-min(need, free)
		}
	}
	return kit.Row(m.styles, w, sel,
		kit.Own(" "+fmtClock(e.Time)+" ", timeW, st.Muted), kit.Own(arrow+" ", 2, dirSt),
		kit.Own(e.Kind.Label(), kindW, kindSt), kit.Srv(string(e.ID), idW, st.Muted),
		kit.Own(fmt.Sprintf("%8s ", model.FormatSize(e.Size)), sizeW, st.Muted),
		kit.Srv(e.Method, methodW, st.Text), m.linkCell(e, link),
		kit.Srv(e.Summary, sumW, st.Text))
}

// selectedEntry is the entry under the cursor, or nil.
func (m *Model) selectedEntry() *model.Entry {
	return m.traffic.entry(m.sess.History(), m.traffic.list.cursor)
}

func repeat(s string, n int) string {
	out := make([]byte, 0, len(s)*max(n, 0))
	for range n {
		out = append(out, s...)
	}
	return string(out)
}

// trafficView is the traffic pane's window on the history: the filter, the
// matching entries (kept up to date incrementally), the selection, and
// whether it follows the newest line.
type trafficView struct {
	text     string
	filter   model.Filter // the traffic filter syntax (see model.Filter)
	matches  []uint64     // seqs of matching entries, when filtering
	scanned  uint64       // entries before this seq have been matched
	firstSeq uint64       // the history's FirstSeq at the last sync
	list     listState
	follow   bool
	// editing is set while the filter is being typed.
	editing bool
}

// filtering reports whether a filter is set.
func (v *trafficView) filtering() bool { return !v.filter.Empty() }

// setFilter replaces the filter and rescans the kept history.
func (v *trafficView) setFilter(text string, h *model.History) {
	v.text = text
	v.filter, _ = model.ParseFilter(text) // a term it cannot match matches nothing: the empty list says so
	v.matches, v.scanned = nil, h.FirstSeq()
	v.list = listState{}
	v.sync(h)
	if v.follow {
		v.list.cursor = max(v.len(h)-1, 0)
	}
}

// sync folds new and evicted entries into the view: O(new entries).
func (v *trafficView) sync(h *model.History) {
	first := h.FirstSeq()
	if v.firstSeq == 0 {
		v.firstSeq = first
	}
	if v.filtering() {
		dropped := 0
		for dropped < len(v.matches) && v.matches[dropped] < first {
			dropped++
		}
		v.matches = v.matches[dropped:]
		v.list.shift(dropped)
		if v.scanned < first {
			v.scanned = first
		}
		for seq := v.scanned; seq < h.NextSeq(); seq++ {
			if v.filter.Match(h.BySeq(seq)) {
				v.matches = append(v.matches, seq)
			}
		}
		v.scanned = h.NextSeq()
	} else if first > v.firstSeq {
		v.list.shift(int(first - v.firstSeq))
	}
	v.firstSeq = first
	n := v.len(h)
	if v.follow {
		v.list.cursor = max(n-1, 0)
	}
	v.list.clamp(n)
}

// len is the number of rows the pane lists.
func (v *trafficView) len(h *model.History) int {
	if v.filtering() {
		return len(v.matches)
	}
	return h.Len()
}

// entry returns the i-th listed entry.
func (v *trafficView) entry(h *model.History, i int) *model.Entry {
	if v.filtering() {
		if i < 0 || i >= len(v.matches) {
			return nil
		}
		return h.BySeq(v.matches[i])
	}
	if i < 0 || i >= h.Len() {
		return nil
	}
	return h.At(i)
}

// indexOf is the row of the entry with seq, or -1 when it is not listed.
func (v *trafficView) indexOf(h *model.History, seq uint64) int {
	if !v.filtering() {
		return h.Index(seq)
	}
	lo, hi := 0, len(v.matches)
	for lo < hi {
		mid := (lo + hi) / 2
		if v.matches[mid] < seq {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(v.matches) && v.matches[lo] == seq {
		return lo
	}
	return -1
}

func (m *Model) trafficKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.Traffic
	e := m.selectedEntry()
	switch {
	case key.Matches(msg, k.Filter):
		m.traffic.editing = true
		m.filterInput.SetValue(m.traffic.text)
		m.filterInput.CursorEnd()
		return m.filterInput.Focus()
	case key.Matches(msg, k.ClearFilter):
		m.traffic.setFilter("", m.sess.History())
	case key.Matches(msg, k.Follow):
		m.traffic.follow = true
		m.traffic.sync(m.sess.History())
	case e == nil:
	case key.Matches(msg, k.Open):
		m.openEntry(e)
	case key.Matches(msg, k.Jump):
		m.jump(e)
	case key.Matches(msg, k.Copy):
		return m.copyEntry(e)
	}
	return nil
}

// jump moves the traffic cursor to the entry linked with e.
func (m *Model) jump(e *model.Entry) {
	if e.Link == 0 {
		m.say(true, "no linked request or response")
		return
	}
	i := m.traffic.indexOf(m.sess.History(), e.Link)
	if i < 0 {
		m.say(true, "entry #%d is evicted or filtered out", e.Link)
		return
	}
	m.traffic.follow = false
	m.traffic.list.cursor = i
}

// copyEntry puts an entry's raw line on the clipboard (OSC 52).
func (m *Model) copyEntry(e *model.Entry) tea.Cmd {
	if e.Raw == nil {
		m.say(true, "this line was not kept")
		return nil
	}
	cmd, status, ok := kit.Copy(string(e.Raw), fmt.Sprintf("line #%d", e.Seq), "--record FILE keeps every line whole")
	m.say(!ok, "%s", status)
	return cmd
}

// filterKey edits the traffic filter; it applies as it is typed.
func (m *Model) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Traffic.KeepFilter):
		m.traffic.editing = false
		m.filterInput.Blur()
		return nil
	case key.Matches(msg, m.keys.Traffic.ClearFilter):
		m.traffic.editing = false
		m.filterInput.Blur()
		m.traffic.setFilter("", m.sess.History())
		return nil
	}
	var cmd tea.Cmd
	m.filterInput, cmd = m.filterInput.Update(msg)
	if m.filterInput.Value() != m.traffic.text {
		m.traffic.setFilter(m.filterInput.Value(), m.sess.History())
	}
	return cmd
}
