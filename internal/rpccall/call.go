// Package rpccall is the bookkeeping of one JSON-RPC call that mcptui's
// transports share (conn over stdio, httpconn over HTTP): the mailbox that
// hands a caller its progress and outcome in order, the wait with its
// timers (idle, reset on progress, maximum total, extensions), giving up on
// a call (timeout, context, a failing progress callback), and the encoding
// of requests. What differs between the transports — where a request goes,
// how the pending table is locked, how a cancellation travels — stays with
// each of them, behind the Wait's callbacks.
package rpccall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Cancellation reasons sent in notifications/cancelled.
const (
	ReasonTimedOut       = "Request timed out"
	ReasonStoppedWaiting = "The client stopped waiting"
)

// ReasonIDLessErrorBody is why an HTTP transport shows a JSON-RPC error
// without an id, carried by a POST's 4xx answer, as a discarded line (it
// answers the POST's own message, which the call's failure reports); the
// live lint recognises it by these words.
const ReasonIDLessErrorBody = "a JSON-RPC error without an id in an HTTP error answer's body (it answers the POST)"

// Messages of the -32001 errors a wait ends with.
const (
	MessageTimedOut        = "Request timed out"
	MessageMaxTotalTimeout = "Maximum total timeout exceeded"
)

// Timed is a progress notification and when it arrived.
type Timed[P any] struct {
	Progress P
	At       time.Time
}

// Call is a request waiting for its response, P being the transport's
// progress type. The goroutine that reads answers hands it progress and the
// final outcome; the caller's goroutine processes the progress in order,
// before the result, in Await. Embed it in the transport's pending call and
// Init it before use.
type Call[P any] struct {
	wantsProgress bool

	mu       sync.Mutex
	queue    []Timed[P]
	finished bool
	result   json.RawMessage
	err      error
	wake     chan struct{}
}

// Init prepares the call; wantsProgress says it was made with a progress
// callback (only then does AddProgress route notifications to it).
func (c *Call[P]) Init(wantsProgress bool) {
	c.wantsProgress = wantsProgress
	c.wake = make(chan struct{}, 1)
}

// WantsProgress reports whether the call asked for progress.
func (c *Call[P]) WantsProgress() bool { return c.wantsProgress }

func (c *Call[P]) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// AddProgress queues one progress notification for the caller.
func (c *Call[P]) AddProgress(p P, at time.Time) {
	c.mu.Lock()
	c.queue = append(c.queue, Timed[P]{p, at})
	c.mu.Unlock()
	c.signal()
}

// Finish delivers the outcome; only the goroutine that removed the call from
// the transport's pending table calls it.
func (c *Call[P]) Finish(result json.RawMessage, err error) {
	c.mu.Lock()
	c.finished, c.result, c.err = true, result, err
	c.mu.Unlock()
	c.signal()
}

// take returns the queued progress and whether the outcome has arrived.
func (c *Call[P]) take(buf []Timed[P]) ([]Timed[P], bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	buf = append(buf[:0], c.queue...)
	clear(c.queue)
	c.queue = c.queue[:0]
	return buf, c.finished
}

func (c *Call[P]) outcome() (json.RawMessage, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.result, c.err
}

// Control is what a wait needs of a call control (conn.CallControl): the
// extensions asked for, and where to show the current deadline.
type Control interface {
	Bind(id int64, deadline time.Time) <-chan struct{}
	TakeExtension() time.Duration
	SetDeadline(t time.Time)
	Unbind()
}

// Bind ties ctl to call id before its request goes out, as conn's Call
// does: the returned channel signals an extension. The caller defers
// ctl.Unbind().
func Bind(ctl Control, id int64, start time.Time, timeout time.Duration) <-chan struct{} {
	var shown time.Time
	if timeout > 0 {
		shown = start.Add(timeout)
	}
	return ctl.Bind(id, shown)
}

// Abandoner gives up on a call. Abandon removes call id (whose mailbox is
// call) from the transport's pending table and, when reason is not "",
// tells the server with notifications/cancelled. It reports false when
// the outcome was claimed already (and so is on its way).
//
// why says why the caller gave up (the timer that fired, the context's
// cause): the transport hands it on with the notifications/cancelled line
// it sends (conn.Event.Err of that Sent line), so that a recording and the
// inspector can say which timer fired.
type Abandoner[P any] interface {
	Abandon(id int64, call *Call[P], reason string, why *GaveUp) bool
}

