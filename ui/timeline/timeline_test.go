package timeline

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/replay"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
)

// testdata/demo.jsonl is a recording of the demo server under the script
// of internal/replay's tests (tools, echo, progress, read, get, complete,
// sample, roots, fail, rpc_error), made with
// mcptui run checks.mcpt --record demo.jsonl --answer sampling=text:a-recorded-haiku --root file:///project -- mcptui demo-server

// The timeline's default keys, by name.
var (
	tk          = keymap.Default().Timeline
	keyNext     = tk.Next.Keys()[0]
	keyPrev     = tk.Prev.Keys()[0]
	keyNextSend = tk.NextSend.Keys()[0]
	keyPrevSend = tk.PrevSend.Keys()[0]
	keyStart    = tk.Start.Keys()[0]
	keyEnd      = tk.End.Keys()[0]
)

func key(s string) tea.KeyPressMsg {
	switch s {
	case "ctrl+home":
		return tea.KeyPressMsg{Code: tea.KeyHome, Mod: tea.ModCtrl}
	case "ctrl+end":
		return tea.KeyPressMsg{Code: tea.KeyEnd, Mod: tea.ModCtrl}
	}
	return tea.KeyPressMsg{Code: rune(s[len(s)-1]), Mod: tea.ModCtrl}
}

func TestTimelineSteps(t *testing.T) {
	t.Parallel()
	rec, err := record.Open(filepath.Join("testdata", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	tl := NewTimeline(rec, Options{Theme: "dark", Title: "rec.jsonl"})
	n := tl.Len()
	if tl.Cursor() != n || n < 20 {
		t.Fatalf("cursor %d of %d", tl.Cursor(), n)
	}
	tl.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	view := tl.View().Content
	if !strings.Contains(view, fmt.Sprintf("REPLAY rec.jsonl %d/%d", n, n)) {
		t.Fatalf("no timeline:\n%s", view)
	}
	for _, step := range []struct {
		key  string
		want int
	}{
		{keyPrev, n - 1}, {keyPrev, n - 2}, {keyNext, n - 1}, {keyStart, 0}, {keyNext, 1},
	} {
		if k := key(step.key); k.String() != step.key {
			t.Fatalf("key %q reads as %q", step.key, k.String())
		}
		tl.Update(key(step.key))
		if tl.Cursor() != step.want {
			t.Fatalf("after %s: cursor %d, want %d", step.key, tl.Cursor(), step.want)
		}
	}
	tl.Update(key(keyNextSend))
	first := tl.Cursor()
	w, ok := tl.event(first - 1).(model.Wire)
	if !ok || w.Dir != model.Out {
		t.Fatalf("ctrl+f stopped after %T", tl.event(first-1))
	}
	tl.Update(key(keyNextSend))
	if tl.Cursor() <= first {
		t.Fatalf("ctrl+f did not move on: %d", tl.Cursor())
	}
	tl.Update(key(keyPrevSend))
	if tl.Cursor() != first {
		t.Fatalf("ctrl+b went to %d, want %d", tl.Cursor(), first)
	}
	if got := tl.Inspector().Session().History().Len(); got == 0 {
		t.Fatal("the inspector shows no traffic after stepping")
	}
	tl.Update(key(keyEnd))
	if tl.Cursor() != n || tl.Inspector().Session().Conn().Phase != model.PhaseExited {
		t.Fatalf("end: cursor %d phase %v", tl.Cursor(), tl.Inspector().Session().Conn().Phase)
	}
	if !strings.Contains(tl.View().Content, "exited") {
		t.Fatal("the last event is not described")
	}
}

// TestTimelineTakesTheUsersKeys: the replay program obeys the user's key
// file like the inspector: a rebound step key steps, the default one no
// longer does, and the inspector inside shows the rebound keys too.
func TestTimelineTakesTheUsersKeys(t *testing.T) {
	t.Parallel()
	rec, err := record.Open(filepath.Join("testdata", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	keys := keymap.Default()
	if err := keys.Rebind(map[string][]string{"timeline.prev": {"ctrl+o"}, "global.quit": {"Q"}}); err != nil {
		t.Fatal(err)
	}
	tl := NewTimeline(rec, Options{Theme: "dark", Title: "rec.jsonl", Keys: &keys})
	tl.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	n := tl.Len()
	tl.Update(key(keyPrev))
	if tl.Cursor() != n {
		t.Fatalf("the default %s still steps back: cursor %d of %d", keyPrev, tl.Cursor(), n)
	}
	tl.Update(key("ctrl+o"))
	if tl.Cursor() != n-1 {
		t.Fatalf("the rebound ctrl+o does not step back: cursor %d of %d", tl.Cursor(), n)
	}
	if view := ansi.Strip(tl.View().Content); !strings.Contains(view, "Q quit") {
		t.Errorf("the inspector inside the replay does not show the rebound quit key:\n%s", view)
	}
}

// TestTimelineJudgesTheRecordingOnce: the lines are judged when the
// timeline is built, and fed to the inspector as judged, so that a step
// back, which rebuilds the inspector from the start, does not lint the
// whole recording again on the UI goroutine; the findings are those of a
// session that judged every line itself, after every rebuild.
func TestTimelineJudgesTheRecordingOnce(t *testing.T) {
	t.Parallel()
	rec, err := record.Open(filepath.Join("testdata", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	// A line that breaks a rule: a banner on stdout, after the first line
	// the server sent.
	banner := "Server started!"
	at := slices.IndexFunc(rec.Entries, func(e record.Entry) bool { return e.Type == record.TypeReceived }) + 1
	if at == 0 {
		t.Fatal("the recording has no received line")
	}
	rec.Entries = slices.Insert(rec.Entries, at, record.Entry{Type: record.TypeDiscarded, Time: rec.Entries[at-1].Time, Text: &banner, Size: len(banner), Reason: "not JSON"})
	self := model.New(replay.Config(rec, 0))
	self.ApplyAll(replay.Events(rec))
	want := self.FindingCount()
	if want == 0 {
		t.Fatal("the recording breaks no rule: nothing to compare")
	}
	tl := NewTimeline(rec, Options{Theme: "dark", Title: "rec.jsonl"})
	if got := tl.Inspector().Session().FindingCount(); got != want {
		t.Fatalf("findings: %d, want %d", got, want)
	}
	tl.Update(key(keyStart))
	tl.Update(key(keyEnd))
	if got := tl.Inspector().Session().FindingCount(); got != want {
		t.Fatalf("findings after a rebuild: %d, want %d", got, want)
	}
}
