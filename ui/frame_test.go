package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// With FrameGap set, a view asked for within the gap after the last one
// is the last one again, and the redraw scheduled for the gap's end shows
// what changed: a burst of keys costs one view, and the last state is
// always drawn.
func TestViewsCoalesceWithinTheFrameGap(t *testing.T) {
	m := New(Options{Backend: uitest.New(), Now: now, Tick: -1, Theme: "dark", NoBell: true,
		Session: model.New(model.Config{}), FrameGap: time.Hour})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	first := m.View().Content
	_, cmd := m.Update(keyMsg("?"))
	if cmd == nil {
		t.Fatal("no redraw scheduled for the coalesced view")
	}
	if got := m.View().Content; got != first {
		t.Fatal("a view within the gap was built again")
	}
	if m.frames.after(time.Hour, time.Now()) != nil {
		t.Error("a second redraw scheduled while one is due")
	}
	m.Update(redrawMsg{})
	if got := ansi.Strip(m.View().Content); got == ansi.Strip(first) || !strings.Contains(got, "help") {
		t.Errorf("the redraw does not show the state the keys left:\n%s", got)
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
