package answer

import (
	"encoding/json"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/schemaform"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/form"
	"github.com/mcptui/mcptui/ui/kit"
)

// Elicit answers a form elicitation.
type Elicit struct {
	q       *model.Question
	opts    Options
	message string
	form    *form.Model
	err     string
	// asking is set while ctrl+x asks: decline or cancel?
	asking  bool
	outcome *Outcome
}

// NewElicit opens a form elicitation: the message, and a form from the
// requested schema with its defaults filled in.
func NewElicit(q *model.Question, opts Options) *Elicit {
	var p struct {
		Message         string          `json:"message"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	_ = json.Unmarshal(q.Params, &p)
	e := &Elicit{q: q, opts: opts, message: p.Message}
	f, err := schemaform.Compile(p.RequestedSchema)
	if err != nil {
		e.err = "the requested schema is not usable: " + err.Error()
		f, _ = schemaform.Compile(nil)
	}
	e.form = form.New(f, nil, opts.Styles)
	e.form.SetClock(opts.Now)
	e.form.SetKeys(opts.keys(), opts.keys().Answer.Send)
	return e
}

// Title implements Editor.
func (e *Elicit) Title() string {
	return "Elicitation " + inert.Fit(questionID(e.q), 24) + " — fill in the form"
}

// Form is the form being filled (tests, and hosts that prefill it).
func (e *Elicit) Form() *form.Model { return e.form }

// Done implements Editor.
func (e *Elicit) Done() (Outcome, bool) {
	if e.outcome == nil {
		return Outcome{}, false
	}
	return *e.outcome, true
}

// Keys implements Editor.
func (e *Elicit) Keys() []key.Binding {
	a := e.opts.keys().Answer
	if e.asking {
		return []key.Binding{a.Decline, a.Cancel, keymap.Described(a.Close, "back to the form")}
	}
	return []key.Binding{keymap.Described(a.Send, "accept"), keymap.Described(a.Reject, "decline or cancel"), e.opts.keys().Form.Raw, keymap.Described(a.Close, "close (the question waits)")}
}

// Update implements Editor.
func (e *Elicit) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return e.form.Update(msg)
	}
	a := e.opts.keys().Answer
	if e.asking {
		switch {
		case key.Matches(k, a.Decline):
			e.finish("decline", nil)
		case key.Matches(k, a.Cancel):
			e.finish("cancel", nil)
		case key.Matches(k, a.Close):
			e.asking = false
		}
		return nil
	}
	switch {
	case key.Matches(k, a.Send):
		inst, ok := e.form.Submit()
		if !ok {
			e.err = fmt.Sprintf("%d problem(s): fix the fields marked ✗", max(len(e.form.Errors()), 1))
			return nil
		}
		e.err = ""
		e.finish("accept", inst)
		return nil
	case key.Matches(k, a.Reject):
		e.asking = true
		return nil
	case key.Matches(k, a.Close):
		e.outcome = &Outcome{Closed: true}
		return nil
	}
	return e.form.Update(msg)
}

func (e *Elicit) finish(action string, content json.RawMessage) {
	e.outcome = &Outcome{Answer: model.ElicitAnswer(action, content)}
}

// View implements Editor.
func (e *Elicit) View(w, h int) []string {
	st := e.opts.Styles
	var out []string
	msg, more := kit.Wrap(e.message, max(w-4, 1), 4)
	out = append(out, kit.Row(st, w, false, kit.Own(" The server asks:", w, st.Muted)))
	for i, l := range msg {
		if i == len(msg)-1 && more {
			l += "…"
		}
		out = append(out, kit.Row(st, w, false, kit.Txt("   ", st.Text), kit.Seg{S: l, St: st.Bold}))
	}
	out = append(out, kit.Rule(st, w))
	foot := kit.Row(st, w, false, kit.Own(" "+keymap.HintFit(w-1, e.Keys()...), w, st.Subtle))
	if e.err != "" {
		foot = kit.Row(st, w, false, kit.Txt(" ✗ ", st.Error), kit.SrvFree(e.err, w-3, st.Error))
	} else if e.asking {
		foot = kit.Row(st, w, false, kit.Own(" Reject the form: "+keymap.Hint(e.Keys()...), w, st.Warn))
	}
	body := e.form.View(w, max(h-len(out)-1, 1))
	out = append(out, body...)
	out = kit.Pad(out, w, h-1)
	return append(out, foot)
}
