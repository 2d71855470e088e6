package timeline

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// foldChunk is ui's: how many events one slice folds when the budget is
// spent at the first look at the clock.
const foldChunk = 128

// bigRecording is the demo recording with n log notifications the server
// sent after it was ready (before its exit).
func bigRecording(t *testing.T, n int) *record.Recording {
	t.Helper()
	rec, err := record.Open(filepath.Join("testdata", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	at := slices.IndexFunc(rec.Entries, func(e record.Entry) bool { return e.Type == record.TypeExit })
	if at < 0 {
		t.Fatal("the recording has no exit")
	}
	when := rec.Entries[at-1].Time
	flood := make([]record.Entry, n)
	for i := range flood {
		line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"tick %d"}}`, i)
		flood[i] = record.Entry{Type: record.TypeReceived, Time: when.Add(time.Duration(i) * time.Microsecond), Size: len(line), Msg: []byte(line)}
	}
	rec.Entries = slices.Insert(rec.Entries, at, flood...)
	return rec
}

// newFoldTimeline is a timeline on rec whose budget is spent at the first
// look at the clock: every slice folds one chunk. Its load is drained.
func newFoldTimeline(t *testing.T, rec *record.Recording) (*Timeline, *uitest.Pump) {
	t.Helper()
	tl := NewTimeline(rec, Options{Theme: "dark", Title: "big.jsonl", FoldBudget: time.Nanosecond})
	p := &uitest.Pump{Model: tl}
	// Init asks the backend for a batch, which would wait for ever: a
	// closed backend answers at once (and nothing else of the inspector
	// depends on it).
	tl.backend.Close()
	p.Run(tl.Init())
	p.Send(tea.WindowSizeMsg{Width: 140, Height: 40})
	p.Drain(t)
	return tl, p
}

// freshAt is a timeline on rec sought to cursor, without a budget: what
// the folded one must end up showing.
func freshAt(t *testing.T, rec *record.Recording, cursor int) *Timeline {
	t.Helper()
	tl := NewTimeline(rec, Options{Theme: "dark", Title: "big.jsonl"})
	tl.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
	tl.Seek(cursor)
	if tl.Inspector().Backlog() != 0 {
		t.Fatal("a timeline without a budget left a backlog")
	}
	return tl
}

// sameState fails unless got shows what want shows.
func sameState(t *testing.T, got, want *Timeline) {
	t.Helper()
	if got.Cursor() != want.Cursor() {
		t.Fatalf("cursor %d, want %d", got.Cursor(), want.Cursor())
	}
	if g, w := got.Inspector().Session().History().Len(), want.Inspector().Session().History().Len(); g != w {
		t.Fatalf("history: %d entries, want %d", g, w)
	}
	if g, w := got.View().Content, want.View().Content; g != w {
		t.Fatalf("the screen differs from a fresh timeline's at %d:\n%s\nwant:\n%s", want.Cursor(), g, w)
	}
}

// A step back rebuilds the inspector a slice at a time: the key's Update
// folds one chunk, a key typed meanwhile (the inspector's and the
// timeline's own) is handled before the rest, and once the slices are
// folded the screen is that of a fresh timeline at the cursor.
func TestStepBackRebuildsInSlices(t *testing.T) {
	t.Parallel()
	rec := bigRecording(t, 5000)
	tl, p := newFoldTimeline(t, rec)
	n := tl.Len()
	if tl.Cursor() != n || tl.Inspector().Backlog() != 0 {
		t.Fatalf("the load left cursor %d of %d, %d events to fold", tl.Cursor(), n, tl.Inspector().Backlog())
	}

	mid := n / 2
	p.Run(tl.Seek(mid))
	if got := tl.Inspector().Session().History().Len(); got > foldChunk {
		t.Fatalf("the step back folded %d entries in one Update, more than a chunk (%d)", got, foldChunk)
	}
	// Waiting: in the inspector's backlog, or not yet handed to it.
	waiting := tl.waiting()
	if waiting == 0 {
		t.Fatal("the step back left nothing to fold: not sliced")
	}

	// The inspector's help key, and the timeline's step forward, are
	// handled before the next slice: they fold nothing themselves.
	help := tea.KeyPressMsg{Code: '?', Text: "?"}
	p.Send(help)
	if !strings.Contains(tl.View().Content, "Keys") {
		t.Fatalf("the help key was not handled mid-rebuild:\n%s", tl.View().Content)
	}
	p.Send(help)
	p.Send(key(keyNext))
	if tl.Cursor() != mid+1 {
		t.Fatalf("the step forward mid-rebuild left the cursor at %d, want %d", tl.Cursor(), mid+1)
	}
	if got := tl.waiting(); got <= waiting {
		t.Fatalf("keys mid-rebuild folded events: %d wait, %d before (and the step's one)", got, waiting)
	}

	p.Drain(t)
	if tl.Inspector().Backlog() != 0 {
		t.Fatal("the slices stopped before the backlog was folded")
	}
	sameState(t, tl, freshAt(t, rec, mid+1))
}

// A step back while a rebuild is folding starts the new one at once and
// drops the old: the screen ends as the second's, and the old rebuild's
// slices do not go on beside the new one's (one slice at most waits at a
// time, however often the key is pressed).
func TestSecondStepBackDropsTheFirstRebuild(t *testing.T) {
	t.Parallel()
	rec := bigRecording(t, 5000)
	tl, p := newFoldTimeline(t, rec)
	n := tl.Len()

	p.Run(tl.Seek(n / 2))
	p.Step() // one more slice of the first rebuild
	for range 5 {
		p.Send(key(keyPrev)) // held down
	}
	if want := n/2 - 5; tl.Cursor() != want {
		t.Fatalf("cursor %d, want %d", tl.Cursor(), want)
	}
	if got := tl.Inspector().Session().History().Len(); got > foldChunk {
		t.Fatalf("the newest rebuild has %d entries before its first slice was asked for, more than a chunk", got)
	}
	for i := 0; p.Step(); i++ {
		if i > n {
			t.Fatal("the commands never end")
		}
		if len(p.Queue) > 1 && i >= 5 {
			t.Fatalf("%d slices wait at once after the old rebuilds' were handled: the dropped rebuilds still fold", len(p.Queue))
		}
	}
	sameState(t, tl, freshAt(t, rec, n/2-5))

	// And a step back to before where the first rebuild had got to.
	p.Run(tl.Seek(n / 2))
	p.Step()
	p.Run(tl.Seek(100))
	p.Drain(t)
	sameState(t, tl, freshAt(t, rec, 100))
}

// While the inspector is folding the events up to the cursor the status
// line says how far it is; once it is done it describes the event at the
// cursor as before.
func TestStatusLineShowsTheRebuild(t *testing.T) {
	t.Parallel()
	rec := bigRecording(t, 5000)
	tl, p := newFoldTimeline(t, rec)
	if line := tl.StatusLine(140); strings.Contains(line, "…") || !strings.Contains(line, "exited") {
		t.Fatalf("after the load the status line is not today's: %q", line)
	}

	mid := tl.Len() / 2
	p.Run(tl.Seek(mid))
	// The chunk, read and judged in a Cmd, arrives: its first slice is
	// folded.
	p.Step()
	// The events handed over are those up to the cursor, between the two
	// marks that say they are judged.
	percent := func(slices int) string { return fmt.Sprintf("rebuilding… %d%%", slices*foldChunk*100/(mid+2)) }
	line := tl.StatusLine(140)
	if !strings.Contains(line, percent(1)) || !strings.Contains(line, fmt.Sprintf("%d/%d", mid, tl.Len())) {
		t.Fatalf("mid-rebuild the status line does not say so: %q", line)
	}
	if !strings.Contains(tl.View().Content, "rebuilding…") {
		t.Fatal("the screen does not show the rebuild's progress")
	}
	for range 9 {
		p.Step()
	}
	if line := tl.StatusLine(140); !strings.Contains(line, percent(10)) {
		t.Fatalf("after ten slices of %d events the status line reads %q", mid, line)
	}
	p.Drain(t)
	line = tl.StatusLine(140)
	if strings.Contains(line, "rebuilding") || !strings.Contains(line, Describe(tl.event(mid-1))) {
		t.Fatalf("once rebuilt the status line does not describe the event at the cursor: %q", line)
	}

	// A long step forward: the events from the cursor on.
	p.Run(tl.Seek(tl.Len()))
	if line := tl.StatusLine(140); !strings.Contains(line, "catching up… ") {
		t.Fatalf("a long step forward does not say it is catching up: %q", line)
	}
	p.Drain(t)
	if line := tl.StatusLine(140); strings.Contains(line, "…") || !strings.Contains(line, "exited") {
		t.Fatalf("once caught up the status line is not today's: %q", line)
	}
}

// The status line describes the event at the cursor once per cursor, not
// for every frame: a line can be megabytes, and every key draws a frame.
func TestStatusLineDescribesOncePerCursor(t *testing.T) {
	t.Parallel()
	rec := bigRecording(t, 10)
	tl := NewTimeline(rec, Options{Theme: "dark", Title: "big.jsonl"})
	tl.Seek(tl.Len() - 1)
	first := tl.StatusLine(140)
	evs := tl.src.(*memSource).evs
	at := evs[tl.Cursor()-1]
	// Another event, at the same time, where the cursor is.
	evs[tl.Cursor()-1] = model.Stderr{Stamp: model.Stamp{Time: at.When()}, Line: "another event"}
	if got := tl.StatusLine(140); got != first {
		t.Fatalf("the event at the cursor was described again:\n%q\n%q", got, first)
	}
	evs[tl.Cursor()-1] = at
	tl.Seek(tl.Len())
	if got := tl.StatusLine(140); got == first || !strings.Contains(got, "exited") {
		t.Fatalf("a step does not describe the new event: %q", got)
	}
}
