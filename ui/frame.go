package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Bubble Tea draws the whole screen after every message, but writes it to
// the terminal only once a frame: a burst of messages (keys typed without
// bracketed paste, a flood's batches) drew hundreds of screens that
// nobody saw, each as costly as a frame. With Options.FrameGap set, a view
// asked for sooner than FrameGap after the last one drawn is the last one
// again, and a redraw is scheduled for when the gap is over, so the final
// state is always drawn and no more than one view per gap is built.

// DefaultFrameGap is the FrameGap mcptui runs with: half a frame at 60
// frames a second, so coalescing delays a key's screen by at most that.
const DefaultFrameGap = time.Second / 120

// redrawMsg asks for the view that was coalesced away.
type redrawMsg struct{}

// frames coalesces views.
type frames struct {
	drawn time.Time // when the last view was built
	view  tea.View  // that view
	due   bool      // a redraw is scheduled: views until then are the last one
}

// after is called once a message is handled: it schedules a redraw when
// the next view is to be coalesced.
func (f *frames) after(gap time.Duration, now time.Time) tea.Cmd {
	if gap <= 0 || f.due || f.drawn.IsZero() {
		return nil
	}
	wait := gap - now.Sub(f.drawn)
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
	f.view, f.drawn = v, now
}
