// Package inbox carries model events from the connection's goroutines to the
// UI: a bounded, batching queue whose producers never block.
//
// conn's Observer runs on the reading goroutine and must not block, and a
// server may flood. Push therefore never waits, and what it sheds under load
// is chosen:
//
//   - notifications (and lines conn discarded) are what a flood is made of:
//     past the soft limits their content is dropped (the line is still
//     listed, with its size), past the hard limit they are only counted and
//     reported as one model.Lost;
//   - requests, responses and errors are always delivered: past the soft
//     limits as their envelope alone (model.EnvelopeStub, marked Lost), so
//     that the request they answer still closes. Only past StubLimit times
//     MaxEvents, which only a server flooding responses to nothing reaches,
//     are the server's own stubs counted as lost; the client's lines never
//     are;
//   - stderr lines past the limits are shed, but the last few of them are
//     kept aside and delivered before the exit and whenever the queue
//     drains, so the server's last words are never lost;
//   - an HTTP exchange's progress (model.ExchangeUpdate) is shed past the
//     soft limits, its end never: its totals run on;
//   - lifecycle events (started, ready, exited, questions, calls ended,
//     HTTP exchanges) are always kept.
//
// The UI takes everything queued at once with Next, so a burst costs one
// Update, not one per line; and under a flood Next hands out a batch no
// more often than once a frame (Limits.Interval), so the UI folds and draws
// a flood at the screen's pace and a key press never waits behind more
// than one frame's batch.
package inbox

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/model"
)

// Defaults of Limits: LimitsFor the default 64 MiB history.
const (
	DefaultMaxBytes  = 8 << 20
	DefaultMaxEvents = DefaultMaxBytes / (2 * QueuedEventBytes)
	DefaultMaxBatch  = 4096
	// StubLimit times MaxEvents is the most events queued before even the
	// server's envelope stubs are counted as lost.
	StubLimit = 8
	// keptStderr is how many shed stderr lines are kept aside.
	keptStderr = 32
)

// QueuedEventBytes is the memory one queued event takes beside its line
// and summary (model.Wire.Held, counted in MaxBytes): the model.Wire boxed
// in an interface (a 256-byte allocation, with what FromConn read ahead of
// it and what a Prelinter found) and the interface itself, in the queue and
// again in the batch Next hands out.
const QueuedEventBytes = 256 + 2*16

// LimitsFor bounds an inbox feeding a history capped at historyBytes (0:
// the model's default) to a quarter of that cap: an eighth in queued lines
// (MaxBytes) and an eighth in the events themselves (the hard limit, twice
// MaxEvents, times QueuedEventBytes), so that a flood queues at most
// historyBytes/4 on its way to the history. Each share is at least 1 MiB,
// so that a small cap does not shed a modest burst.
func LimitsFor(historyBytes int) Limits {
	if historyBytes <= 0 {
		historyBytes = model.DefaultHistoryBytes
	}
	share := max(historyBytes/8, 1<<20)
	return Limits{MaxBytes: share, MaxEvents: share / (2 * QueuedEventBytes), Interval: FrameInterval}
}

// FrameInterval is the pace of LimitsFor's batches: the renderer's frame
// (60 frames a second).
const FrameInterval = time.Second / 60

// ErrClosed is what Next returns once the inbox is closed and drained.
var ErrClosed = errors.New("inbox: closed")

// Limits bound an Inbox. Zero values take the defaults.
type Limits struct {
	// MaxEvents is the soft limit on queued events: past it, lines lose
	// their content. Twice it is the hard limit: past it, events are only
	// counted.
	MaxEvents int
	// MaxBytes is the soft limit on the bytes of queued lines.
	MaxBytes int
	// MaxBatch is the most events one Next returns.
	MaxBatch int
	// Interval is the least time between two batches: events arriving
	// sooner after the last batch wait and go with the next one (0: none).
	// A first event after a quiet spell goes at once.
	Interval time.Duration
	// Now stamps model.Lost events and paces batches; nil means time.Now.
	Now func() time.Time
	// After waits for Interval's remainder; nil means time.After.
	After func(time.Duration) <-chan time.Time
}

// Inbox is the queue. Its methods are safe for concurrent use.
type Inbox struct {
	lim    Limits
	mu     sync.Mutex
	queue  []model.Event
	bytes  int
	lost   int
	closed bool
	wake   chan struct{}
	// last is when the last batch was taken (for Limits.Interval).
	last time.Time
	// lastStderr are the latest stderr lines shed under load, oldest
	// first, delivered before the exit and when the queue drains.
	lastStderr []model.Stderr
}

// New returns an empty inbox.
func New(lim Limits) *Inbox {
	if lim.MaxEvents <= 0 {
		lim.MaxEvents = DefaultMaxEvents
	}
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = DefaultMaxBytes
	}
	if lim.MaxBatch <= 0 {
		lim.MaxBatch = DefaultMaxBatch
	}
	if lim.Now == nil {
		lim.Now = time.Now
	}
	if lim.After == nil {
		lim.After = time.After
	}
	return &Inbox{lim: lim, wake: make(chan struct{}, 1)}
}

