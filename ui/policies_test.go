package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/dialog"
)

// policyBackend is the fake backend with answer policies of its own, as
// the session has (backend.Policies).
type policyBackend struct {
	*uitest.Backend
	ps  model.Policies
	set []string
}

func (b *policyBackend) Policies() model.Policies { return b.ps }
func (b *policyBackend) SetPolicy(method string, p model.Policy) error {
	b.set = append(b.set, p.Rule(method))
	b.ps = b.ps.Set(method, p)
	return nil
}
func (b *policyBackend) SetRoots([]model.Root) {}

// TestPoliciesDialogChangesAPolicy: p in pane 2 opens the answer
// policies (ui/dialog), space changes the selected one through the
// backend and the status line says so; esc closes it. A connection with
// no policies says why nothing opens.
func TestPoliciesDialogChangesAPolicy(t *testing.T) {
	fb := &policyBackend{Backend: uitest.New(), ps: model.DefaultPolicies()}
	m := New(Options{Backend: fb, Now: now, Tick: -1, Theme: "dark", NoBell: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(EventsMsg{Events: uitest.Session()})
	press(m, "2", "p")
	s := screen(m)
	if !topIs[*dialog.Policies[*Model]](m) || !strings.Contains(s, "Answer policies") || !strings.Contains(s, "what the server asks") {
		t.Fatalf("no policies dialog (%T):\n%s", m.top(), s)
	}
	run(t, m, press(m, "space"))
	if len(fb.set) != 1 {
		t.Fatalf("policies set: %q", fb.set)
	}
	if want := "answer policy " + fb.set[0] + " (from the next question on)"; m.notice != want {
		t.Errorf("notice %q, want %q", m.notice, want)
	}
	press(m, "esc")
	if m.top() != nil {
		t.Fatalf("esc left %T open", m.top())
	}

	plain, _ := newTest(t, 120, 40, uitest.Session()...)
	press(plain, "2", "p")
	if plain.top() != nil || !strings.Contains(plain.notice, "answers nothing by itself") {
		t.Errorf("without policies: overlay %T, notice %q", plain.top(), plain.notice)
	}
}
