package ui

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit/screentest"
)

// countingBackend answers Next at once with nothing, counting the calls:
// how a test sees when the UI asks for the next batch.
type countingBackend struct {
	*uitest.Backend
	nexts atomic.Int32
}

func (b *countingBackend) Next(context.Context) ([]model.Event, error) {
	b.nexts.Add(1)
	return nil, nil
}

// stepClock is a fold clock that moves on by step every time it is read.
func stepClock(step time.Duration) func() time.Time {
	t := uitest.At(0)
	return func() time.Time {
		t = t.Add(step)
		return t
	}
}

// floodBatch is a ready session's start and n log lines after it.
func floodBatch(n int) []model.Event {
	evs := uitest.Session()
	for i := range n {
		line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"tick %d"}}`, i)
		evs = append(evs, model.Wire{Stamp: model.Stamp{Time: uitest.At(30)}, Dir: model.In, Line: []byte(line), Size: len(line)})
	}
	return evs
}

// newFoldTest is a model with a fold budget whose clock passes the budget
// at every look, so that a slice is one chunk of events.
func newFoldTest(t *testing.T, gap time.Duration) (*Model, *countingBackend) {
	t.Helper()
	b := &countingBackend{Backend: uitest.New()}
	m := New(Options{Backend: b, Now: now, Tick: -1, Theme: "dark", NoBell: true,
		Session: model.New(model.Config{}), FrameGap: gap, FoldBudget: time.Millisecond})
	m.fold.clock = stepClock(time.Millisecond)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	return m, b
}

// runNow executes cmd and the commands it batches, each to its end,
// returning their messages. The tests' models start no timer (Tick -1,
// FrameGap 0 where a Cmd is run), so every Cmd here ends by itself; which
// messages come never depends on how long a Cmd took.
func runNow(cmd tea.Cmd) []tea.Msg { return screentest.Drain(cmd) }

// hasFold reports whether msgs ask for the backlog's next slice.
func hasFold(msgs []tea.Msg) bool {
	for _, msg := range msgs {
		if _, ok := msg.(foldMsg); ok {
			return true
		}
	}
	return false
}

// A batch larger than the budget is folded a slice at a time, and a key
// that arrives while its tail waits is handled at once: the key does not
// wait for the flood. The backend is asked for the next batch only once
// the backlog is folded.
func TestKeysGoBeforeTheTailOfABatch(t *testing.T) {
	m, b := newFoldTest(t, 0)
	evs := floodBatch(5 * foldChunk)
	_, cmd := m.Update(eventsMsg{events: evs})
	folded := m.sess.History().Len()
	if folded >= len(evs) || m.Backlog() == 0 {
		t.Fatalf("the whole batch was folded in one Update (%d entries of %d events)", folded, len(evs))
	}
	msgs := runNow(cmd)
	if !hasFold(msgs) {
		t.Fatal("no foldMsg asks for the rest of the batch")
	}
	if n := b.nexts.Load(); n != 0 {
		t.Fatalf("the backend was asked for the next batch %d times while a backlog waits", n)
	}

	// The key, queued before the foldMsg, is handled before it.
	m.Update(keyMsg("?"))
	if !strings.Contains(m.View().Content, "Keys") {
		t.Fatalf("the key's view does not show the help:\n%s", m.View().Content)
	}
	if got := m.sess.History().Len(); got != folded {
		t.Fatalf("handling the key folded the backlog too (%d entries, %d before)", got, folded)
	}

	for i := 0; m.Backlog() > 0; i++ {
		if i > len(evs) {
			t.Fatal("the backlog never empties")
		}
		_, cmd = m.Update(foldMsg{m: m})
		msgs = runNow(cmd)
		if m.Backlog() > 0 && !hasFold(msgs) {
			t.Fatal("a slice left a backlog and asked for no more")
		}
	}
	if hasFold(msgs) {
		t.Error("the slice that emptied the backlog asked for another")
	}
	if n := b.nexts.Load(); n != 1 {
		t.Errorf("the backend was asked %d times for the next batch once the backlog was folded, want 1", n)
	}
	if m.sess.Logs().Len() < 5*foldChunk {
		t.Errorf("not every event was folded: %d log lines", m.sess.Logs().Len())
	}
}

// Events handed to the program while a backlog waits queue behind it, so
// the session sees them in order.
func TestEventsQueueBehindTheBacklog(t *testing.T) {
	m, _ := newFoldTest(t, 0)
	m.Update(eventsMsg{events: floodBatch(3 * foldChunk)})
	line := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","logger":"late","data":"the last"}}`
	m.Update(EventsMsg{Events: []model.Event{model.Wire{Stamp: model.Stamp{Time: uitest.At(31)}, Dir: model.In, Line: []byte(line), Size: len(line)}}})
	if m.Backlog() == 0 {
		t.Fatal("the backlog emptied too soon for the test")
	}
	h := m.sess.History()
	if last := h.At(h.Len() - 1); strings.Contains(string(last.Raw), "the last") {
		t.Fatal("the handed event was folded before the backlog")
	}
	for m.Backlog() > 0 {
		m.Update(foldMsg{m: m})
	}
	if last := h.At(h.Len() - 1); !strings.Contains(string(last.Raw), "the last") {
		t.Errorf("the newest entry is %s, not the handed event", last.Raw)
	}
}

