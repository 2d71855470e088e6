package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/mcptui/mcptui/keymap"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// policiesDialog lists the answer policies, one kind of question a row,
// and changes the selected one live. The decision itself is the
// session's (backend.Policies): the dialog only shows and asks.
type policiesDialog struct {
	policies model.Policies
	methods  []string
	cursor   int
}

// policyState is what the policies need from the UI: whether the roots
// "none configured" was said, so that it is said once.
type policyState struct {
	saidNoRoots bool
}

// openPolicies opens the answer policies dialog.
func (m *Model) openPolicies() {
	b, ok := m.backend.(backend.Policies)
	if !ok {
		m.say(true, "this connection answers nothing by itself: every question waits for you")
		return
	}
	ps := b.Policies()
	methods := ps.Methods()
	for _, q := range m.sess.Questions() {
		if !slices.Contains(methods, q.Method) {
			methods = append(methods, q.Method)
		}
	}
	m.show(&policiesDialog{policies: ps, methods: methods})
}

// key drives the dialog: move, change the selected policy, close.
func (d *policiesDialog) key(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Overlay.Close, m.keys.Pending.Policies):
		m.closeOverlay(d)
	case key.Matches(msg, m.keys.List.Up):
		d.cursor = max(d.cursor-1, 0)
	case key.Matches(msg, m.keys.List.Down):
		d.cursor = min(d.cursor+1, len(d.methods)-1)
	case key.Matches(msg, m.keys.Pending.PolicyCycle):
		b, ok := m.backend.(backend.Policies)
		if !ok || len(d.methods) == 0 {
			return nil
		}
		method := d.methods[d.cursor]
		p := d.policies.For(method).Next(method)
		d.policies = d.policies.Set(method, p)
		rule := p.Rule(method)
		return m.do("answer policy "+inert.Fit(rule, 60)+" (from the next question on)",
			func(context.Context) error { return b.SetPolicy(method, p) })
	}
	return nil
}

// View draws the dialog's body.
func (d *policiesDialog) View(m *Model, w, h int) []string {
	st := m.styles
	const kindW, actW = 24, 9
	out := []string{
		kit.Row(st, w, false, kit.Own(" what the server asks", kindW, st.Muted), kit.Own("policy", actW, st.Muted), kit.Own("what is sent", w-kindW-actW, st.Muted)),
	}
	for i, method := range d.methods {
		p := d.policies.For(method)
		actSt := st.Text
		switch p.Action {
		case model.PolicyAnswer:
			actSt = st.OK
		case model.PolicyReject:
			actSt = st.Warn
		}
		out = append(out, kit.Row(st, w, i == d.cursor,
			kit.Srv(" "+model.PolicyKind(method), kindW, st.Text), kit.Own(p.Action.String(), actW, actSt),
			kit.Srv(m.policyWhat(method, p), w-kindW-actW, st.Muted)))
	}
	out = append(out, kit.Row(st, w, false))
	for _, l := range []string{
		" ask: the question waits in pane 2 for you",
		" answer: the prepared answer goes at once",
		" reject: an error (a decline for an elicitation)",
		" What a policy answered stays in pane 2, marked auto;",
		" its line in traffic says [auto …]. --answer KIND=ACTION sets them at start.",
	} {
		out = append(out, kit.Row(st, w, false, kit.Own(l, w, st.Muted)))
	}
	for len(out) < h {
		out = append(out, kit.Row(st, w, false))
	}
	return out[:h]
}

// policyWhat says what a policy sends.
func (m *Model) policyWhat(method string, p model.Policy) string {
	switch p.Action {
	case model.PolicyAsk:
		return "nothing until you answer"
	case model.PolicyReject:
		switch method {
		case model.MethodSampling:
			return "error -1 User rejected sampling request"
		case model.MethodElicit:
			return `{"action":"decline"}`
		}
		return "error -32603"
	}
	if p.Via != "" {
		return p.Via
	}
	switch method {
	case model.MethodRoots:
		roots := m.rootList().Get()
		if len(roots) == 0 {
			return "no roots (none configured: --root)"
		}
		return fmt.Sprintf("%d roots (--root, or as edited)", len(roots))
	case model.MethodElicit:
		return "accept with the schema's defaults"
	}
	return "{}"
}

// policyNotes says on the status line what a policy answered: "none
// configured" for roots once, then each answer.
func (m *Model) policyNotes(evs []model.Event) {
	for _, ev := range evs {
		r, ok := ev.(model.QuestionResolved)
		if !ok || r.Auto == "" {
			continue
		}
		if r.Auto == "roots=answer" && len(m.rootList().Get()) == 0 && !m.policyState.saidNoRoots {
			m.policyState.saidNoRoots = true
			m.say(false, "the server asked for roots: answered with none by the policy roots=answer (--root offers some; p in pane 2 changes it)")
			continue
		}
		if m.top() == nil {
			m.say(false, "answered by the policy %s (pane 2 lists it)", inert.Fit(r.Auto, 60))
		}
	}
}

// autoOutcome says how a policy answered a question.
func autoOutcome(q *model.Question) string {
	switch {
	case q.State == model.Rejected && q.Err != nil:
		return fmt.Sprintf("✗ rejected by the policy %s at once: error %d %s", q.Auto, q.Err.Code, q.Err.Message)
	case q.State == model.Rejected:
		return fmt.Sprintf("✗ %s by the policy %s at once", elicitAction(q.Answer), q.Auto)
	case q.Kind == model.AskRoots:
		var a struct {
			Roots []json.RawMessage `json:"roots"`
		}
		_ = json.Unmarshal(q.Answer, &a)
		return fmt.Sprintf("✓ answered by the policy %s at once: %d roots", q.Auto, len(a.Roots))
	}
	return fmt.Sprintf("✓ answered by the policy %s at once", q.Auto)
}

// rootsToPolicies gives the session the roots as the person edited them,
// for the prepared roots answer.
func (m *Model) rootsToPolicies() {
	if b, ok := m.backend.(backend.Policies); ok {
		b.SetRoots(m.rootList().Get())
	}
}

// Update drives the dialog by its keys.
func (d *policiesDialog) Update(m *Model, msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return d.key(m, k)
	}
	return nil
}

// Title names the dialog.
func (d *policiesDialog) Title(*Model) string { return "Answer policies" }

// Context is the policies dialog's.
func (d *policiesDialog) Context(*Model) keymap.Context { return keymap.PoliciesOverlay }

// Keys are the context's.
func (d *policiesDialog) Keys(*Model) []key.Binding { return nil }
