package conn

import (
	"sync"
	"time"
)

// CallControl acts on one call in flight from another goroutine: it tells
// the request's id once the call has one, its current deadline, and moves
// that deadline later (an inspector's "extend the timeout"). Pass it to Call
// with WithControl; a CallControl serves one call.
type CallControl struct {
	mu       sync.Mutex
	id       int64
	deadline time.Time
	extra    time.Duration
	wake     chan struct{}
	started  chan struct{} // closed once the first call has its id
}

// WithControl attaches ctl to the call.
func WithControl(ctl *CallControl) CallOption {
	return func(o *callOptions) { o.control = ctl }
}

// ID is the call's request id, or 0 before it has one.
func (ctl *CallControl) ID() int64 {
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	return ctl.id
}

// Started is closed once the call has its id (before its line is written).
// When options are reused for several calls in a row (rounds of one logical
// request), it marks the first.
func (ctl *CallControl) Started() <-chan struct{} {
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	if ctl.started == nil {
		ctl.started = make(chan struct{})
	}
	return ctl.started
}

// Deadline is when the call times out unless a response or progress comes
// first; ok is false when the call has no timer (or has not started).
func (ctl *CallControl) Deadline() (deadline time.Time, ok bool) {
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	return ctl.deadline, !ctl.deadline.IsZero()
}

// Extend moves the deadline d later (and the cap that progress resets obey
// with it). It does nothing for a call without a timer or one that ended.
func (ctl *CallControl) Extend(d time.Duration) {
	if d <= 0 {
		return
	}
	ctl.mu.Lock()
	ctl.extra += d
	wake := ctl.wake
	ctl.mu.Unlock()
	if wake != nil {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
}

// start binds the control to a call; it returns the channel that signals
// extensions.
func (ctl *CallControl) start(id int64, deadline time.Time) <-chan struct{} {
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	ctl.id, ctl.deadline = id, deadline
	ctl.wake = make(chan struct{}, 1)
	if ctl.started == nil {
		ctl.started = make(chan struct{})
	}
	select {
	case <-ctl.started:
	default:
		close(ctl.started)
	}
	if ctl.extra > 0 {
		ctl.wake <- struct{}{}
	}
	return ctl.wake
}

// takeExtension returns and clears the extension asked for so far.
func (ctl *CallControl) takeExtension() time.Duration {
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	d := ctl.extra
	ctl.extra = 0
	return d
}

func (ctl *CallControl) setDeadline(t time.Time) {
	ctl.mu.Lock()
	ctl.deadline = t
	ctl.mu.Unlock()
}

// end clears the deadline once the call is over.
func (ctl *CallControl) end() {
	ctl.mu.Lock()
	ctl.deadline, ctl.wake = time.Time{}, nil
	ctl.mu.Unlock()
}