// Push queues an event without blocking.
func (in *Inbox) Push(ev model.Event) {
	in.mu.Lock()
	if in.closed {
		in.mu.Unlock()
		return
	}
	switch e := ev.(type) {
	case model.Wire:
		in.pushWire(ev, e)
	case model.Stderr:
		if in.overSoft(len(e.Line)) {
			in.keepStderr(e)
		} else {
			in.add(e, len(e.Line))
		}
	case model.ExchangeUpdate:
		// Its totals run on: one shed under load is told by the next,
		// and the end is always kept.
		if e.End || !in.overSoft(len(e.Message)) {
			in.add(e, len(e.Message))
		}
	case model.Exited:
		in.flushStderr()
		in.add(e, 0)
	default:
		in.add(e, 0)
	}
	in.mu.Unlock()
	in.signal()
}

// pushWire queues a line (w, which ev holds), shedding what load demands
// (see the package comment); the lock is held. A line kept whole is queued
// as ev: converting w back to an Event would copy it to the heap again.
func (in *Inbox) pushWire(ev model.Event, w model.Wire) {
	size := w.Held()
	if !in.overSoft(size) {
		in.add(ev, size)
		return
	}
	var stub []byte
	if !w.Discarded && !w.Lost && w.Line != nil {
		stub = model.EnvelopeStub(w.Line)
	}
	switch {
	case stub != nil && (w.Dir == model.Out || len(in.queue) < StubLimit*in.lim.MaxEvents):
		w.Line, w.Lost = stub, true
		in.add(w, w.Held())
	case len(in.queue) >= 2*in.lim.MaxEvents:
		in.lost++
	default:
		w.Line, w.Lost = nil, true
		in.add(w, 0)
	}
}

// add queues an event of size bytes; the lock is held.
func (in *Inbox) add(ev model.Event, size int) {
	in.queue = append(in.queue, ev)
	in.bytes += size
}

// keepStderr sets a shed stderr line aside, counting the oldest one set
// aside as lost when there are too many; the lock is held.
func (in *Inbox) keepStderr(e model.Stderr) {
	if len(in.lastStderr) == keptStderr {
		in.lost++
		in.lastStderr = append(in.lastStderr[:0], in.lastStderr[1:]...)
	}
	in.lastStderr = append(in.lastStderr, e)
}

// flushStderr queues the stderr lines set aside, over the limits (there
// are at most keptStderr of them); the lock is held.
func (in *Inbox) flushStderr() {
	for _, e := range in.lastStderr {
		in.add(e, len(e.Line))
	}
	clear(in.lastStderr)
	in.lastStderr = in.lastStderr[:0]
}

// overSoft reports whether adding size bytes passes a soft limit. A line
// longer than MaxBytes (up to conn's --max-line-bytes, already bounded
// there) passes whole while the lines queued before it hold no more than
// it does, so a response as large as the line limit reaches the UI with
// its content even when the byte share is smaller: the queue then holds at
// most twice the longest line, or MaxBytes, whichever is more.
func (in *Inbox) overSoft(size int) bool {
	limit := in.lim.MaxBytes
	if size > limit {
		limit = 2 * size
	}
	return len(in.queue) >= in.lim.MaxEvents || in.bytes+size > limit
}

func (in *Inbox) signal() {
	select {
	case in.wake <- struct{}{}:
	default:
	}
}

// Next waits until events are queued (or ctx is done, or the inbox is
// closed and empty) and returns up to MaxBatch of them, oldest first. Events
// dropped whole since the last call come first as one model.Lost.
func (in *Inbox) Next(ctx context.Context) ([]model.Event, error) {
	for {
		in.mu.Lock()
		if len(in.queue) == 0 {
			in.flushStderr()
		}
		if len(in.queue) > 0 || in.lost > 0 {
			if wait := in.lim.Interval - in.lim.Now().Sub(in.last); wait > 0 && !in.closed {
				// Too soon after the last batch: let more gather.
				in.mu.Unlock()
				select {
				case <-in.lim.After(wait):
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				in.mu.Lock()
			}
			batch := in.take()
			in.last = in.lim.Now()
			in.mu.Unlock()
			return batch, nil
		}
		closed := in.closed
		in.mu.Unlock()
		if closed {
			return nil, ErrClosed
		}
		select {
		case <-in.wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// take removes a batch; the lock is held.
func (in *Inbox) take() []model.Event {
	n := min(len(in.queue), in.lim.MaxBatch)
	batch := make([]model.Event, 0, n+1)
	if in.lost > 0 {
		batch = append(batch, model.Lost{Time: in.lim.Now(), N: in.lost})
		in.lost = 0
	}
	for _, ev := range in.queue[:n] {
		if w, ok := ev.(model.Wire); ok {
			in.bytes -= w.Held()
		} else if s, ok := ev.(model.Stderr); ok {
			in.bytes -= len(s.Line)
		}
	}
	batch = append(batch, in.queue[:n]...)
	rest := copy(in.queue, in.queue[n:])
	clear(in.queue[rest:])
	in.queue = in.queue[:rest]
	if cap(in.queue) > 4*in.lim.MaxBatch && rest < in.lim.MaxBatch {
		in.queue = append([]model.Event(nil), in.queue...)
	}
	if rest > 0 {
		in.signal()
	}
	return batch
}

// Len is the number of events queued.
func (in *Inbox) Len() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return len(in.queue)
}

// Close stops accepting events; Next drains what is queued, then returns
// ErrClosed.
func (in *Inbox) Close() {
	in.mu.Lock()
	in.closed = true
	in.mu.Unlock()
	in.signal()
}

// Observer is a conn Observer that feeds the inbox.
func (in *Inbox) Observer() func(conn.Event) {
	return func(ev conn.Event) { in.Push(model.FromConn(ev)) }
}
