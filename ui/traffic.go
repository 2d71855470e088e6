package ui

import (
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
