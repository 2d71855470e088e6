package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/tmuxtest"
)

// demoUntil starts the demo like demo, and waits for ready as the log
// view tells it (at 80 columns the header has no room for the state).
func demoUntil(t *testing.T, name string, w, h int, ready string) *tmuxtest.Term {
	t.Helper()
	tmuxtest.Require(t)
	bin := tmuxtest.Build(t)
	command := fmt.Sprintf("env TERM=xterm-256color COLORTERM=truecolor XDG_STATE_HOME=%s XDG_CONFIG_HOME=%s GORACE=atexit_sleep_ms=0 %s --no-bell --demo",
		t.TempDir(), t.TempDir(), bin)
	x := tmuxtest.Start(t, name, w, h, command)
	x.WaitFor(ready)
	return x
}

// TestLogAndServerViews runs the demo's log tool from the catalog, as the
// README says, and reads its lines — every level, debug included, since
// mcptui asks for debug at start — in the log view on the main screen,
// with no key pressed to find them; then reads the server's instructions
// in the server view, and L changes the level from there.
func TestLogAndServerViews(t *testing.T) {
	for _, size := range [][2]int{{160, 48}, {80, 24}} {
		x := demoUntil(t, fmt.Sprintf("views-%d", size[0]), size[0], size[1], "7 Log (0) · level debug")
		pick(x, "log", "Call tool log")
		x.Keys("C-s")
		x.WaitFor("so 8 of 8 went out")
		if size[1] >= 48 {
			// A tall catalog keeps the log in view under it.
			x.WaitFor("7 Log (8) · level debug", "emergency", "demo.log")
		}
		x.Keys("6")
		for _, gone := range []string{"so 8 of 8 went out", "Call tool log", "filter log", "6 Catalog"} {
			x.Keys("Escape")
			x.WaitGone(gone)
		}
		s := x.WaitFor("7 Log (8) · level debug")
		log := s[strings.Index(s, "7 Log (8)"):]
		for _, level := range []string{"alert", "emergency"} {
			if !strings.Contains(log, level) {
				t.Errorf("%dx%d: the log view lacks the %s line:\n%s", size[0], size[1], level, s)
			}
		}
		x.Keys("7", ">", ">", ">", ">", ">", ">", ">")
		x.WaitFor("7 Log (1 of 8", "emergency")
		x.Keys("8", "z")
		x.WaitFor("8 Server — mcptui-demo", "Instructions", "This is mcptui's demo server")
		x.Keys("L")
		x.WaitFor("The least severe level the server should send:")
		x.Keys("Down", "Down", "Down", "Enter")
		x.WaitFor("level warning")
		x.Keys("q")
		x.WaitExit()
	}
}
