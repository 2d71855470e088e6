package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/everything"
	"github.com/mcptui/mcptui/internal/testkit/tmuxtest"
)

// TestEverythingRootsAnsweredByPolicy: the everything server asks
// roots/list as soon as it is initialized; the default policy answers it
// (no --root: with no roots, said once) without a key, pane 2 lists it
// marked, the answer's traffic line says so, and q then ends the server
// cleanly (its own exit, not SIGTERM).
func TestEverythingRootsAnsweredByPolicy(t *testing.T) {
	tmuxtest.Require(t)
	command, args := everything.Server(t)
	bin := tmuxtest.Build(t)
	rec := filepath.Join(t.TempDir(), "session.jsonl")
	line := fmt.Sprintf("env TERM=xterm-256color XDG_STATE_HOME=%s XDG_CONFIG_HOME=%s GORACE=atexit_sleep_ms=0 %s --no-bell --record %s -- %s %s",
		t.TempDir(), t.TempDir(), bin, rec, command, strings.Join(args, " "))
	x := tmuxtest.Start(t, "e2e-roots-policy", 160, 48, line)
	s := x.WaitFor("● ready", "[auto roots=answer]", "auto roots=answer · ", "2 Server asks (0 waiting)")
	if !strings.Contains(s, "answered with none by the policy roots=answer") {
		t.Errorf("the status line does not say the roots were none:\n%s", s)
	}
	x.Keys("q")
	x.WaitExit()
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	var exit string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, `"type":"exit"`) {
			exit = l
		}
	}
	if !strings.Contains(exit, `"status":"exit status 0"`) {
		t.Fatalf("the server did not end by itself after q: %s", exit)
	}
}

// TestPolicyChangedLive: on the demo, sampling is set to reject in the
// answer policies (p in pane 2); the next sampling question is rejected
// at once, listed in pane 2 as the policy's, and nothing waits.
func TestPolicyChangedLive(t *testing.T) {
	x := demo(t, "policy-live", 160, 48)
	x.Keys("2")
	x.Keys("p")
	x.WaitFor("Answer policies", "sampling               ask")
	x.Keys("j")
	x.Keys("Space")
	x.WaitFor("sampling               reject", "answer policy sampling=reject")
	x.Keys("Escape")
	x.WaitGone("Answer policies")
	pick(x, "sample", "Call tool sample")
	x.Keys("C-s")
	x.WaitFor("auto sampling=reject", "2 Server asks (0 waiting)", "rejected by the policy sampling=reject at once")
	leaveCatalog(x)
	x.Keys("q")
	x.WaitExit()
}

// leaveCatalog presses esc, one level at a time, until the catalog is
// gone. Each esc waits for the level to change, not for any change: the
// screen's timers tick, and an esc sent before the last one was read
// could reach the program together with the next key, as alt+that key.
func leaveCatalog(x *tmuxtest.Term) {
	for range 6 {
		screen := x.Screen()
		if !strings.Contains(screen, "6 Catalog") {
			return
		}
		before := untimed(screen)
		x.Keys("Escape")
		x.WaitUntil("esc to go back a level", func(s string) bool { return untimed(s) != before })
	}
}

// untimed is a screen with its digits masked, so that a ticking timer
// does not count as a change.
func untimed(screen string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '#'
		}
		return r
	}, screen)
}