// GaveUp is why a wait gave up on its call before the answer came: the
// timer that fired, with the durations it was set with, or the caller's
// context's cause, or the progress callback's failure; and when, counted
// from the call's start.
type GaveUp struct {
	// Why is one of the Why* words.
	Why string
	// Timeout is the per-request timeout (0: none); ResetOnProgress that
	// each progress notification restarted it, never past MaxTotal after
	// the start; Extended how much later the person moved the deadline.
	Timeout         time.Duration
	ResetOnProgress bool
	MaxTotal        time.Duration
	Extended        time.Duration
	// After is when it gave up, from the call's start.
	After time.Duration
	// Progress counts the progress notifications the call had;
	// LastProgress is when the last came, from the call's start.
	Progress     int
	LastProgress time.Duration
	// Cause is the context's cause (WhyCancelled, WhyDeadline) or the
	// progress callback's error (WhyProgress); nil for a timer.
	Cause error
}

// What a wait gave up on: GaveUp.Why.
const (
	// WhyTimeout: the per-request timeout fired (with ResetOnProgress,
	// Timeout after the last progress notification).
	WhyTimeout = "timeout"
	// WhyMaxTotal: progress kept restarting the timer, and the maximum
	// total timeout (the cap on those restarts) fired.
	WhyMaxTotal = "max-total-timeout"
	// WhyCancelled: the caller's context was cancelled (Cause says by
	// what: a person's cancel key, a shutdown).
	WhyCancelled = "cancelled"
	// WhyDeadline: the caller's context's deadline passed (a timeout of
	// the caller's own, such as mcptui check's call timeout; Cause names
	// it when the caller gave one).
	WhyDeadline = "deadline"
	// WhyProgress: the progress callback failed.
	WhyProgress = "progress-callback"
)

// Error says which timer fired or what stopped the wait, and when.
func (g *GaveUp) Error() string {
	at := fmt.Sprintf(" after %s", g.After.Round(time.Millisecond))
	switch g.Why {
	case WhyTimeout:
		if g.ResetOnProgress && g.Progress > 0 {
			return fmt.Sprintf("the per-request timeout (%s, restarted by each progress notification) fired%s", g.Timeout, at)
		}
		return fmt.Sprintf("the per-request timeout (%s) fired%s", g.Timeout, at)
	case WhyMaxTotal:
		return fmt.Sprintf("the maximum total timeout (%s) fired%s", g.MaxTotal, at)
	}
	cause := "<nil>"
	if g.Cause != nil {
		cause = g.Cause.Error()
	}
	return fmt.Sprintf("the caller stopped waiting%s (%s): %s", at, g.Why, cause)
}

// Unwrap is the cause.
func (g *GaveUp) Unwrap() error { return g.Cause }

// Wait is how one call waits: its options resolved, and what the transport
// does to give up on it.
type Wait[P any] struct {
	// Transport prefixes the error of a wait its context ended ("conn").
	Transport string
	// ID is the request's id.
	ID int64
	// Start is when the call began; the timers count from it.
	Start time.Time
	// Timeout is the idle timeout; <= 0 means no timer.
	Timeout time.Duration
	// MaxTotal caps how far progress (ResetOnProgress) moves the deadline.
	MaxTotal        time.Duration
	ResetOnProgress bool
	// Progress runs, in order, in the caller's goroutine, for each progress
	// notification; nil for a call without progress.
	Progress func(P) error
	// Control and Extended (from Bind) move the deadline later; nil for a
	// call without a control.
	Control  Control
	Extended <-chan struct{}
	// NeverCancel gives up on the call without notifications/cancelled.
	NeverCancel bool
	// Abandon gives up on the call (the transport itself, so that nothing
	// is allocated for it per call).
	Abandon Abandoner[P]
	// TimedOut makes the error of a call that timed out: a -32001 with this
	// message and data.
	TimedOut func(message string, data json.RawMessage) error
}

// cancelReason is the reason to send, or "" for a call that must never be
// cancelled.
func (w *Wait[P]) cancelReason(reason string) string {
	if w.NeverCancel {
		return ""
	}
	return reason
}

