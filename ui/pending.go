package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/dialog"
	"github.com/mcptui/mcptui/ui/kit"
)

// drawPending draws the questions list and, below it, the selected
// question's summary.
func (m *Model) drawPending(w, h int) []string {
	st := m.styles
	qs := m.sess.Questions()
	l := &m.lists[panePending]
	l.clamp(len(qs))
	if len(qs) == 0 {
		return []string{kit.Row(m.styles, w, false, kit.Own("  the server is not asking anything", w, st.Muted))}
	}
	listH := min(len(qs), max(h/2, 1))
	l.show(listH)
	now := m.now()
	var out []string
	i := l.offset
	for ; i < len(qs) && len(out) < listH; i++ {
		out = append(out, m.questionRow(qs[i], w, i == l.cursor && m.focus == panePending, now))
	}
	m.scrolls[panePending] = kit.Scroll{Above: l.offset, Below: len(qs) - i}
	q := qs[l.cursor]
	out = append(out, kit.Row(m.styles, w, false, kit.Own(strings.Repeat("─", w), w, st.Subtle)))
	if q.State != model.Waiting {
		out = append(out, kit.Row(m.styles, w, false, kit.Srv(" "+questionOutcome(q), w, st.Muted)))
	}
	if q.Note != "" && q.State == model.Waiting {
		out = append(out, kit.Row(m.styles, w, false, kit.Srv(" ⚠ "+q.Note, w, st.Warn)))
	}
	lines := q.Summary.Lines(q.Kind)
	labelW := 11
	for _, kv := range lines {
		labelW = max(labelW, inert.Width(kv[0])+2)
	}
	labelW = min(labelW, w/3)
	for _, kv := range lines {
		if len(out) >= h {
			break
		}
		out = append(out, kit.Row(m.styles, w, false, kit.Srv(" "+kv[0], labelW, st.Muted), kit.Srv(kv[1], w-labelW, st.Text)))
	}
	if q.State == model.Waiting && len(out) < h {
		if d, ok := m.drafts[q.Key]; ok && q.Kind == model.AskSampling {
			out = append(out, kit.Row(m.styles, w, false, kit.Own(" reply", labelW, st.Muted), kit.Srv(d, w-labelW, st.Accent)))
		}
	}
	return out
}

// questionOutcome says how a question ended.
func questionOutcome(q *model.Question) string {
	if q.Auto != "" {
		return autoOutcome(q)
	}
	after := fmtAge(q.Resolved.Sub(q.Arrived))
	switch q.State {
	case model.Answered:
		return "✓ answered after " + after
	case model.Rejected:
		if q.Err != nil {
			return fmt.Sprintf("✗ rejected after %s with error %d %s", after, q.Err.Code, q.Err.Message)
		}
		what := map[string]string{"decline": "declined", "cancel": "cancelled"}[elicitAction(q.Answer)]
		if what == "" {
			what = "rejected"
		}
		return fmt.Sprintf("✗ %s after %s", what, after)
	case model.CancelledByServer:
		return "– withdrawn by the server after " + after + " (it cancelled the request)"
	case model.QuestionConnectionDied:
		return "– never answered: the connection stopped after " + after
	}
	return q.State.String()
}

// questionRow is one line of the queue: state, kind, id, how long the
// server has waited, and the gist.
func (m *Model) questionRow(q *model.Question, w int, sel bool, now time.Time) string {
	st := m.styles
	mark, markSt := "●", st.Pending
	switch q.State {
	case model.Answered:
		mark, markSt = "✓", st.OK
	case model.Rejected:
		mark, markSt = "✗", st.Warn
	case model.CancelledByServer, model.QuestionConnectionDied:
		mark, markSt = "–", st.Error
	}
	id := string(q.RequestID)
	if id == "" {
		id = fmt.Sprintf("r%d", q.Round)
	}
	gist := q.Summary.LastUser
	if q.Kind != model.AskSampling {
		gist = q.Summary.Message
	}
	if q.Kind == model.AskRoots {
		gist = fmt.Sprintf("%d roots to return", len(q.Summary.Roots))
		if q.Summary.RootsSent {
			gist = fmt.Sprintf("%d roots returned", len(q.Summary.Roots))
		}
	}
	if q.Auto != "" {
		gist = "auto " + q.Auto + " · " + gist
	}
	textSt := st.Text
	if q.State != model.Waiting {
		textSt = st.Muted
	}
	const kindW, idW, ageW = 12, 6, 7
	kind := q.Kind.String()
	if q.Kind == model.AskElicitURL {
		kind = "elicit (url)"
	}
	return kit.Row(m.styles, w, sel,
		kit.Own(" "+mark+" ", 3, markSt), kit.Own(kind, kindW, textSt), kit.Own(" ", 1, st.Text),
		kit.Srv(id, idW, st.Muted), kit.Own(fmt.Sprintf("%*s ", ageW, fmtAge(q.Waited(now))), ageW+1, st.Muted),
		kit.Srv(gist, max(w-3-kindW-1-idW-ageW-1, 0), textSt))
}

