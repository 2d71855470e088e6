package attach

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestBreakFilterIsDrawnStyled: the breakpoint filter's line is the
// program's own styled text: its styles reach the terminal as styles, not
// as escaped "\x1b[37m" text around the prompt.
func TestBreakFilterIsDrawnStyled(t *testing.T) {
	m := newTestModel(t, Options{}, 100, 30)
	m.Update(tea.KeyPressMsg{Code: 'k', Mod: tea.ModCtrl})
	line := ansi.Strip(m.BreakLine(100))
	if !strings.HasPrefix(line, "break on: ") || strings.Contains(line, `\x1b`) {
		t.Fatalf("the breakpoint filter is drawn as %q", line)
	}
}
