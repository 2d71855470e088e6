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
		m.reject = newRejectDialog(q)
		m.overlay = overlayReject
	}
	return nil
}

func (m *Model) openEditor(e *editor) {
	m.editor = e
	m.overlay = overlayEditor
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

// editorKey edits, sends or closes the answer editor.
func (m *Model) editorKey(msg tea.KeyPressMsg) tea.Cmd {
	e := m.editor
	k := m.keys.Overlay
	switch {
	case key.Matches(msg, k.Close):
		if e.mode == editReply {
			m.drafts[e.q.Key] = e.ta.Value()
		}
		m.overlay = overlayNone
		return nil
	case key.Matches(msg, k.External):
		return writeDraft(e.ta.Value())
	case key.Matches(msg, k.Submit):
		ans, err := e.answer()
		if err != nil {
			e.err = err.Error()
			return nil
		}
		if e.mode == editReply {
			m.drafts[e.q.Key] = e.ta.Value()
		}
		m.overlay = overlayNone
		st := model.Answered
		if a := elicitAction(ans); a == "decline" || a == "cancel" {
			st = model.Rejected
		}
		return m.sendAnswer(e.q, ans, st)
	}
	e.err = ""
	var cmd tea.Cmd
	e.ta, cmd = e.ta.Update(msg)
	return cmd
}

// elicitAction reads the action of an elicitation answer.
func elicitAction(ans json.RawMessage) string {
	var v struct {
		Action string `json:"action"`
	}
	_ = json.Unmarshal(ans, &v)
	return v.Action
}

// rejectKey drives the reject dialog.
func (m *Model) rejectKey(msg tea.KeyPressMsg) tea.Cmd {
	d := m.reject
	k := m.keys.Overlay
	switch {
	case key.Matches(msg, k.Close):
		m.overlay = overlayNone
		return nil
	case key.Matches(msg, k.Submit, m.keys.Composer.Choose):
		ans, rpcErr, err := d.rejection()
		if err != nil {
			d.err = err.Error()
			return nil
		}
		m.overlay = overlayNone
		if rpcErr != nil {
			return m.sendReject(d.q, *rpcErr)
		}
		return m.sendAnswer(d.q, ans, model.Rejected)
	case key.Matches(msg, k.NextField) || (d.elicit && key.Matches(msg, m.keys.List.Up, m.keys.List.Down)):
		d.next()
		return nil
	}
	d.err = ""
	return d.update(msg)
}

// viewerKey moves, folds, jumps, copies or closes the viewer.
func (m *Model) viewerKey(msg tea.KeyPressMsg) tea.Cmd {
	v := m.viewer
	l, t, vk := m.keys.List, m.keys.Traffic, m.keys.Viewer
	page := max(bodyRect(m.width, m.height).h-4, 1)
	switch {
	case key.Matches(msg, m.keys.Overlay.Close, m.keys.Global.Quit):
		m.overlay = overlayNone
	case key.Matches(msg, l.Up):
		v.MoveBy(-1)
	case key.Matches(msg, l.Down):
		v.MoveBy(1)
	case key.Matches(msg, l.PageUp):
		v.MoveBy(-page)
	case key.Matches(msg, l.PageDown):
		v.MoveBy(page)
	case key.Matches(msg, l.Top):
		v.Home()
		v.left = 0
	case key.Matches(msg, l.Bottom):
		v.End()
	case key.Matches(msg, l.Left):
		v.left = max(v.left-8, 0)
	case key.Matches(msg, l.Right):
		v.left += 8
	case key.Matches(msg, vk.Fold):
		if !v.ToggleFold() {
			m.say(true, "nothing to fold here")
		}
	case key.Matches(msg, vk.FoldAll):
		v.FoldAll()
	case key.Matches(msg, vk.UnfoldAll):
		v.UnfoldAll()
	case key.Matches(msg, t.Jump):
		if v.entry.Link == 0 {
			m.say(true, "no linked request or response")
		} else {
			m.openSeq(v.entry.Link)
		}
	case key.Matches(msg, t.Copy):
		return m.copyEntry(&v.entry)
	case key.Matches(msg, vk.CopyValue):
		val := v.ValueAt()
		if val == nil {
			m.say(true, "no value under the cursor")
			return nil
		}
		cmd, status, ok := kit.Copy(string(val), "value", "fold it ("+vk.Fold.Help().Key+") and copy a smaller part")
		m.say(!ok, "%s", status)
		return cmd
	}
	return nil
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
	if m.overlay != overlayNone {
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
	if m.overlay == overlayViewer {
		m.viewer.MoveBy(delta)
		return
	}
	if m.richWheel(delta) {
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
