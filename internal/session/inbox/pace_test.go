package inbox

import (
	"context"
	"testing"
	"time"

	"github.com/mcptui/mcptui/model"
)

// Under a flood a batch goes no more often than once a frame: events that
// arrive sooner after the last batch wait for the frame's remainder and go
// together; the first batch after a quiet spell goes at once.
func TestBatchesArePacedToFrames(t *testing.T) {
	now := t0
	waited := make(chan time.Duration, 1)
	fire := make(chan time.Time)
	lim := LimitsFor(0)
	if lim.Interval != FrameInterval {
		t.Fatalf("LimitsFor paces at %v, want a frame (%v)", lim.Interval, FrameInterval)
	}
	lim.Now = func() time.Time { return now }
	lim.After = func(d time.Duration) <-chan time.Time {
		waited <- d
		return fire
	}
	in := New(lim)
	in.Push(wire("a"))
	if got := next(t, in); len(got) != 1 {
		t.Fatalf("first batch %d events, want 1", len(got))
	}
	now = now.Add(FrameInterval / 4)
	in.Push(wire("b"))
	got := make(chan []model.Event, 1)
	go func() {
		evs, _ := in.Next(context.Background())
		got <- evs
	}()
	select {
	case d := <-waited:
		if want := FrameInterval - FrameInterval/4; d != want {
			t.Errorf("waited %v, want the frame's remainder %v", d, want)
		}
	case evs := <-got:
		t.Fatalf("a batch of %d a quarter frame after the last one: not paced", len(evs))
	case <-time.After(10 * time.Second):
		t.Fatal("Next neither waited nor returned")
	}
	in.Push(wire("c"))
	fire <- now
	if evs := <-got; len(evs) != 2 {
		t.Errorf("the paced batch has %d events, want b and c together", len(evs))
	}

	// After a quiet spell longer than a frame, no wait.
	now = now.Add(2 * FrameInterval)
	in.Push(wire("d"))
	if evs := next(t, in); len(evs) != 1 {
		t.Errorf("after a quiet spell: %d events", len(evs))
	}
	select {
	case d := <-waited:
		t.Errorf("waited %v after a quiet spell", d)
	default:
	}
}
