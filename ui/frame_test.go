package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// With FrameGap set, at most two views for keys are built within the gap:
// a third key sooner shows the last view again, and the redraw scheduled
// for the gap's end shows what changed, so a burst of keys costs two views
// and the last state is always drawn; other messages are drawn at once.
func TestViewsCoalesceWithinTheFrameGap(t *testing.T) {
	m := New(Options{Backend: uitest.New(), Now: now, Tick: -1, Theme: "dark", NoBell: true,
		Session: model.New(model.Config{}), FrameGap: time.Hour})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	first := m.View().Content
	if _, cmd := m.Update(keyMsg("?")); cmd != nil {
		t.Fatal("a redraw scheduled for the first key's view")
	}
	help := m.View().Content
	if _, cmd := m.Update(keyMsg("?")); cmd != nil { // closes the help
		t.Fatal("a redraw scheduled for the second key's view of the gap")
	}
	closed := m.View().Content
	if help == first || closed == help {
		t.Fatal("the first two keys' views were not built")
	}
	_, cmd := m.Update(keyMsg("?")) // opens it again
	if cmd == nil {
		t.Fatal("no redraw scheduled for the coalesced view")
	}
	if got := m.View().Content; got != closed {
		t.Fatal("a third key's view within the gap was built")
	}
	if m.frames.after(time.Hour, time.Now(), true) != nil {
		t.Error("a second redraw scheduled while one is due")
	}
	m.Update(redrawMsg{})
	if got := m.View().Content; got != help {
		t.Error("the redraw does not show the state the keys left")
	}

	// Other messages are drawn at once, however many.
	for range 3 {
		if _, cmd := m.Update(EventsMsg{}); cmd != nil {
			t.Fatal("a redraw scheduled for a message that is no key")
		}
		m.View()
	}
}

// Without FrameGap every view is built (screen tests rely on it).
func TestViewsWithoutFrameGapAreBuiltEachTime(t *testing.T) {
	m, _ := newTest(t, 100, 30)
	first := m.View().Content
	press(m, "?")
	if m.View().Content == first {
		t.Error("the view after a key is the one before it")
	}
}
