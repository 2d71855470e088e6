package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/keymap"
)

// TestRebindingChangesHintsAndHelp: a key rebound (as keys.json does)
// works, and every hint and the ? help name the new key, never the old
// one: the main footer, the catalog's form, the answer editor, the help.
func TestRebindingChangesHintsAndHelp(t *testing.T) {
	keys := keymap.Default()
	if err := keys.Rebind(map[string][]string{
		"global.compose": {"N"},       // footer of the panes
		"catalog.send":   {"ctrl+y"},  // the catalog form's footer
		"form.clear":     {"ctrl+w"},  // the form's own hint line
		"answer.reject":  {"ctrl+q"},  // the sampling editor
		"pending.reject": {"X"},       // pane 2 and its help
		"catalog.log":    {"ctrl+o"},  // the catalog's tab keys
		"global.help":    {"?", "f2"}, // help itself
	}); err != nil {
		t.Fatal(err)
	}
	m := New(Options{Backend: uitest.New(), Now: now, Tick: -1, Theme: "dark", NoBell: true, Catalog: richServer{}, Keys: &keys})
	m.Update(EventsMsg{Events: uitest.Session()})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	lacks := func(where string, want, unwanted []string) {
		t.Helper()
		s := ansi.Strip(m.render())
		for _, w := range want {
			if !strings.Contains(s, w) {
				t.Fatalf("%s: lacks %q:\n%s", where, w, s)
			}
		}
		for _, u := range unwanted {
			if strings.Contains(s, u) {
				t.Fatalf("%s: still shows %q:\n%s", where, u, s)
			}
		}
	}
	lacks("panes", []string{"N new request"}, []string{"n new request"})

	// Pane 2: the footer and the ? help name X.
	press(m, "2")
	lacks("pane 2", []string{"X reject"}, []string{"x reject"})
	press(m, "?")
	lacks("help of pane 2", []string{"X     reject", "N new request"}, []string{"x     reject"})
	press(m, "esc")

	// The sampling editor (enter on the question).
	press(m, "enter")
	if !topIs[*answerOverlay](m) {
		t.Fatalf("enter on the question opened overlay %T", m.top())
	}
	lacks("sampling editor", []string{"ctrl+q reject"}, []string{"ctrl+x reject"})
	m.Update(tea.KeyPressMsg{Code: tea.KeyF2})
	lacks("help in the editor", []string{"ctrl+q reject", "f2"}, []string{"ctrl+x"})
	press(m, "esc", "esc")

	// The catalog: its footer, its form, its help.
	_, cmd := m.Update(keyMsg("E"))
	run(t, m, cmd)
	press(m, "?")
	lacks("help of the catalog", []string{"ctrl+o log", "ctrl+a answer"}, []string{"g      log"})
	press(m, "esc", "enter")
	lacks("catalog form", []string{"ctrl+y send", "ctrl+w clears"}, []string{"ctrl+s send", "ctrl+d"})
	m.Update(tea.KeyPressMsg{Code: tea.KeyF2})
	lacks("help in the form", []string{"ctrl+y send", "ctrl+w leave out"}, []string{"ctrl+s"})
	press(m, "esc")
	typeText(m, "hi")
	run(t, m, press(m, "ctrl+y"))
	lacks("the rebound send key sends", []string{"echo: hi"}, nil)
}
