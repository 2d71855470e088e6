package check

import (
	"context"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/check/rules"
	"github.com/mcptui/mcptui/internal/testkit/everything"
)

// The everything server (a real server from npm) breaks no MUST, and
// check reports its known SHOULD, best-practice and robustness findings
// (README lists them).
func TestEverythingServer(t *testing.T) {
	t.Parallel()
	cmd, args := everything.Server(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	o := Options{Command: cmd, Args: args, Timeout: 30 * time.Second, Sampling: declineAll, ElicitForm: declineAll, ElicitURL: declineAll, Roots: declineAll}
	rep := Run(ctx, o)
	if rep.Error != "" || len(rep.Eras) != 1 || rep.Eras[0].Era != "2025-11-25" {
		t.Fatalf("check: %q, eras %+v", rep.Error, rep.Eras)
	}
	e := &rep.Eras[0]
	for _, res := range e.Results {
		if res.Status == Failed && res.Rule.Level == rules.Must {
			t.Errorf("MUST %s failed: %v", res.ID, res.Seen)
		}
	}
	for _, id := range []string{"tools.unknown-tool", "pagination.invalid-cursor", "resources.not-found-32002", "errors.parse-error", "transport.batch-refused"} {
		if r := resultOf(e, id); r == nil || r.Status != Failed {
			t.Errorf("%s: %+v, want the known finding", id, r)
		}
	}
	if r := resultOf(e, "tools.call-result"); r == nil || r.Status != Passed {
		t.Errorf("no read-only tool was called: %+v", r)
	}
}
