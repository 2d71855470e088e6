package attach

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/replay"
)

// TestBreakFilterIsDrawnStyled: the breakpoint filter's line is the
// program's own styled text: its styles reach the terminal as styles, not
// as escaped "\x1b[37m" text around the prompt.
func TestBreakFilterIsDrawnStyled(t *testing.T) {
	backend := replay.NewBackend(nil)
	defer backend.Close()
	m := New("t1", record.Entry{Command: "server"}, backend, noTap{}, Options{Theme: "dark", Tick: -1})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.Update(tea.KeyPressMsg{Code: 'k', Mod: tea.ModCtrl})
	line := ansi.Strip(m.BreakLine(100))
	if !strings.HasPrefix(line, "break on: ") || strings.Contains(line, `\x1b`) {
		t.Fatalf("the breakpoint filter is drawn as %q", line)
	}
}