// Await waits for the call's outcome, running progress callbacks and the
// timer, and gives up on the call (w.Abandon) after a timeout, when ctx
// ends, or when the progress callback fails or panics (the panic goes on up
// the caller's stack).
func (c *Call[P]) Await(ctx context.Context, w *Wait[P]) (json.RawMessage, error) {
	var timer *time.Timer
	var timerC <-chan time.Time
	deadline := w.Start.Add(w.Timeout)
	capAt := w.Start.Add(w.MaxTotal)
	clamped := false
	if w.Timeout > 0 {
		timer = time.NewTimer(time.Until(deadline))
		timerC = timer.C
		defer timer.Stop()
	}
	var batch []Timed[P]
	var extended time.Duration
	progressN, lastProgress := 0, time.Duration(0)
	gaveUp := func(why string, cause error) *GaveUp {
		g := &GaveUp{Why: why, Timeout: max(w.Timeout, 0), ResetOnProgress: w.ResetOnProgress, Extended: extended,
			After: time.Since(w.Start), Progress: progressN, LastProgress: lastProgress, Cause: cause}
		if w.ResetOnProgress && w.Timeout > 0 {
			g.MaxTotal = w.MaxTotal
		}
		return g
	}
	for {
		select {
		case <-w.Extended:
			if d := w.Control.TakeExtension(); timer != nil && timerC != nil {
				deadline, capAt, clamped = deadline.Add(d), capAt.Add(d), false
				extended += d
				timer.Reset(time.Until(deadline))
				w.Control.SetDeadline(deadline)
			}
		case <-c.wake:
			var finished bool
			batch, finished = c.take(batch)
			for _, pr := range batch {
				progressN, lastProgress = progressN+1, pr.At.Sub(w.Start)
				if w.ResetOnProgress && timer != nil {
					next := pr.At.Add(w.Timeout)
					if next.After(capAt) {
						next, clamped = capAt, true
					}
					if next.After(deadline) {
						deadline = next
						timer.Reset(time.Until(deadline))
						if w.Control != nil {
							w.Control.SetDeadline(deadline)
						}
					}
				}
				if err := c.runProgress(w, pr.Progress, gaveUp); err != nil {
					w.Abandon.Abandon(w.ID, c, w.cancelReason(ReasonStoppedWaiting), gaveUp(WhyProgress, err))
					return nil, err
				}
			}
			if finished {
				return c.outcome()
			}
		case <-timerC:
			why := WhyTimeout
			if clamped {
				why = WhyMaxTotal
			}
			if !w.Abandon.Abandon(w.ID, c, w.cancelReason(ReasonTimedOut), gaveUp(why, nil)) {
				timerC = nil // the outcome is on its way
				continue
			}
			if clamped {
				return nil, w.TimedOut(MessageMaxTotalTimeout, fmt.Appendf(nil, `{"maxTotalTimeoutMs":%d}`, w.MaxTotal.Milliseconds()))
			}
			return nil, w.TimedOut(MessageTimedOut, fmt.Appendf(nil, `{"timeoutMs":%d}`, w.Timeout.Milliseconds()))
		case <-ctx.Done():
			cause, why := context.Cause(ctx), WhyCancelled
			if errors.Is(cause, context.DeadlineExceeded) {
				why = WhyDeadline
			}
			if w.Abandon.Abandon(w.ID, c, w.cancelReason(ReasonStoppedWaiting), gaveUp(why, cause)) {
				return nil, fmt.Errorf("%s: call %d: %w", w.Transport, w.ID, context.Cause(ctx))
			}
			ctx = context.Background() // the outcome is on its way
		}
	}
}

// runProgress runs the progress callback; a panic gives up on the call and
// goes on up the caller's stack.
func (c *Call[P]) runProgress(w *Wait[P], pr P, gaveUp func(string, error) *GaveUp) error {
	if w.Progress == nil {
		return nil
	}
	ok := false
	defer func() {
		if !ok {
			w.Abandon.Abandon(w.ID, c, w.cancelReason(ReasonStoppedWaiting), gaveUp(WhyProgress, errors.New("the progress callback panicked")))
		}
	}()
	err := w.Progress(pr)
	ok = true
	return err
}
