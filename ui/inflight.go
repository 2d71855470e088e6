package ui

import (
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"context"
	"fmt"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/keymap"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/export"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/catalog"
	"github.com/mcptui/mcptui/ui/kit"
)

// flightRows are the rows of the in-flight pane: the outstanding calls,
// newest first, then the recently finished ones.
func (m *Model) flightRows() []*model.Call {
	return append(m.sess.InFlight(), m.sess.Recent()...)
}

// callHeight is 2 rows for a call with progress, with a result over a
// chosen host's cap (capmarks.go), or cancelled when a timer fired, else 1.
func (m *Model) callHeight(c *model.Call) int {
	if c.Progress != nil && c.Outcome.Kind == model.Pending || len(m.capOvers(c)) > 0 {
		return 2
	}
	if _, ok := timerFired(c); ok {
		return 2
	}
	return 1
}

// timerFired says, of a call mcptui cancelled because a timer fired,
// which timer, set to what, and when from the call's start, in the words
// of its post-mortem (export.TimerFired); ok is false for any other call.
func timerFired(c *model.Call) (words string, ok bool) {
	if c.Outcome.Kind != model.CancelledByCaller {
		return "", false
	}
	return export.TimerFired(c.GaveUp)
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
		return []string{kit.Row(m.styles, w, false, kit.Own(joinSome(": ", "  no requests yet", keymap.Hint(keymap.Described(m.keys.Global.Compose, "composes one"), keymap.Described(m.keys.Global.Catalog, "opens the catalog"))), w, m.styles.Muted))}
	}
	if h <= 0 {
		return block
	}
	// Scroll so the cursor's rows fit.
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	gen := m.sess.Conn().Gen
	for l.offset < l.cursor && m.rowsBetween(calls, l.offset, l.cursor, gen) > h {
		l.offset++
	}
	now := m.now()
	cols := m.flightColumns(calls[l.offset:min(l.offset+h, len(calls))], w, now)
	var out []string
	i := l.offset
	for ; i < len(calls) && len(out) < h; i++ {
		if boundaryAbove(calls, i, gen) {
			out = append(out, m.genBoundary(calls[i].Gen, w))
		}
		out = append(out, m.callLines(calls[i], cols, w, i == l.cursor && m.focus == paneInFlight, now)...)
	}
	if len(out) > h {
		i-- // the last call's progress line did not fit: it shows whole below
	}
	m.scrolls[paneInFlight] = kit.Scroll{Above: l.offset, Below: len(calls) - i}
	if len(out) > h {
		out = out[:h]
	}
	return append(block, out...)
}

// flightCols are the widths of pane 1's columns.
type flightCols struct{ id, method, target, age, status int }

// flightColumns sizes pane 1's columns to the calls in view, so that no
// name is cut while columns stand empty: id, age and status as wide as
// their widest, the method whole when the room allows (it says what the
// call is), the target the rest.
func (m *Model) flightColumns(calls []*model.Call, w int, now time.Time) flightCols {
	c := flightCols{id: 2, age: 3, status: 2}
	methodNeed, targetNeed := 6, 0
	for _, call := range calls {
		_, status, _ := m.callStatus(call, now)
		c.id = max(c.id, min(inert.Width(m.callID(call)), 10))
		c.age = max(c.age, len(fmtAge(call.Age(now))))
		c.status = max(c.status, inert.Width(status))
		methodNeed = max(methodNeed, inert.Width(call.Method))
		targetNeed = max(targetNeed, inert.Width(call.Target))
	}
	rest := max(w-(2+c.id+1+1+c.age+1+c.status), 8)
	c.method = min(methodNeed, max(rest-1-min(targetNeed, rest*4/10), rest/2))
	c.target = max(rest-c.method-1, 0)
	return c
}

func (m *Model) rowsBetween(calls []*model.Call, from, to, gen int) int {
	n := 0
	for i := from; i <= to; i++ {
		n += m.callHeight(calls[i])
		if boundaryAbove(calls, i, gen) {
			n++
		}
	}
	return n
}

// boundaryAbove reports whether row i of pane 1 starts the calls of an
// earlier process (a restart, r, or another version, V): the rows are
// newest first, so those of each process are together.
func boundaryAbove(calls []*model.Call, i, gen int) bool {
	if i == 0 {
		return calls[0].Gen != gen
	}
	return calls[i].Gen != calls[i-1].Gen
}

