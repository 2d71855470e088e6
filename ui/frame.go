package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Bubble Tea draws the whole screen after every message, but writes it to
// the terminal only once a frame: a burst of messages (keys typed without
// bracketed paste) drew hundreds of screens that nobody saw, each as
// costly as a frame. With Options.FrameGap set, at most two views are
// built within any gap: a third asked for sooner is the last one again,
// and a redraw is scheduled for when the gap is over, so the final state
// is always drawn. Two, so that a key pressed right after a flood's batch
// was drawn is drawn at once, not a gap later.

// DefaultFrameGap is the FrameGap mcptui runs with: a frame at 60 frames a
// second.
const DefaultFrameGap = time.Second / 60

// redrawMsg asks for the view that was coalesced away.
type redrawMsg struct{}

// frames coalesces views.
type frames struct {
	drawn, before time.Time // when the last two views were built
	view          tea.View  // the last one
	due           bool      // a redraw is scheduled: views until then are the last one
}

// after is called once a message is handled: it schedules a redraw when
// the next view is to be coalesced (two were built within the gap).
func (f *frames) after(gap time.Duration, now time.Time) tea.Cmd {
	if gap <= 0 || f.due || f.before.IsZero() {
		return nil
	}
	wait := gap - now.Sub(f.before)
	if wait <= 0 {
		return nil
	}
	f.due = true
	return tea.Tick(wait, func(time.Time) tea.Msg { return redrawMsg{} })
}

// cached is the view to show instead of building one, if any.
func (f *frames) cached() (tea.View, bool) {
	return f.view, f.due
}

// built records a view just built.
func (f *frames) built(v tea.View, now time.Time) {
	f.view, f.before, f.drawn = v, f.drawn, now
}
