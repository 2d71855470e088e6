package ui

import (
	"charm.land/bubbles/v2/key"
	"encoding/json"
	"fmt"
	"github.com/mcptui/mcptui/keymap"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
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

// drawEditor draws the editor's body.
func (m *Model) drawEditor(e *editor, w, h int) []string {
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

// rejectDialog rejects a question: an elicitation with decline or cancel,
// anything else with a JSON-RPC error whose code and message can be changed.
type rejectDialog struct {
	q      *model.Question
	elicit bool
	action int // elicitation: 0 decline, 1 cancel
	code   textinput.Model
	msg    textinput.Model
	field  int
	err    string
}

func newRejectDialog(q *model.Question) *rejectDialog {
	d := &rejectDialog{q: q, elicit: q.Kind == model.AskElicitForm || q.Kind == model.AskElicitURL}
	def := model.DefaultRejection(q)
	d.code, d.msg = textinput.New(), textinput.New()
	d.code.Prompt, d.msg.Prompt = "", ""
	d.code.SetValue(strconv.Itoa(def.Code))
	d.msg.SetValue(def.Message)
	d.code.Focus()
	return d
}

// next moves to the next field (or elicitation action).
func (d *rejectDialog) next() {
	if d.elicit {
		d.action = 1 - d.action
		return
	}
	d.field = 1 - d.field
	if d.field == 0 {
		d.code.Focus()
		d.msg.Blur()
	} else {
		d.msg.Focus()
		d.code.Blur()
	}
}

// update passes keys to the focused input.
func (d *rejectDialog) update(msg tea.Msg) tea.Cmd {
	if d.elicit {
		return nil
	}
	var cmd tea.Cmd
	if d.field == 0 {
		d.code, cmd = d.code.Update(msg)
	} else {
		d.msg, cmd = d.msg.Update(msg)
	}
	return cmd
}

// rejection is what to send: an elicitation answer, or an error.
func (d *rejectDialog) rejection() (json.RawMessage, *model.RPCError, error) {
	if d.elicit {
		return model.ElicitAnswer([]string{"decline", "cancel"}[d.action], nil), nil, nil
	}
	code, err := strconv.Atoi(strings.TrimSpace(d.code.Value()))
	if err != nil {
		return nil, nil, fmt.Errorf("the code must be an integer")
	}
	if strings.TrimSpace(d.msg.Value()) == "" {
		return nil, nil, fmt.Errorf("the message must not be empty")
	}
	return nil, &model.RPCError{Code: code, Message: d.msg.Value()}, nil
}

// drawReject draws the dialog's body.
func (m *Model) drawReject(d *rejectDialog, w, h int) []string {
	st := m.styles
	var out []string
	if d.elicit {
		out = append(out, kit.Row(m.styles, w, false, kit.Own(" Reject the elicitation with:", w, st.Text)), kit.Row(m.styles, w, false))
		for i, a := range []string{"decline  (the user said no)", "cancel   (the user dismissed it)"} {
			out = append(out, kit.Row(m.styles, w, d.action == i, kit.Own("   "+a, w, st.Text)))
		}
	} else {
		d.code.SetWidth(max(w-12, 1))
		d.msg.SetWidth(max(w-12, 1))
		out = append(out, kit.Row(m.styles, w, false, kit.Own(" Reject with a JSON-RPC error:", w, st.Text)), kit.Row(m.styles, w, false),
			kit.Row(m.styles, w, false, kit.Own("  code    ", 10, st.Muted), kit.Txt(d.code.View(), st.Text)),
			kit.Row(m.styles, w, false, kit.Own("  message ", 10, st.Muted), kit.Txt(d.msg.View(), st.Text)))
	}
	msg, sty := keymap.Hint(m.rejectKeys()...), st.Muted
	if d.err != "" {
		msg, sty = "✗ "+d.err, st.Error
	}
	for len(out) < h-1 {
		out = append(out, kit.Row(m.styles, w, false))
	}
	return append(out[:h-1], kit.Row(m.styles, w, false, kit.Own(" "+msg, w, sty)))
}

// editorKeys are the keys of the raw answer editor.
func (m *Model) editorKeys() []key.Binding {
	o := m.keys.Overlay
	return []key.Binding{o.Submit, o.External, keymap.Described(o.Close, "close (the draft is kept)")}
}

// rejectKeys are the keys of the reject dialog.
func (m *Model) rejectKeys() []key.Binding {
	o := m.keys.Overlay
	return []key.Binding{keymap.Pair(o.Submit, m.keys.Composer.Choose, "send"), keymap.Described(o.NextField, "switch"), o.Close}
}
