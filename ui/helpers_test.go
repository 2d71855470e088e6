package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

var _ backend.Backend = (*uitest.Backend)(nil)

// now is the fixed drawing clock of the tests.
func now() time.Time { return uitest.At(30) }

// newTest builds a model over a fake backend, sized, with the scripted
// session applied.
func newTest(t *testing.T, w, h int, evs ...model.Event) (*Model, *uitest.Backend) {
	t.Helper()
	fb := uitest.New()
	m := New(Options{Backend: fb, Now: now, Tick: -1, Theme: "dark", NoBell: true,
		Session: model.New(model.Config{Timeout: 30 * time.Second, Roots: []model.Root{{URI: "file:///home/me/project", Name: "project"}}})})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	if len(evs) > 0 {
		m.Update(EventsMsg{Events: evs})
	}
	return m, fb
}

// press sends keys: single characters, or names like "enter", "ctrl+s".
func press(m *Model, keys ...string) tea.Cmd {
	var cmds []tea.Cmd
	for _, k := range keys {
		_, cmd := m.Update(keyMsg(k))
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+s":
		return tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// typeText sends each rune as a key press.
func typeText(m *Model, s string) {
	for _, r := range s {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// run executes a Cmd (and the Cmds of batches) and feeds the results back
// into the model, the way the program would, but only one level deep.
func run(t *testing.T, m *Model, cmd tea.Cmd) []tea.Msg {
	t.Helper()
	if cmd == nil {
		return nil
	}
	msg := cmd()
	var out []tea.Msg
	if batch, ok := msg.(tea.BatchMsg); ok {
		for _, c := range batch {
			out = append(out, run(t, m, c)...)
		}
		return out
	}
	m.Update(msg)
	return []tea.Msg{msg}
}

func screen(m *Model) string { return ansi.Strip(m.render()) }
