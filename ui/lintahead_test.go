package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// TestLinesAreJudgedOffTheUIGoroutine: the live lint judges a batch's lines
// in the command that takes it from the backend, and Update only keeps what
// was found. (Judging a 16 MiB result took two seconds of the UI goroutine,
// twenty under -race: the screen froze while it ran.)
func TestLinesAreJudgedOffTheUIGoroutine(t *testing.T) {
	b := uitest.New()
	m := New(Options{Backend: b, Now: now, Tick: -1, Theme: "dark", NoBell: true, Session: model.New(model.Config{})})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	evs := uitest.Session()
	evs = append(evs, model.Wire{Stamp: model.Stamp{Time: uitest.At(30)}, Dir: model.In, Line: []byte("Server started!"), Size: 15, Discarded: true, Reason: "not JSON"})
	b.Push(evs...)

	msg := m.waitEvents()()
	batch, ok := msg.(eventsMsg)
	if !ok || batch.err != nil {
		t.Fatalf("waitEvents: %#v", msg)
	}
	if n := len(batch.events); n < 2 || batch.events[0] != (model.LintAhead{On: true}) || batch.events[n-1] != (model.LintAhead{On: false}) {
		t.Fatalf("the batch is not marked as judged: %#v", batch.events)
	}
	before := m.sess.FindingCount()
	m.Update(batch)
	for len(m.fold.events) > 0 {
		m.Update(foldMsg{m: m})
	}
	if got := m.sess.FindingCount(); got <= before || m.sess.LintMark(m.sess.History().NextSeq()-1) != "transport.stdout-messages-only" {
		t.Errorf("the banner's finding was not kept: %d findings, mark %q", got, m.sess.LintMark(m.sess.History().NextSeq()-1))
	}
}