// While a backlog remains, a slice's view is the last one (within a frame
// gap of it): a frame's slices do not each build a screen. A key's view is
// built, and so is the view of the slice that empties the backlog.
func TestSlicesWithABacklogDoNotDraw(t *testing.T) {
	m, _ := newFoldTest(t, time.Hour)
	first := m.View().Content
	m.Update(eventsMsg{events: floodBatch(4 * foldChunk)})
	if m.Backlog() == 0 {
		t.Fatal("no backlog")
	}
	if got := m.View().Content; got != first {
		t.Fatal("a slice that left a backlog built a view")
	}
	m.Update(keyMsg("?"))
	help := m.View().Content
	if help == first {
		t.Fatal("the key's view was not built")
	}
	m.Update(foldMsg{m: m})
	if m.Backlog() == 0 {
		t.Fatal("the backlog emptied too soon for the test")
	}
	if got := m.View().Content; got != help {
		t.Fatal("a slice that left a backlog built a view after the key's")
	}
	m.Update(keyMsg("?")) // closes the help
	for m.Backlog() > 0 {
		m.Update(foldMsg{m: m})
	}
	// The help's view was built within two frame gaps: the batch's view is
	// held back, and the redraw scheduled for it draws it.
	if !m.frames.floodDue {
		t.Fatal("no redraw scheduled for the batch's held view")
	}
	m.Update(floodRedrawMsg{})
	if got := m.View().Content; got == help || !strings.Contains(got, "tick 511") {
		t.Errorf("the redraw did not draw the emptied backlog:\n%s", got)
	}
}

// A flood's batches build a view at most once in two frame gaps: a batch
// folded sooner shows the last view, one redraw is scheduled for the
// rest, and the redraw draws the newest state. A key is never held back.
func TestFloodViewsAreBuiltTwoFramesApart(t *testing.T) {
	m, _ := newFoldTest(t, time.Hour)
	m.frames.last = time.Time{} // nothing drawn yet: the first batch draws
	m.Update(eventsMsg{events: floodBatch(floodEvents)})
	for m.Backlog() > 0 {
		m.Update(foldMsg{m: m})
	}
	first := m.View().Content
	if !strings.Contains(first, fmt.Sprintf("tick %d", floodEvents-1)) {
		t.Fatalf("the first batch was not drawn:\n%s", first)
	}
	if m.frames.floodDue {
		t.Fatal("a redraw scheduled for a batch that was drawn")
	}
	more := floodBatch(3 * floodEvents)[len(uitest.Session()):] // ticks alone
	m.Update(eventsMsg{events: more[floodEvents : 2*floodEvents]})
	for m.Backlog() > 0 {
		m.Update(foldMsg{m: m})
	}
	if got := m.View().Content; got != first {
		t.Fatal("a second batch within two frame gaps built a view")
	}
	m.Update(eventsMsg{events: more[2*floodEvents:]})
	for m.Backlog() > 0 {
		m.Update(foldMsg{m: m})
	}
	if got := m.View().Content; got != first {
		t.Fatal("a third batch within two frame gaps built a view")
	}
	if !m.frames.floodDue {
		t.Fatal("no redraw scheduled for the held views")
	}
	if hold, redraw := m.frames.holdFlood(time.Hour, time.Now(), floodEvents); !hold || redraw != nil {
		t.Error("a second redraw scheduled while one is due")
	}
	m.Update(keyMsg("?"))
	if got := m.View().Content; got == first {
		t.Fatal("a key's view was held back with the flood's")
	}
	m.Update(keyMsg("?")) // closes the help
	m.View()
	m.Update(floodRedrawMsg{})
	if got := m.View().Content; !strings.Contains(got, fmt.Sprintf("tick %d", 3*floodEvents-1)) {
		t.Errorf("the redraw does not show the newest batch:\n%s", got)
	}
}

