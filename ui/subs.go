package ui

import (
	"fmt"

	"github.com/mcptui/mcptui/model"
)

// drawSubs draws two rows per subscription: state, id, events and the last
// one; then the filter asked for and the one accepted.
func (m *Model) drawSubs(w, h int) []string {
	st := m.styles
	subs := m.sess.Subscriptions()
	l := &m.lists[paneSubs]
	l.clamp(len(subs))
	if len(subs) == 0 {
		return []string{m.row(w, false, own("  no subscriptions", w, st.Muted))}
	}
	l.show(max(h/2, 1))
	now := m.now()
	var out []string
	for i := l.offset; i < len(subs) && len(out) < h; i++ {
		s := subs[i]
		sel := i == l.cursor && m.focus == paneSubs
		mark, markSt, textSt := "●", st.OK, st.Text
		state := "open"
		if !s.Open {
			mark, markSt, textSt, state = "○", st.Muted, st.Muted, s.EndReason
		}
		last := "no events yet"
		if s.Events > 0 {
			last = fmt.Sprintf("events %d · last %s ago: %s %s", s.Events, fmtAge(now.Sub(s.LastTime)), s.LastMethod, s.LastSummary)
		}
		stateW := min(18, max(w/6, 6))
		out = append(out, m.row(w, sel, own(" "+mark+" ", 3, markSt), srv(string(s.ID), 6, st.Muted),
			own(" ", 1, st.Text), srv(state, stateW, textSt), own(" ", 1, st.Text), srv(last, max(w-11-stateW, 0), textSt)))
		accepted := "(not acknowledged)"
		if s.Accepted != nil {
			accepted = string(s.Accepted)
		}
		out = append(out, m.row(w, sel, own("   asked ", 9, st.Muted), srv(string(s.Asked), max(w/2-9, 0), textSt),
			own(" accepted ", 10, st.Muted), srv(accepted, max(w-w/2-10, 0), textSt)))
	}
	if len(out) > h {
		out = out[:h]
	}
	return out
}

// selectedSub is the subscription under the cursor, or nil.
func (m *Model) selectedSub() *model.Subscription {
	subs := m.sess.Subscriptions()
	i := m.lists[paneSubs].cursor
	if i < 0 || i >= len(subs) {
		return nil
	}
	return subs[i]
}
