package dialog

import (
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
	"github.com/mcptui/mcptui/ui/overlay"
)

// Policies lists the answer policies, one kind of question a row, and
// changes the selected one live. The decision itself is the session's
// (backend.Policies): the dialog only shows and asks. It is an overlay of
// the root model H (p in pane 2).
type Policies[H Host] struct {
	policies model.Policies
	methods  []string
	cursor   int
}

// OpenPolicies opens the answer policies dialog over m, or says why it
// cannot.
func OpenPolicies[H Host](m H) {
	b, ok := m.Backend().(backend.Policies)
	if !ok {
		m.Say(true, "this connection answers nothing by itself: every question waits for you")
		return
	}
	ps := b.Policies()
	methods := ps.Methods()
	for _, q := range m.Session().Questions() {
		if !slices.Contains(methods, q.Method) {
			methods = append(methods, q.Method)
		}
	}
	m.Show(&Policies[H]{policies: ps, methods: methods})
}

// key drives the dialog: move, change the selected policy, close.
func (d *Policies[H]) key(m H, msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.Keys().Overlay.Close, m.Keys().Pending.Policies):
		m.CloseOverlay(d)
	case key.Matches(msg, m.Keys().List.Up):
		d.cursor = max(d.cursor-1, 0)
	case key.Matches(msg, m.Keys().List.Down):
		d.cursor = min(d.cursor+1, len(d.methods)-1)
	case key.Matches(msg, m.Keys().Pending.PolicyCycle):
		b, ok := m.Backend().(backend.Policies)
		if !ok || len(d.methods) == 0 {
			return nil
		}
		method := d.methods[d.cursor]
		p := d.policies.For(method).Next(method)
		d.policies = d.policies.Set(method, p)
		rule := p.Rule(method)
		what := "answer policy " + inert.Fit(rule, 60) + " (from the next question on)"
		return func() tea.Msg { return overlay.Done{What: what, Err: b.SetPolicy(method, p)} }
	}
	return nil
}

// View draws the dialog's body.
func (d *Policies[H]) View(m H, w, h int) []string {
	st := m.Styles()
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
			kit.Srv(policyWhat(m, method, p), w-kindW-actW, st.Muted)))
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
func policyWhat[H Host](m H, method string, p model.Policy) string {
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
		roots := m.Roots()
		if len(roots) == 0 {
			return "no roots (none configured: --root)"
		}
		return fmt.Sprintf("%d roots (--root, or as edited)", len(roots))
	case model.MethodElicit:
		return "accept with the schema's defaults"
	}
	return "{}"
}

// Update drives the dialog by its keys.
func (d *Policies[H]) Update(m H, msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return d.key(m, k)
	}
	return nil
}

// Title names the dialog.
func (d *Policies[H]) Title(H) string { return "Answer policies" }

// Context is the policies dialog's.
func (d *Policies[H]) Context(H) keymap.Context { return keymap.PoliciesOverlay }

// Keys are the context's.
func (d *Policies[H]) Keys(H) []key.Binding { return nil }
