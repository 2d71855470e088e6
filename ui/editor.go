package ui

import (
	"charm.land/bubbles/v2/key"
	"encoding/json"
	"fmt"
	"github.com/mcptui/mcptui/keymap"
	"strings"

	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// editorMode is what the editor edits.
type editorMode int

const (
	// editRaw edits the answer as raw JSON.
	editRaw editorMode = iota
	// editReply edits the text of a sampling reply.
	editReply
)

// editor is the answer editor overlay: raw JSON or a sampling reply,
// checked before it is sent.
type editor struct {
	mode editorMode
	q    *model.Question
	ta   textarea.Model
	err  string
}

// newEditor opens the editor on a question with initial text.
func newEditor(mode editorMode, q *model.Question, text string) *editor {
	ta := textarea.New()
	ta.ShowLineNumbers = mode == editRaw
	ta.Prompt = " "
	ta.MaxHeight = 0
	ta.SetValue(text)
	ta.Focus()
	return &editor{mode: mode, q: q, ta: ta}
}

// title says what is being answered.
func (e *editor) title() string {
	what := "Answer"
	if e.mode == editReply {
		what = "Reply as the model to"
	}
	return e.heading(what)
}

func (e *editor) heading(what string) string {
	s := what + " " + inert.Fit(e.q.Method, 40) + " " + inert.Fit(idOf(e.q), 16)
	if e.mode == editRaw {
		s += " — raw JSON"
	}
	return s
}

func idOf(q *model.Question) string {
	if q.RequestID != nil {
		return "#" + string(q.RequestID)
	}
	return fmt.Sprintf("round %d", q.Round)
}

// answer is the JSON to send, or an error saying why it cannot be sent.
func (e *editor) answer() (json.RawMessage, error) {
	text := e.ta.Value()
	if e.mode == editReply {
		if strings.TrimSpace(text) == "" {
			return nil, fmt.Errorf("the reply is empty")
		}
		return model.SamplingAnswer(text), nil
	}
	if err := model.ValidateAnswer(e.q, []byte(text)); err != nil {
		return nil, err
	}
	return json.RawMessage(text), nil
}

// View draws the editor's body.
func (e *editor) View(m *Model, w, h int) []string {
	st := m.styles
	e.ta.SetWidth(w)
	e.ta.SetHeight(max(h-3, 1))
	var out []string
	for _, kv := range e.q.Summary.Lines(e.q.Kind) {
		if len(out) >= 1 {
			break
		}
		labelW := min(inert.Width(kv[0])+3, w/3)
		out = append(out, kit.Row(m.styles, w, false, kit.Srv(" "+kv[0]+": ", labelW, st.Muted), kit.Srv(kv[1], max(w-labelW, 0), st.Text)))
	}
	for len(out) < 1 {
		out = append(out, kit.Row(m.styles, w, false))
	}
	for _, l := range strings.Split(e.ta.View(), "\n") {
		out = append(out, kit.Fit(l, w))
	}
	msg, sty := keymap.Hint(m.editorKeys()...), st.Muted
	if e.err != "" {
		msg, sty = "✗ "+e.err, st.Error
	}
	for len(out) < h-1 {
		out = append(out, kit.Row(m.styles, w, false))
	}
	return append(out[:h-1], kit.Row(m.styles, w, false, kit.Srv(" "+msg, w, sty)))
}

// editorKeys are the keys of the raw answer editor.
func (m *Model) editorKeys() []key.Binding {
	o := m.keys.Overlay
	return []key.Binding{o.Submit, o.External, keymap.Described(o.Close, "close (the draft is kept)")}
}

func (m *Model) openEditor(e *editor) {
	m.editor = e
	m.show(e)
}

// Update drives the editor: its keys, a paste, and the text the external
// editor gave back.
func (e *editor) Update(m *Model, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return e.key(m, msg)
	case tea.PasteMsg:
		var cmd tea.Cmd
		e.ta, cmd = e.ta.Update(msg)
		return cmd
	}
	return nil
}

// key edits, sends or closes the answer editor.
func (e *editor) key(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.Overlay
	switch {
	case key.Matches(msg, k.Close):
		if e.mode == editReply {
			m.drafts[e.q.Key] = e.ta.Value()
		}
		m.closeOverlay(e)
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
		m.closeOverlay(e)
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

// Title says what is being answered.
func (e *editor) Title(*Model) string { return e.title() }

// Context is the editor's.
func (e *editor) Context(*Model) keymap.Context { return keymap.EditorOverlay }

// Keys are the editor's own.
func (e *editor) Keys(m *Model) []key.Binding { return m.editorKeys() }