// genBoundary is the row above the calls of an earlier process.
func (m *Model) genBoundary(gen, w int) string {
	label := fmt.Sprintf("── process %d, before a restart (ids %d·…) ", gen, gen)
	return kit.Row(m.styles, w, false, kit.Own(label+strings.Repeat("─", max(w-inert.Width(label), 0)), w, m.styles.Subtle))
}

// callID is a call's id as pane 1 shows it: an earlier process's ids are
// marked with its number ("1·12"), since the next process counts from 1
// again and two rows would read "→12".
func (m *Model) callID(c *model.Call) string {
	if c.Gen != m.sess.Conn().Gen {
		return fmt.Sprintf("%d·%s", c.Gen, c.ID)
	}
	return string(c.ID)
}

// callLines draws one call: direction, id, method, target, age and the time
// left or the outcome; a second line with the progress bar and message,
// with the caps of chosen hosts its result goes over, or with the timer
// that fired when mcptui cancelled it for one.
func (m *Model) callLines(c *model.Call, cols flightCols, w int, sel bool, now time.Time) []string {
	st := m.styles
	arrow, dirSt := "→", st.Out
	if c.Dir == model.In {
		arrow, dirSt = "←", st.In
	}
	textSt, status, statusSt := m.callStatus(c, now)
	idW, methodW, targetW, ageW, statusW := cols.id, cols.method, cols.target, cols.age, cols.status
	what := []kit.Seg{kit.Srv(c.Method, methodW, textSt), kit.Own(" ", 1, st.Text), kit.Srv(c.Target, targetW, st.Accent)}
	if c.Target == "" {
		// No target: the method may use the target's room.
		what = []kit.Seg{kit.Srv(c.Method, methodW+1+targetW, textSt)}
	}
	segs := append([]kit.Seg{kit.Own(" "+arrow, 2, dirSt),
		kit.Srv(m.callID(c), idW, st.Muted), kit.Own(" ", 1, st.Text)}, what...)
	line := kit.Row(m.styles, w, sel, append(segs, kit.Own(" ", 1, st.Text),
		kit.Own(fmt.Sprintf("%*s", ageW, fmtAge(c.Age(now))), ageW, st.Muted), kit.Own(" ", 1, st.Text),
		kit.Own(fmt.Sprintf("%*s", statusW, status), statusW, statusSt))...)
	if m.callHeight(c) == 1 {
		return []string{line}
	}
	if overs := m.capOvers(c); len(overs) > 0 {
		return []string{line, m.capLine(overs, w, sel)}
	}
	if words, ok := timerFired(c); ok {
		return []string{line, m.timerLine(words, w, sel)}
	}
	p := c.Progress
	frac, det := p.Fraction()
	barW := min(max(w/4, 8), 24)
	label := ""
	if det {
		label = fmt.Sprintf("%3.0f%%", frac*100)
	} else {
		label = kit.Number(p.Value)
	}
	msgW := max(w-4-barW-1-len(label)-2, 0)
	return []string{line, kit.Row(m.styles, w, sel,
		kit.Own("    ", 4, st.Text),
		kit.Txt(m.bar(barW, frac, det, now, !sel), st.Text), kit.Own(" "+label+" ", len(label)+2, st.Muted),
		kit.Srv(p.Message, msgW, st.Text))}
}

// timerLine is the line under the row of a call cancelled when a timer
// fired, with its words (timerFired): whole when they fit, else cut after
// the last word that fits, the cut marked. The words may hold a context's
// cause, so they are drawn as server text is (kit.Srv escapes them).
func (m *Model) timerLine(words string, w int, sel bool) string {
	room := max(w-6, 0)
	if inert.Width(words) > room {
		cut := words
		for inert.Width(cut+"…") > room {
			i := strings.LastIndexByte(cut, ' ')
			if i <= 0 {
				break // one word wider than the room: kit.Srv cuts it
			}
			cut = cut[:i]
		}
		words = strings.TrimRight(cut, " ,;:") + "…"
	}
	return kit.Row(m.styles, w, sel, kit.Own("    ✗ ", 6, m.styles.Error), kit.Srv(words, room, m.styles.Error))
}

