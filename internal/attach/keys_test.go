package attach

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/replay"
	"github.com/mcptui/mcptui/internal/tap"
	"github.com/mcptui/mcptui/keymap"
)

// noTap is a tap that takes every request and does nothing.
type noTap struct{}

func (noTap) Send(tap.Request) error { return nil }

// newTestModel is an attached inspector on an empty replay backend and a
// tap that does nothing, sized w×h; opts' theme and tick default to
// "dark" and none.
func newTestModel(t *testing.T, opts Options, w, h int) *Model {
	t.Helper()
	backend := replay.NewBackend(nil)
	t.Cleanup(backend.Close)
	if opts.Theme == "" {
		opts.Theme = "dark"
	}
	if opts.Tick == 0 {
		opts.Tick = -1
	}
	m := New("t1", record.Entry{Command: "server"}, backend, noTap{}, opts)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// TestAttachTakesTheUsersKeys: the attached inspector obeys the user's key
// file: the breakpoint line names the rebound key, that key opens the
// filter and the default one no longer does; the inspector under it shows
// the rebound keys too.
func TestAttachTakesTheUsersKeys(t *testing.T) {
	keys := keymap.Default()
	if err := keys.Rebind(map[string][]string{"tap.break": {"B"}, "global.quit": {"Q"}}); err != nil {
		t.Fatal(err)
	}
	m := newTestModel(t, Options{Keys: &keys}, 140, 40)
	view := ansi.Strip(m.View().Content)
	if !strings.Contains(view, "no breakpoint   (B to hold") || !strings.Contains(view, "Q quit") {
		t.Fatalf("the attached inspector does not name the rebound keys:\n%s", view)
	}
	def := keymap.Default().Tap.Break.Keys()[0]
	m.Update(tea.KeyPressMsg{Code: rune(def[0]), Text: def})
	if m.filter != nil {
		t.Fatalf("the default %q still opens the breakpoint filter", def)
	}
	m.Update(tea.KeyPressMsg{Code: 'B', Text: "B"})
	if m.filter == nil {
		t.Fatal("the rebound B does not open the breakpoint filter")
	}
}
