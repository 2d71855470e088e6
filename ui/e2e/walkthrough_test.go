package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/tmuxtest"
)

// demo starts the real binary on its demo server in tmux, with private
// state and config directories.
func demo(t *testing.T, name string, w, h int, flags ...string) *tmuxtest.Term {
	t.Helper()
	tmuxtest.Require(t)
	bin := tmuxtest.Build(t)
	command := fmt.Sprintf("env TERM=xterm-256color COLORTERM=truecolor XDG_STATE_HOME=%s XDG_CONFIG_HOME=%s GORACE=atexit_sleep_ms=0 %s --no-bell %s --demo",
		t.TempDir(), t.TempDir(), bin, strings.Join(flags, " "))
	x := tmuxtest.Start(t, name, w, h, command)
	x.WaitFor("● ready")
	return x
}

// pick opens the catalog and the form of one of its tools.
func pick(x *tmuxtest.Term, tool, formTitle string) {
	x.Keys("E")
	x.WaitFor("6 Catalog", "Tools ")
	x.Keys("/")
	x.Text(tool)
	x.Keys("Enter")
	x.WaitFor("filter " + tool)
	x.Keys("Enter")
	x.WaitFor(formTitle)
}

// TestWalkthroughSample is the README's walkthrough on the demo: pick
// sample in the catalog, send it, answer the sampling question by hand in
// pane 2, and read the sampled text on the main screen, with pane 1
// telling the round that waited for the person from the finished call.
func TestWalkthroughSample(t *testing.T) {
	x := demo(t, "walk-sample", 160, 48)
	pick(x, "sample", "Call tool sample")
	x.Keys("C-s")
	// The call is an ordinary request in pane 1, and the first round
	// says it waits for the person.
	x.WaitFor("waiting for tools/call sample", "1 Requests (", "waits for you", "2 Server asks ● 1 waiting for you")

	x.Keys("2")
	x.Keys("Enter")
	x.WaitFor("you are the model", "Write a haiku about terminal user interfaces.")
	reply := "Cursor blinks at dawn"
	x.Text(reply)
	x.WaitFor(reply)
	x.Keys("C-s")

	// The result is rendered on the main screen, in the catalog, beside
	// the requests and the questions.
	s := x.WaitFor(`The model "mcptui-human" replied (stop reason "endTurn"):`, reply)
	x.WaitUntil("the call ok in pane 1", func(s string) bool { return rowWith(s, "tools/call", "sample", " ok") })
	for _, want := range []string{"2 Server asks (0 waiting)", "answered"} {
		if !strings.Contains(s, want) {
			t.Errorf("the main screen lacks %q:\n%s", want, s)
		}
	}
	// One esc at a time goes back: the result, the form, the list (with
	// its filter), then out of the catalog to the pane before it.
	x.Keys("6")
	for _, gone := range []string{"replied (stop reason", "Call tool sample"} {
		x.Keys("Escape")
		x.WaitGone(gone)
	}
	x.Keys("Escape")
	x.WaitGone("filter sample")
	x.Keys("Escape")
	x.WaitGone("6 Catalog")
	x.WaitFor("3 Traffic (", "┏━ 2 Server asks")
	x.Keys("q")
	x.WaitExit()
}

// TestCatalogCallCancelledInPaneOne: a call made from the catalog is an
// ordinary request in pane 1: esc leaves its page without cancelling it,
// + extends its timer there, and c cancels it there.
func TestCatalogCallCancelledInPaneOne(t *testing.T) {
	x := demo(t, "walk-cancel", 160, 48)
	pick(x, "slow", "Call tool slow")
	x.Keys("C-s")
	x.WaitFor("waiting for tools/call slow", "c cancels it")
	x.Keys("Escape")
	x.WaitFor("slow goes on (pane 1 shows it)")
	x.Keys("1")
	x.WaitUntil("slow in flight in pane 1", func(s string) bool { return rowWith(s, "tools/call", "slow", " left") })
	x.Keys("+")
	x.WaitFor("extended request")
	x.Keys("c")
	x.WaitFor("cancelled tools/call slow (notifications/cancelled sent)")
	x.WaitUntil("slow cancelled in pane 1", func(s string) bool { return rowWith(s, "tools/call", "slow", "cancelled") })
	x.Keys("q")
	x.WaitExit()
}

// rowWith reports whether one line of the screen holds every part.
func rowWith(screen string, parts ...string) bool {
	for _, l := range strings.Split(screen, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(l, p)
		}
		if all {
			return true
		}
	}
	return false
}

// TestRebindFromKeyFile: a key file in the XDG config directory rebinds
// compose to N; the footer's hint follows and N opens the composer.
func TestRebindFromKeyFile(t *testing.T) {
	tmuxtest.Require(t)
	bin := tmuxtest.Build(t)
	cfg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfg, "mcptui"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "mcptui", "keys.json"), []byte(`{"global.compose":["N"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	command := fmt.Sprintf("env TERM=xterm-256color XDG_STATE_HOME=%s XDG_CONFIG_HOME=%s GORACE=atexit_sleep_ms=0 %s --no-bell --demo",
		t.TempDir(), cfg, bin)
	x := tmuxtest.Start(t, "walk-rebind", 100, 30, command)
	x.WaitFor("● ready", "N new request")
	if s := x.Screen(); strings.Contains(s, "n new request") {
		t.Fatalf("the footer still names n:\n%s", s)
	}
	x.Keys("N")
	x.WaitFor("New request")
	x.Keys("Escape")
	x.WaitGone("New request")
	x.Keys("q")
	x.WaitExit()
}
