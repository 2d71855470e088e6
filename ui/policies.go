package ui

import (
	"encoding/json"
	"fmt"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/model"
)

// policyState is what the policies need from the UI: whether the roots
// "none configured" was said, so that it is said once.
type policyState struct {
	saidNoRoots bool
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
