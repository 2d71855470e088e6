package ui

import (
	"context"
	"encoding/json"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// pendingKey answers the selected question.
func (m *Model) pendingKey(msg tea.KeyPressMsg) tea.Cmd {
	q := m.selectedQuestion()
	k := m.keys.Pending
	if key.Matches(msg, k.Policies) {
		m.openPolicies()
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
		m.show(newRejectDialog(q))
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

// click focuses the pane under the pointer and selects the row clicked.
func (m *Model) click(ms tea.Mouse) {
	if m.top() != nil {
		return
	}
	rs := m.rects()
	for p, r := range rs {
		if !r.contains(ms.X, ms.Y) {
			continue
		}
		m.focusPane(pane(p))
		if p == int(paneTraffic) || p == int(paneStderr) || p == int(paneLog) || p == int(paneServer) {
			l := m.list(pane(p))
			row := ms.Y - r.y - 1
			if row >= 0 && row < r.inner() {
				l.cursor = l.offset + row
				n := m.rowsOf(pane(p))
				l.clamp(n)
				m.followIfAtEnd(l, n)
			}
		}
		return
	}
}

// wheel scrolls the pane under the pointer (or the viewer).
func (m *Model) wheel(ms tea.Mouse) {
	delta := 3
	if ms.Button == tea.MouseWheelUp {
		delta = -3
	}
	if w, ok := m.top().(overlayWheel); ok {
		w.wheel(m, delta)
		return
	}
	if m.top() == nil && m.richWheel(delta) {
		return
	}
	rs := m.rects()
	for p, r := range rs {
		if r.contains(ms.X, ms.Y) {
			m.focus = pane(p)
			l, n := m.list(pane(p)), m.rowsOf(pane(p))
			l.move(delta, n)
			m.followIfAtEnd(l, n)
			return
		}
	}
}
