package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Bubble Tea draws the whole screen after every message, but writes it to
// the terminal only once a frame: a burst of keys (typed without
// bracketed paste, or a key held down) drew hundreds of screens that
// nobody saw, each as costly as a frame. With Options.FrameGap set, at
// most two views for keys are built within any gap: a third key sooner
// shows the last view again, and a redraw is scheduled for when the gap is
// over, so the final state is always drawn. Other messages (a flood's
// batches, which the inbox already paces to frames, the cursor's blink)
// are drawn at once and do not count, so a lone key is never delayed.

// DefaultFrameGap is the FrameGap mcptui runs with: a frame at 60 frames a
// second.
const DefaultFrameGap = time.Second / 60

// redrawMsg asks for the view that was coalesced away.
type redrawMsg struct{}

// A flood's batches come a frame apart, and each built a screen and had
// the renderer parse and diff it: under a flood, half of the UI's work,
// and what a key's own frame waited behind. The view of a batch of at
// least floodEvents events is built at most once in floodFrames frame
// gaps (30 a second at mcptui's gap); one held back is drawn by a
// floodRedrawMsg when the gap is over, so the last batch is always drawn.
// Keys are never held, nor smaller batches: the answer that makes the
// session ready, or any other that comes alone, is drawn at once.

// floodFrames is how many frame gaps apart a flood's views are built.
const floodFrames = 2

// floodEvents is the smallest batch held back: at the inbox's pace of a
// batch a frame, some 4,000 events a second. A session's own traffic
// (start-up, a call and its answer, a few notifications) comes in
// batches of a few events.
const floodEvents = 64

// floodRedrawMsg asks for the view of a batch that was held back.
type floodRedrawMsg struct{}

// holdFlood is called once a batch of n events is folded: it reports
// whether the view of it is to be held back (a flood's batch, and a view
// was built within floodFrames gaps), and the redraw to schedule for it,
// if none is yet.
func (f *frames) holdFlood(gap time.Duration, now time.Time, n int) (bool, tea.Cmd) {
	span := floodFrames * gap
	if n < floodEvents || !f.recent(span, now) {
		return false, nil
	}
	if f.floodDue {
		return true, nil
	}
	f.floodDue = true
	return true, tea.Tick(span-now.Sub(f.last), func(time.Time) tea.Msg { return floodRedrawMsg{} })
}

// frames coalesces views.
type frames struct {
	drawn, before time.Time // when the last two views were built
	view          tea.View  // the last one
	due           bool      // a redraw is scheduled: views until then are the last one
	key           bool      // the message just handled is a key
	// last is when the last view of any message was built; quiet says
	// the message just handled needs no new view (fold.go).
	last  time.Time
	quiet bool
	// floodDue says a floodRedrawMsg is scheduled (holdFlood).
	floodDue bool
}

// after is called once a message is handled: for a key, it schedules a
// redraw when the next view is to be coalesced (two were built for keys
// within the gap).
func (f *frames) after(gap time.Duration, now time.Time, key bool) tea.Cmd {
	f.key = key && gap > 0
	if !f.key || f.due || f.before.IsZero() {
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
	return f.view, f.due || f.quiet
}

// recent reports whether a view was built within the gap before now.
func (f *frames) recent(gap time.Duration, now time.Time) bool {
	return gap > 0 && !f.last.IsZero() && now.Sub(f.last) < gap
}

// built records a view just built.
func (f *frames) built(v tea.View, now time.Time) {
	f.view, f.last = v, now
	if f.key {
		f.before, f.drawn = f.drawn, now
	}
}

// isKey reports whether msg is typed input.
func isKey(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		return true
	}
	return false
}
