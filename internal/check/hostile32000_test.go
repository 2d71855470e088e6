package check

import (
	"strings"
	"testing"
	"time"
)

// A server whose tool answers with its own JSON-RPC error -32000 (the code
// conn gives a lost connection) has answered: the check does not wait for
// the server to exit, which a request timeout of 10 minutes would make
// plain (the test's own deadline of 5 minutes ends it first), no rule or
// note speaks of an exit, and the tool's answer is judged as an answer.
// The same holds for a tool answer mcptui discards (nested too deep): it
// fails its call at once and ends nothing else.
func TestHostileServerErrorIsNoLostConnection(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"server-error", "deep-call"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			e := hostileCheckWith(t, kind, func(o *Options) {
				o.Timeout = 10 * time.Minute
				o.Conn.FailLostAnswers = true
			})
			for _, n := range e.Notes {
				if strings.Contains(n, "exit") {
					t.Errorf("note %q speaks of an exit", n)
				}
			}
			for _, res := range e.Results {
				text := res.Why + " " + strings.Join(res.Seen, " ")
				if strings.Contains(text, "exited") || strings.Contains(text, "context") {
					t.Errorf("%s: %s %q", res.ID, res.Status, text)
				}
			}
			wantStatus(t, e, "lifecycle.keeps-serving", Passed, "")
			if kind == "server-error" {
				// A verdict on the answer, not "no answer".
				wantStatus(t, e, "tools.unknown-tool", Failed, "-32000")
			}
		})
	}
}
