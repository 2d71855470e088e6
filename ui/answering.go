package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/answer"
	"github.com/mcptui/mcptui/ui/kit"
)

// answerOverlay is a question's own editor (package ui/answer: the form
// of an elicitation, the reply to a sampling request, the roots list)
// over the body: f on a waiting question opens it, and ctrl+a in the
// catalog for the newest one. What it decides is sent when it is done.
type answerOverlay struct {
	e answer.Editor
	q *model.Question
}

// openAnswer opens a question's own editor over whatever is shown.
func (m *Model) openAnswer(q *model.Question) tea.Cmd {
	e := answer.New(q, answer.Options{Styles: m.styles, Roots: m.rootList(), Now: m.now, Keys: &m.keys})
	if e == nil {
		// A kind without its own editor: the raw JSON of the prepared
		// answer.
		m.openEditor(newEditor(editRaw, q, kit.JSONSafe(string(model.Prepared(q, m.drafts[q.Key], m.rootList().Get())))))
		return nil
	}
	if s, ok := e.(*answer.Sampling); ok {
		if d, ok := m.drafts[q.Key]; ok {
			s.SetText(d)
		}
	}
	a := &answerOverlay{e: e, q: q}
	if _, ok := m.top().(*answerOverlay); ok {
		m.overlays[len(m.overlays)-1] = a // one editor at a time
	} else {
		m.push(a)
	}
	return nil
}

// Update gives the editor a message (a key, a paste, the result of its
// own Cmds) and sends its outcome once it is done.
func (a *answerOverlay) Update(m *Model, msg tea.Msg) tea.Cmd {
	cmd := a.e.Update(msg)
	return tea.Batch(cmd, a.done(m))
}

// done closes the editor once the person decided, and sends the
// answer (or the error); a changed roots list is announced.
func (a *answerOverlay) done(m *Model) tea.Cmd {
	e, q := a.e, a.q
	out, done := e.Done()
	if !done {
		return nil
	}
	m.closeOverlay(a)
	if sm, ok := e.(*answer.Sampling); ok {
		m.drafts[q.Key] = sm.Text() // what was typed stays, whatever comes
	}
	switch {
	case out.Closed:
		return nil
	case out.Error != nil:
		return m.sendReject(q, *out.Error)
	}
	if m.focus == paneCatalog && m.rich.catalog != nil {
		m.rich.catalog.Say(false, "answered "+q.Method+": the call goes on")
	}
	state := model.Answered
	if (q.Kind == model.AskElicitForm || q.Kind == model.AskElicitURL) && !accepted(out.Answer) {
		state = model.Rejected
	}
	cmds := []tea.Cmd{m.sendAnswer(q, out.Answer, state)}
	if r, ok := e.(*answer.Roots); ok && r.Changed {
		m.rootsToPolicies()
		cmds = append(cmds, m.rootsChanged())
	}
	return tea.Batch(cmds...)
}

// accepted reports whether an elicitation answer accepts.
func accepted(ans []byte) bool {
	return answer.Action(ans) == "accept"
}

// Wheel scrolls the editor as arrow keys.
func (a *answerOverlay) Wheel(_ *Model, delta int) {
	for _, k := range wheelKeys(delta) {
		a.e.Update(k)
	}
}

// Title says what is being answered.
func (a *answerOverlay) Title(*Model) string { return a.e.Title() }

// View draws the editor.
func (a *answerOverlay) View(_ *Model, w, h int) []string { return a.e.View(w, h) }

// Context is an answer editor's.
func (a *answerOverlay) Context(*Model) keymap.Context { return keymap.AnswerOverlay }

// Keys are the ones the editor says work now.
func (a *answerOverlay) Keys(*Model) []key.Binding { return a.e.Keys() }

// footer says the server waits, and the ways out.
func (a *answerOverlay) footer(m *Model, w int) string {
	text := " the server waits while you answer · " + keymap.HintFit(w-40,
		keymap.Described(m.keys.Answer.Close, "closes without answering"),
		keymap.Described(m.keys.Pending.Edit, "on the question: raw JSON"),
		keymap.Untypable(m.keys.Global.Help))
	return kit.Row(m.styles, w, false, kit.Own(text, w, m.styles.Muted))
}
