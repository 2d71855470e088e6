package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// flightRows are the rows of the in-flight pane: the outstanding calls,
// newest first, then the recently finished ones.
func (m *Model) flightRows() []*model.Call {
	return append(m.sess.InFlight(), m.sess.Recent()...)
}

// callHeight is 2 rows for a call with progress, else 1.
func callHeight(c *model.Call) int {
	if c.Progress != nil && c.Outcome.Kind == model.Pending {
		return 2
	}
	return 1
}

// drawInFlight draws the in-flight pane's body.
func (m *Model) drawInFlight(w, h int) []string {
	calls := m.flightRows()
	l := &m.lists[paneInFlight]
	l.clamp(len(calls))
	limit := h
	switch {
	case len(calls) > 0 && m.sess.Conn().Phase == model.PhaseExited:
		// How the server ended matters more than the calls it took down.
		limit = max(h-3, h-len(calls)-1)
	case len(calls) > 0:
		limit = max(h/2+1, h-len(calls)-1)
	}
	block := m.connBlock(w, limit)
	if len(block) > 0 && len(calls) > 0 {
		block = append(block, kit.Row(m.styles, w, false, kit.Own(strings.Repeat("─", w), w, m.styles.Subtle)))
	}
	h -= len(block)
	if len(calls) == 0 {
		if len(block) > 0 {
			return block
		}
		return []string{kit.Row(m.styles, w, false, kit.Own("  nothing in flight", w, m.styles.Muted))}
	}
	if h <= 0 {
		return block
	}
	// Scroll so the cursor's rows fit.
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	for l.offset < l.cursor && rowsBetween(calls, l.offset, l.cursor) > h {
		l.offset++
	}
	now := m.now()
	var out []string
	for i := l.offset; i < len(calls) && len(out) < h; i++ {
		out = append(out, m.callLines(calls[i], w, i == l.cursor && m.focus == paneInFlight, now)...)
	}
	if len(out) > h {
		out = out[:h]
	}
	return append(block, out...)
}

func rowsBetween(calls []*model.Call, from, to int) int {
	n := 0
	for i := from; i <= to; i++ {
		n += callHeight(calls[i])
	}
	return n
}

// callLines draws one call: direction, id, method, target, age and the time
// left or the outcome; a second line with the progress bar and message.
func (m *Model) callLines(c *model.Call, w int, sel bool, now time.Time) []string {
	st := m.styles
	arrow, dirSt := "→", st.Out
	if c.Dir == model.In {
		arrow, dirSt = "←", st.In
	}
	textSt, status, statusSt := st.Text, "", st.Muted
	switch c.Outcome.Kind {
	case model.Pending:
		if left, ok := c.Left(now); ok {
			status = fmtAge(left) + " left"
			if left <= 0 {
				status, statusSt = "overdue "+fmtAge(-left), st.Error
			} else if left < 5*time.Second {
				statusSt = st.Warn
			}
		}
		if c.Queued {
			// Its line is not written: the server is not reading.
			status, statusSt = "unwritten", st.Warn
		}
	case model.FailedLocally:
		textSt, status, statusSt = st.Muted, "failed", st.Error
		if strings.Contains(c.Outcome.Err.Message, "timed out") || strings.Contains(c.Outcome.Err.Message, "deadline") {
			status = "timed out"
		}
	case model.Succeeded:
		textSt, status, statusSt = st.Muted, "ok", st.OK
	case model.FailedWithError:
		textSt, status, statusSt = st.Muted, fmt.Sprintf("error %d", c.Outcome.Err.Code), st.Error
	case model.CancelledByCaller:
		textSt, status, statusSt = st.Muted, "cancelled", st.Warn
	case model.ConnectionDied:
		textSt, status, statusSt = st.Muted, "conn died", st.Error
	}
	const idW, ageW, statusW = 6, 6, 12
	rest := max(w-(2+idW+1+1+ageW+1+statusW), 8)
	methodW := min(24, rest*6/10)
	targetW := rest - methodW - 1
	line := kit.Row(m.styles, w, sel,
		kit.Own(" "+arrow, 2, dirSt),
		kit.Srv(string(c.ID), idW, st.Muted), kit.Own(" ", 1, st.Text),
		kit.Srv(c.Method, methodW, textSt), kit.Own(" ", 1, st.Text),
		kit.Srv(c.Target, targetW, st.Accent), kit.Own(" ", 1, st.Text),
		kit.Own(fmt.Sprintf("%*s", ageW, fmtAge(c.Age(now))), ageW, st.Muted), kit.Own(" ", 1, st.Text),
		kit.Own(fmt.Sprintf("%*s", statusW, status), statusW, statusSt))
	if callHeight(c) == 1 {
		return []string{line}
	}
	p := c.Progress
	frac, det := p.Fraction()
	barW := min(max(w/4, 8), 24)
	label := ""
	if det {
		label = fmt.Sprintf("%3.0f%%", frac*100)
	} else {
		label = fmt.Sprintf("%g", p.Value)
	}
	msgW := max(w-4-barW-1-len(label)-2, 0)
	return []string{line, kit.Row(m.styles, w, sel,
		kit.Own("    ", 4, st.Text),
		kit.Txt(m.bar(barW, frac, det, now, !sel), st.Text), kit.Own(" "+label+" ", len(label)+2, st.Muted),
		kit.Srv(p.Message, msgW, st.Text))}
}

// selectedCall is the call under the cursor, or nil.
func (m *Model) selectedCall() *model.Call {
	calls := m.flightRows()
	i := m.lists[paneInFlight].cursor
	if i < 0 || i >= len(calls) {
		return nil
	}
	return calls[i]
}
