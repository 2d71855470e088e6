package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/model"
)

// Under a flood the backend hands the UI a batch a frame, and folding a
// batch takes time that grows with the flood. With Options.FoldBudget set,
// one Update folds at most a budget's worth of a batch; the rest waits in
// a backlog, and a foldMsg (sent by a Cmd, so behind whatever input is
// already waiting for the program's loop) folds the next slice. A key
// typed meanwhile is handled, and drawn, before the batch's tail: it waits
// for one slice at most, never for the flood. The backend is asked for the
// next batch only once the backlog is folded, so a UI that cannot keep up
// leaves the flood in the inbox, which sheds it within its limits. While
// a backlog remains, its slices do not draw (a frame's worth of them would
// each build a screen nobody sees) unless a frame gap passed since the last
// view; the slice that empties the backlog does, unless it ends a flood's
// batch and a view was built within two frame gaps (frame.go: holdFlood),
// and so does any key.
//
// Events an embedding program hands over with EventsMsg.Budgeted (the
// replay timeline rebuilding the inspector on a step back) take the same
// path, behind the backlog, without asking the backend for anything. One
// foldMsg at most is in flight for a model, and it names the model: one
// that an embedding program threw away while it was folding (and its
// backlog with it) does not make its successor fold twice per round.

// DefaultFoldBudget is the FoldBudget mcptui runs with: a quarter of a
// frame, so that a key waits for at most that much folding.
const DefaultFoldBudget = DefaultFrameGap / 4

// RendererFPS is the frame rate mcptui runs Bubble Tea's renderer at
// (tea.WithFPS): a view is written to the terminal at the renderer's next
// tick, so at 120 a key's screen waits at most 8 ms for it, not 17. A
// flood's screens stay paced by the inbox (a batch a frame at 60), and a
// tick with nothing new writes nothing.
const RendererFPS = 120

// foldChunk is how many events are folded between two looks at the clock.
const foldChunk = 128

// foldMsg asks model m for its backlog's next slice; another model
// ignores it.
type foldMsg struct{ m *Model }

// folding is the backlog of events waiting to be folded.
type folding struct {
	events []model.Event
	// more says the backlog came from the backend: once it is folded,
	// the backend is asked for its next batch.
	more bool
	// queued is how many events came since the backlog was last empty
	// (frame.go's holdFlood holds a flood's views, not a few events').
	queued int
	// clock measures the budget; nil means time.Now (tests inject one).
	clock func() time.Time
}

// foldBatch takes a batch from the backend: folded at once without a
// budget, else queued behind the backlog and folded a slice at a time;
// the backend is asked for the next batch once everything is folded.
func (m *Model) foldBatch(evs []model.Event) tea.Cmd {
	if m.opts.FoldBudget <= 0 {
		return tea.Batch(m.apply(evs), m.waitEvents())
	}
	m.fold.events = append(m.fold.events, evs...)
	m.fold.queued += len(evs)
	m.fold.more = true
	return m.foldSlice()
}

// foldEvents folds events handed to the program (EventsMsg): at once,
// unless a backlog waits, which they queue behind to keep the order, or
// unless they are budgeted (and a budget is set), then a slice at a time
// like a backend batch, but without asking the backend for the next one.
func (m *Model) foldEvents(evs []model.Event, budgeted bool) tea.Cmd {
	waiting := len(m.fold.events) > 0
	if !waiting && (!budgeted || m.opts.FoldBudget <= 0) {
		return m.apply(evs)
	}
	m.fold.events = append(m.fold.events, evs...)
	m.fold.queued += len(evs)
	if waiting {
		// The foldMsg in flight comes to them: a second one would fold
		// two slices between two keys.
		m.frames.quiet = m.frames.recent(m.opts.FrameGap, time.Now())
		return nil
	}
	return m.foldSlice()
}

// foldSlice folds the backlog for up to the budget. What is left is asked
// for by a foldMsg; once nothing is, the backend for its next batch.
func (m *Model) foldSlice() tea.Cmd {
	clock := m.fold.clock
	if clock == nil {
		clock = time.Now
	}
	start := clock()
	var cmds []tea.Cmd
	for len(m.fold.events) > 0 {
		n := min(foldChunk, len(m.fold.events))
		cmds = append(cmds, m.apply(m.fold.events[:n]))
		clear(m.fold.events[:n])
		m.fold.events = m.fold.events[n:]
		if clock().Sub(start) >= m.opts.FoldBudget {
			break
		}
	}
	if len(m.fold.events) > 0 {
		m.frames.quiet = m.frames.recent(m.opts.FrameGap, time.Now())
		return tea.Batch(append(cmds, func() tea.Msg { return foldMsg{m: m} })...)
	}
	m.fold.events = nil // let the batch's array go
	queued := m.fold.queued
	m.fold.queued = 0
	if m.opts.FrameGap > 0 {
		hold, redraw := m.frames.holdFlood(m.opts.FrameGap, time.Now(), queued)
		m.frames.quiet = hold
		cmds = append(cmds, redraw)
	}
	if m.fold.more {
		m.fold.more = false
		cmds = append(cmds, m.waitEvents())
	}
	return tea.Batch(cmds...)
}

// Backlog is how many events handed to the model (by the backend, or by
// EventsMsg) wait to be folded: 0 once everything is shown.
func (m *Model) Backlog() int { return len(m.fold.events) }