// openOutcome shows a request's outcome: rendered in the catalog as its
// own calls' results are (content items, JSON tree, structured content
// checked, the error explained) once it has ended; the request line while
// it is in flight.
func (m *Model) openOutcome(c *model.Call) tea.Cmd {
	if c.Outcome.Kind == model.Pending {
		m.say(false, "still in flight: this is the request (%s)", keymap.Hint(keymap.Described(m.keys.InFlight.OpenResponse, "opens the response once it comes")))
		m.openSeq(c.RequestSeq)
		return nil
	}
	o := catalog.Outcome{Method: c.Method, Target: c.Target, At: c.Outcome.Time}
	switch {
	case c.Outcome.Err != nil:
		o.Err = explainError(c.Outcome.Err)
	case c.Outcome.Kind == model.CancelledByCaller:
		o.Err = "cancelled: notifications/cancelled was sent, no response is due"
		if words, ok := timerFired(c); ok {
			// Whole here, where pane 1's line under the row may be cut.
			o.Err = "cancelled: " + words + " notifications/cancelled was sent, no response is due"
		}
	case c.Outcome.Kind == model.ConnectionDied:
		o.Err = "the connection ended before the response (the server exited or was restarted)"
	default:
		if e := m.sess.History().BySeq(c.ResponseSeq); e != nil {
			o.Line = e.Raw
		}
	}
	init := m.freshCatalog()
	if m.rich.catalog == nil {
		// No catalog on this connection: the raw response.
		m.openSeq(c.ResponseSeq)
		return nil
	}
	show := m.rich.catalog.ShowOutcome(o)
	return tea.Batch(init, m.openCatalog(), show)
}