// selectedQuestion is the question under the cursor, or nil.
func (m *Model) selectedQuestion() *model.Question {
	qs := m.sess.Questions()
	i := m.lists[panePending].cursor
	if i < 0 || i >= len(qs) {
		return nil
	}
	return qs[i]
}

// pendingKey answers the selected question.
func (m *Model) pendingKey(msg tea.KeyPressMsg) tea.Cmd {
	q := m.selectedQuestion()
	k := m.keys.Pending
	if key.Matches(msg, k.Policies) {
		dialog.OpenPolicies(m)
		return nil
	}
	if q == nil {
		return nil
	}
	if key.Matches(msg, k.Open) {
		m.openRaw(q.Method+" params", q.Params)
		return nil
	}
	if q.State != model.Waiting {
		if key.Matches(msg, k.Reply, k.Approve, k.Edit, k.Reject, k.Form) {
			m.say(true, "this question is no longer waiting (%s)", q.State)
		}
		return nil
	}
	draft := m.drafts[q.Key]
	switch {
	case key.Matches(msg, k.Reply, k.Form):
		// One editor per job: the question's own (the sampling reply
		// with its system prompt, model and stop reason; the form; the
		// roots list); the raw JSON for a kind without one.
		return m.openAnswer(q)
	case key.Matches(msg, k.Approve):
		if q.Kind == model.AskSampling && draft == "" {
			m.say(false, "write the model's reply, then %s", m.keys.Answer.Send.Help().Key)
			return m.openAnswer(q)
		}
		ans := model.Prepared(q, draft, m.rootList().Get())
		if err := model.ValidateAnswer(q, ans); err != nil {
			m.say(true, "the prepared answer is not valid: %v", err)
			return nil
		}
		return m.sendAnswer(q, ans, model.Answered)
	case key.Matches(msg, k.Edit):
		ans := model.Prepared(q, draft, m.rootList().Get())
		if q.Kind == model.AskSampling && draft == "" && len(q.Summary.Tools) > 0 {
			ans = model.ToolUseAnswer(q.Summary.Tools[0], nil)
		}
		m.openEditor(newEditor(editRaw, q, kit.JSONSafe(string(ans))))
	case key.Matches(msg, k.Reject):
		m.show(dialog.NewReject[*Model](q))
	}
	return nil
}

// sendAnswer sends a result, and marks the question once it is sent.
func (m *Model) sendAnswer(q *model.Question, ans json.RawMessage, st model.QuestionState) tea.Cmd {
	b, ref := m.backend, q.Ref()
	return m.do(fmt.Sprintf("answered %s %s", inert.Fit(q.Method, 40), inert.Fit(idOf(q), 16)),
		func(ctx context.Context) error { return b.Answer(ctx, ref, ans) },
		model.QuestionResolved{Stamp: model.Stamp{Time: m.now(), Gen: q.Gen}, RequestID: q.RequestID, Key: q.InputKey, State: st, Answer: ans})
}

// sendReject sends an error, and marks the question once it is sent.
func (m *Model) sendReject(q *model.Question, e model.RPCError) tea.Cmd {
	b, ref := m.backend, q.Ref()
	return m.do(fmt.Sprintf("rejected %s %s", inert.Fit(q.Method, 40), inert.Fit(idOf(q), 16)),
		func(ctx context.Context) error { return b.Reject(ctx, ref, e) },
		model.QuestionResolved{Stamp: model.Stamp{Time: m.now(), Gen: q.Gen}, RequestID: q.RequestID, Key: q.InputKey, State: model.Rejected, Err: &e})
}

// elicitAction reads the action of an elicitation answer.
func elicitAction(ans json.RawMessage) string {
	var v struct {
		Action string `json:"action"`
	}
	_ = json.Unmarshal(ans, &v)
	return v.Action
}
