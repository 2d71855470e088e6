package attach

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/replay"
)

// TestAttachIsReadOnly: the attached inspector is read-only: its footer
// offers no cancel, extend or new request, the composer's key says why
// instead of opening it, and the breakpoint keys (they go to the tap)
// still work.
func TestAttachIsReadOnly(t *testing.T) {
	m := newTestModel(t, Options{}, 160, 48)
	view := ansi.Strip(m.View().Content)
	for _, s := range []string{"c cancel", "+ extend", "n new request"} {
		if strings.Contains(view, s) {
			t.Errorf("attach offers %q:\n%s", s, view)
		}
	}
	if !strings.Contains(view, "enter outcome") || !strings.Contains(view, "breakpoint") {
		t.Errorf("attach lost its viewing or breakpoint keys:\n%s", view)
	}
	m.Update(tea.KeyPressMsg{Code: 'n', Text: "n"})
	view = ansi.Strip(m.View().Content)
	if !strings.Contains(view, replay.ErrReadOnly.Error()) || strings.Contains(view, "ctrl+s send") {
		t.Errorf("n in attach:\n%s", view)
	}
	m.Update(tea.KeyPressMsg{Code: 'k', Mod: tea.ModCtrl})
	if m.filter == nil {
		t.Error("ctrl+k (breakpoint) does not open the filter")
	}
}