// A batch of a few events (the answer that makes the session ready, one
// that comes alone) is drawn at once, even right after another view: the
// ready screen waited up to two frame gaps (33 ms) behind the start-up's
// first screen when every batch was held.
func TestFewEventsAreDrawnAtOnce(t *testing.T) {
	m, _ := newFoldTest(t, time.Hour)
	m.frames.last = time.Time{}
	m.Update(eventsMsg{events: floodBatch(3)})
	for m.Backlog() > 0 {
		m.Update(foldMsg{m: m})
	}
	first := m.View().Content
	more := floodBatch(floodEvents)[len(uitest.Session()):]
	m.Update(eventsMsg{events: more[3 : floodEvents-1]})
	for m.Backlog() > 0 {
		m.Update(foldMsg{m: m})
	}
	got := m.View().Content
	if got == first || !strings.Contains(got, fmt.Sprintf("tick %d", floodEvents-2)) || m.frames.floodDue {
		t.Errorf("a batch of %d events within two frame gaps of the last view was held back:\n%s", floodEvents-4, got)
	}
}

// Budgeted events (an embedding program's, the replay timeline's rebuild)
// are folded a slice at a time like a backend batch, with a key handled
// between slices; the backend is not asked for anything once they are
// folded (they did not come from it). Without Budgeted they are folded at
// once, as before.
func TestBudgetedEventsFoldInSlices(t *testing.T) {
	m, b := newFoldTest(t, 0)
	evs := floodBatch(5 * foldChunk)
	_, cmd := m.Update(EventsMsg{Events: evs, Budgeted: true})
	if got := m.sess.History().Len(); got > foldChunk || m.Backlog() != len(evs)-foldChunk {
		t.Fatalf("one Update folded %d entries and left %d events of %d: not one chunk", got, m.Backlog(), len(evs))
	}
	if !hasFold(runNow(cmd)) {
		t.Fatal("no foldMsg asks for the rest")
	}
	m.Update(keyMsg("?"))
	if !strings.Contains(m.View().Content, "Keys") {
		t.Fatalf("the key was not handled between slices:\n%s", m.View().Content)
	}
	for i := 0; m.Backlog() > 0; i++ {
		if i > len(evs) {
			t.Fatal("the backlog never empties")
		}
		m.Update(foldMsg{m: m})
	}
	if n := b.nexts.Load(); n != 0 {
		t.Errorf("the backend was asked %d times for a batch after handed events were folded", n)
	}
	if m.sess.Logs().Len() < 5*foldChunk {
		t.Errorf("not every event was folded: %d log lines", m.sess.Logs().Len())
	}

	m2, _ := newFoldTest(t, 0)
	m2.Update(EventsMsg{Events: evs})
	if m2.Backlog() != 0 || m2.sess.Logs().Len() < 5*foldChunk {
		t.Errorf("events not budgeted were not folded at once: %d wait", m2.Backlog())
	}
}

// One foldMsg at most is in flight for a model: events handed over while
// a backlog waits join it without asking for a second slice per round,
// and a foldMsg of another model (one thrown away while it folded, as the
// replay timeline does on a step back) folds nothing.
func TestOneFoldInFlight(t *testing.T) {
	m, _ := newFoldTest(t, 0)
	m.Update(EventsMsg{Events: floodBatch(3 * foldChunk), Budgeted: true})
	_, cmd := m.Update(EventsMsg{Events: floodBatch(foldChunk)[len(uitest.Session()):], Budgeted: true})
	if hasFold(runNow(cmd)) {
		t.Error("events joining a backlog asked for a second slice")
	}
	old, _ := newFoldTest(t, 0)
	old.Update(EventsMsg{Events: floodBatch(3 * foldChunk), Budgeted: true})
	waiting := m.Backlog()
	_, cmd = m.Update(foldMsg{m: old})
	if m.Backlog() != waiting || cmd != nil {
		t.Errorf("another model's foldMsg folded a slice here (%d wait, %d before)", m.Backlog(), waiting)
	}
}
