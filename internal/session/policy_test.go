package session

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

func startWith(t *testing.T, cfg Config, versions ...string) *harness {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(roleEnv, "1")
	cfg.Command, cfg.MCP, cfg.Inbox = exe, mcp.Options{Versions: versions}, inbox.New(inbox.Limits{})
	s, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	return &harness{t: t, s: s}
}

// TestPoliciesAnswerWithoutAPerson: with the default policies a roots
// question is answered at once with the configured roots, and marked as
// the policy's; a policy changed live rejects the next sampling question.
// Both eras: a server request and an input_required entry.
func TestPoliciesAnswerWithoutAPerson(t *testing.T) {
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			h := startWith(t, Config{Policies: model.DefaultPolicies(), Roots: []model.Root{{URI: "file:///srv/project"}}}, version)
			waitFor(h, "Ready", anyOf[model.Ready])
			res, err := h.s.Send(context.Background(), "tools/call", json.RawMessage(`{"name":"roots","arguments":{}}`), 0)
			if err != nil || !strings.Contains(string(res), "file:///srv/project") {
				t.Fatalf("roots tool: %s, %v; want the configured root, answered without a person", res, err)
			}
			r := waitFor(h, "the roots question resolved", func(e model.QuestionResolved) bool { return e.Auto != "" })
			if r.Auto != "roots=answer" || r.State != model.Answered {
				t.Errorf("resolved %+v", r)
			}

			if err := h.s.SetPolicy(model.MethodSampling, model.Policy{Action: model.PolicyReject}); err != nil {
				t.Fatal(err)
			}
			if got := h.s.Policies().For(model.MethodSampling).Action; got != model.PolicyReject {
				t.Fatalf("policy now %v", got)
			}
			res, err = h.s.Send(context.Background(), "tools/call", json.RawMessage(`{"name":"sample","arguments":{"prompt":"Say hi"}}`), 0)
			if err == nil && !strings.Contains(string(res), "isError") {
				t.Fatalf("sample after reject: %s, %v; want the rejection", res, err)
			}
			if version == "2026-07-28" && (err == nil || !strings.HasPrefix(err.Error(), "the sampling=reject policy rejected its sampling question")) {
				// An input_required question rejected ends the request:
				// said in words, naming the policy.
				t.Errorf("sample after reject ended with %v", err)
			}
			r = waitFor(h, "the sampling question rejected", func(e model.QuestionResolved) bool { return e.Auto == "sampling=reject" })
			if r.State != model.Rejected || r.Err == nil || r.Err.Code != -1 {
				t.Errorf("resolved %+v", r)
			}
		})
	}
}

// TestPolicyThatCannotAnswerAsks: a form whose required fields have no
// defaults is not accepted by accept-defaults: the question waits for the
// person, with a note saying why.
func TestPolicyThatCannotAnswerAsks(t *testing.T) {
	ps := model.DefaultPolicies().Set(model.MethodElicit, model.Policy{Action: model.PolicyAnswer, Via: "accept-defaults"})
	h := startWith(t, Config{Policies: ps}, "2025-11-25")
	waitFor(h, "Ready", anyOf[model.Ready])
	go func() {
		_, _ = h.s.Send(context.Background(), "tools/call", json.RawMessage(`{"name":"elicit_form","arguments":{}}`), 0)
	}()
	q := waitFor(h, "the elicitation asked", func(e model.QuestionAsked) bool { return e.Method == model.MethodElicit })
	if !strings.Contains(q.Note, "elicitation=accept-defaults asks you") {
		t.Errorf("note %q", q.Note)
	}
}