// explainError is an error's code and message, with what the code means.
func explainError(e *model.RPCError) string {
	why := map[int]string{
		-32700: "the server could not parse the request",
		-32600: "the server found the request invalid",
		-32601: "the server does not offer this method",
		-32602: "the server rejected the params",
		-32603: "the server failed inside",
		-32000: "the connection failed (mcptui's own error)",
		-32001: "the request timed out",
		-32002: "the resource was not found",
	}[e.Code]
	s := fmt.Sprintf("error %d: %s", e.Code, e.Message)
	if why != "" {
		s += " (" + why + ")"
	}
	return s
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

// callStatus is a call's status column and the styles of its text and
// status (see callLabel).
func (m *Model) callStatus(c *model.Call, now time.Time) (textSt lipgloss.Style, status string, statusSt lipgloss.Style) {
	st := m.styles
	var qs []*model.Question
	if c.Outcome.Kind == model.NeedsInput || c.Outcome.Kind == model.FailedLocally {
		qs = m.sess.QuestionsOf(c)
	}
	l := callLabel(c, qs, now, m.opts.ReadOnly)
	textSt = st.Text
	if l.done {
		textSt = st.Muted
	}
	switch l.tone {
	case toneOK:
		statusSt = st.OK
	case toneWarn:
		statusSt = st.Warn
	case toneError:
		statusSt = st.Error
	case tonePending:
		statusSt = st.Pending
	default:
		statusSt = st.Muted
	}
	return textSt, l.text, statusSt
}

// tone is how a label reads: its style.
type tone int

// The tones of a label.
const (
	toneMuted tone = iota
	toneOK
	toneWarn
	toneError
	tonePending
)

// label is what pane 1 says about a request.
type label struct {
	text string
	tone tone
	// done: the request has ended (its text is drawn muted).
	done bool
}

// callLabel is what pane 1 says about a call at now. It is derived from
// the call's own record and the questions its own input_required result
// asked (qs), never from other requests or questions: one question
// waiting does not make every round that asked something "wait for you".
// readOnly is a watched session: nothing waits for the person watching.
func callLabel(c *model.Call, qs []*model.Question, now time.Time, readOnly bool) label {
	switch c.Outcome.Kind {
	case model.Pending:
		l := label{tone: toneMuted}
		if left, ok := c.Left(now); ok {
			l.text = fmtAge(left) + " left"
			if left <= 0 {
				l = label{text: "overdue " + fmtAge(-left), tone: toneError}
			} else if left < 5*time.Second {
				l.tone = toneWarn
			}
		}
		if c.Queued {
			// Its line is not written: the server is not reading.
			l = label{text: "unwritten", tone: toneWarn}
		}
		if c.AnswerDiscarded != "" {
			// Its answer came and was discarded: it will time out.
			l = label{text: "ans discarded", tone: toneError}
		}
		return l
	case model.FailedLocally:
		switch {
		case rejectedBy(qs) == "policy":
			// An answer policy rejected a question of its: no next round.
			return label{text: "policy rejected", tone: toneError, done: true}
		case rejectedBy(qs) == "you":
			// The person rejected a question of its: no next round.
			return label{text: "you rejected", tone: toneError, done: true}
		case c.Outcome.Err != nil && (strings.Contains(c.Outcome.Err.Message, "timed out") || strings.Contains(c.Outcome.Err.Message, "deadline")):
			return label{text: "timed out", tone: toneError, done: true}
		}
		return label{text: "failed", tone: toneError, done: true}
	case model.Succeeded:
		if c.Outcome.ToolError {
			// A result, with isError: the tool failed.
			return label{text: "tool error", tone: toneError, done: true}
		}
		return label{text: "ok", tone: toneOK, done: true}
	case model.FailedWithError:
		if c.Outcome.Negotiation {
			// An older server's -32601 to the probe: how it says "use
			// initialize", a negotiation step.
			return label{text: "older server", tone: toneMuted, done: true}
		}
		return label{text: fmt.Sprintf("error %d", c.Outcome.Err.Code), tone: toneError, done: true}
	case model.CancelledByCaller:
		return label{text: "cancelled", tone: toneWarn, done: true}
	case model.NeedsInput:
		switch {
		case questionIn(qs, model.Waiting) && readOnly:
			return label{text: "waits (host)", tone: tonePending, done: true}
		case questionIn(qs, model.Waiting):
			return label{text: "waits for you", tone: tonePending, done: true}
		case questionIn(qs, model.Rejected):
			return label{text: "declined", tone: toneMuted, done: true}
		case len(qs) > 0 && !questionNotIn(qs, model.Answered):
			// Every question answered: the next round carries them.
			return label{text: "answered", tone: toneMuted, done: true}
		}
		if readOnly {
			return label{text: "asked", tone: toneMuted, done: true}
		}
		return label{text: "asked you", tone: toneMuted, done: true}
	case model.ConnectionDied:
		return label{text: "conn died", tone: toneError, done: true}
	}
	return label{tone: toneMuted}
}

// questionIn reports whether one of qs is in state st.
func questionIn(qs []*model.Question, st model.QuestionState) bool {
	for _, q := range qs {
		if q.State == st {
			return true
		}
	}
	return false
}

// rejectedBy is who rejected one of qs: "you", "policy" (an answer
// policy, without a person), or "" when none was rejected.
func rejectedBy(qs []*model.Question) string {
	for _, q := range qs {
		if q.State != model.Rejected {
			continue
		}
		if q.Auto != "" {
			return "policy"
		}
		return "you"
	}
	return ""
}

// questionNotIn reports whether one of qs is in another state than st.
func questionNotIn(qs []*model.Question, st model.QuestionState) bool {
	for _, q := range qs {
		if q.State != st {
			return true
		}
	}
	return false
}

// extendBy is how much the extend key adds to a request's timer.
const extendBy = 60 * time.Second

func (m *Model) inFlightKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.InFlight
	c := m.selectedCall()
	if c == nil {
		return nil
	}
	ours := c.Dir == model.Out && c.Outcome.Kind == model.Pending && c.Gen == m.sess.Conn().Gen
	b, id := m.backend, c.ID
	switch {
	case key.Matches(msg, k.Cancel):
		if !ours {
			m.say(true, "only our own requests still in flight can be cancelled")
			return nil
		}
		return m.do(fmt.Sprintf("cancelled request %s", inert.Fit(string(id), 16)),
			func(ctx context.Context) error { return b.Cancel(ctx, id) })
	case key.Matches(msg, k.Extend):
		if !ours || c.Deadline.IsZero() {
			m.say(true, "only our own requests with a timer can be extended")
			return nil
		}
		return m.do(fmt.Sprintf("extended request %s by %s", inert.Fit(string(id), 16), extendBy),
			func(ctx context.Context) error { return b.Extend(ctx, id, extendBy) },
			model.Extended{Stamp: model.Stamp{Time: m.now(), Gen: c.Gen}, ID: id, By: extendBy})
	case key.Matches(msg, k.Open):
		return m.openOutcome(c)
	case key.Matches(msg, k.PostMortem):
		return m.postMortem(c)
	case key.Matches(msg, k.OpenRequest):
		m.openSeq(c.RequestSeq)
	case key.Matches(msg, k.OpenResponse):
		if c.ResponseSeq == 0 {
			if c.AnswerDiscarded != "" {
				m.say(true, "%s", c.AnswerDiscarded)
				return nil
			}
			m.say(true, "no response yet (%s)", c.Outcome.Kind)
			return nil
		}
		m.openSeq(c.ResponseSeq)
	}
	return nil
}
