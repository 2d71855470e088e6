package timeline

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/replay"
)

// TestTimelineIsReadOnly: the replay's inspector is read-only, also once a
// step back rebuilt it: its footer offers no cancel, extend or new
// request, and the composer's key says why instead of opening it.
func TestTimelineIsReadOnly(t *testing.T) {
	t.Parallel()
	rec, err := record.Open(filepath.Join("testdata", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	tl := NewTimeline(rec, Options{Theme: "dark", Title: "rec.jsonl"})
	tl.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	for _, step := range []string{"loaded", "stepped back"} {
		if step == "stepped back" {
			tl.Update(key(keyPrev))
		}
		view := ansi.Strip(tl.View().Content)
		for _, s := range []string{"c cancel", "+ extend", "n new request"} {
			if strings.Contains(view, s) {
				t.Errorf("%s: the replay offers %q:\n%s", step, s, view)
			}
		}
		if !strings.Contains(view, "enter outcome") {
			t.Errorf("%s: the replay lost its viewing keys:\n%s", step, view)
		}
		tl.Update(tea.KeyPressMsg{Code: 'n', Text: "n"})
		view = ansi.Strip(tl.View().Content)
		if !strings.Contains(view, replay.ErrReadOnly.Error()) || strings.Contains(view, "ctrl+s send") {
			t.Errorf("%s: n in the replay:\n%s", step, view)
		}
	}
}
