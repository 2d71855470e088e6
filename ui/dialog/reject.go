package dialog

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
	"github.com/mcptui/mcptui/ui/overlay"
)

// Reject rejects a question: an elicitation with decline or cancel,
// anything else with a JSON-RPC error whose code and message can be
// changed. It is an overlay of the root model H (x on a question).
type Reject[H Host] struct {
	q      *model.Question
	elicit bool
	action int // elicitation: 0 decline, 1 cancel
	code   textinput.Model
	msg    textinput.Model
	field  int
	err    string
}

// NewReject is the dialog that rejects q.
func NewReject[H Host](q *model.Question) *Reject[H] {
	d := &Reject[H]{q: q, elicit: q.Kind == model.AskElicitForm || q.Kind == model.AskElicitURL}
	def := model.DefaultRejection(q)
	d.code, d.msg = textinput.New(), textinput.New()
	d.code.Prompt, d.msg.Prompt = "", ""
	d.code.SetValue(strconv.Itoa(def.Code))
	d.msg.SetValue(def.Message)
	d.code.Focus()
	return d
}

// next moves to the next field (or elicitation action).
func (d *Reject[H]) next() {
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
func (d *Reject[H]) update(msg tea.Msg) tea.Cmd {
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
func (d *Reject[H]) rejection() (json.RawMessage, *model.RPCError, error) {
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

// View draws the dialog's body.
func (d *Reject[H]) View(m H, w, h int) []string {
	st := m.Styles()
	var out []string
	if d.elicit {
		out = append(out, kit.Row(m.Styles(), w, false, kit.Own(" Reject the elicitation with:", w, st.Text)), kit.Row(m.Styles(), w, false))
		for i, a := range []string{"decline  (the user said no)", "cancel   (the user dismissed it)"} {
			out = append(out, kit.Row(m.Styles(), w, d.action == i, kit.Own("   "+a, w, st.Text)))
		}
	} else {
		d.code.SetWidth(max(w-12, 1))
		d.msg.SetWidth(max(w-12, 1))
		out = append(out, kit.Row(m.Styles(), w, false, kit.Own(" Reject with a JSON-RPC error:", w, st.Text)), kit.Row(m.Styles(), w, false),
			kit.Row(m.Styles(), w, false, kit.Own("  code    ", 10, st.Muted), kit.Txt(d.code.View(), st.Text)),
			kit.Row(m.Styles(), w, false, kit.Own("  message ", 10, st.Muted), kit.Txt(d.msg.View(), st.Text)))
	}
	msg, sty := keymap.Hint(rejectKeys(m)...), st.Muted
	if d.err != "" {
		msg, sty = "✗ "+d.err, st.Error
	}
	for len(out) < h-1 {
		out = append(out, kit.Row(m.Styles(), w, false))
	}
	return append(out[:h-1], kit.Row(m.Styles(), w, false, kit.Own(" "+msg, w, sty)))
}

// Update drives the dialog: its keys, and a paste into its field.
func (d *Reject[H]) Update(m H, msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return d.key(m, msg)
	case tea.PasteMsg:
		return d.update(msg)
	}
	return nil
}

// key drives the reject dialog.
func (d *Reject[H]) key(m H, msg tea.KeyPressMsg) tea.Cmd {
	k := m.Keys().Overlay
	switch {
	case key.Matches(msg, k.Close):
		m.CloseOverlay(d)
		return nil
	case key.Matches(msg, k.Submit, m.Keys().Composer.Choose):
		ans, rpcErr, err := d.rejection()
		if err != nil {
			d.err = err.Error()
			return nil
		}
		m.CloseOverlay(d)
		if rpcErr != nil {
			return m.RejectQuestion(d.q, *rpcErr)
		}
		return m.AnswerQuestion(d.q, ans, model.Rejected)
	case key.Matches(msg, k.NextField) || (d.elicit && key.Matches(msg, m.Keys().List.Up, m.Keys().List.Down)):
		d.next()
		return nil
	}
	d.err = ""
	return d.update(msg)
}

// Title says what is rejected.
func (d *Reject[H]) Title(H) string {
	return "Reject " + inert.Fit(d.q.Method, 40) + " " + inert.Fit(questionID(d.q), 16)
}

// Context is a dialog's.
func (d *Reject[H]) Context(H) keymap.Context { return keymap.DialogOverlay }

// Keys are the dialog's own.
func (d *Reject[H]) Keys(m H) []key.Binding { return rejectKeys(m) }

// rejectKeys are the keys of the reject dialog.
func rejectKeys(m overlay.Host) []key.Binding {
	o := m.Keys().Overlay
	return []key.Binding{keymap.Pair(o.Submit, m.Keys().Composer.Choose, "send"), keymap.Described(o.NextField, "switch"), o.Close}
}
