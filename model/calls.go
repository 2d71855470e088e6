package model

import (
	"encoding/json"
	"time"

	"github.com/mcptui/mcptui/internal/rpccall"
)

// Call is a request in either direction: in flight until its response, its
// cancellation or the end of the connection, then kept among the recent
// ones with its outcome.
type Call struct {
	// Key identifies the call in this session (generation, direction, id).
	Key    string
	ID     json.RawMessage
	Dir    Direction
	Gen    int
	Method string
	// Target is the tool or prompt name, or the resource uri, when the
	// method has one.
	Target string
	Start  time.Time
	// Timeout is the timer the sender set (0: none or unknown); Deadline
	// is when it fires, moved by progress when ResetOnProgress, never
	// past MaxDeadline.
	Timeout         time.Duration
	Deadline        time.Time
	MaxDeadline     time.Time
	ResetOnProgress bool
	// Progress is the latest notifications/progress, nil before the first.
	Progress *Progress
	// Queued is set while the request's line has not been written (the
	// server is not reading its stdin).
	Queued bool
	// Cancelled is set when a notifications/cancelled named the call.
	Cancelled    bool
	CancelReason string
	// GaveUp says why we cancelled it, when the transport gave up on it:
	// the timer that fired and its durations, or the context's cause (the
	// person's cancel key); nil otherwise.
	GaveUp  *rpccall.GaveUp
	Outcome Outcome
	// RequestSeq and ResponseSeq link the traffic entries (0: none).
	RequestSeq, ResponseSeq uint64
	// AnswerDiscarded explains, when its answer came but was discarded
	// (over the line limit, nested too deep), why the call will time out:
	// "request 7's answer, 20.0 MiB, was discarded over the 16.0 MiB limit".
	AnswerDiscarded string

	progressToken string
}

// Progress is the latest progress of a call.
type Progress struct {
	Value float64
	// Total is 0 when the server sent none: the bar is indeterminate.
	Total   float64
	Message string
	Time    time.Time
	// Count is how many progress notifications arrived.
	Count int
}

// Fraction is Value/Total clamped to [0, 1], and false when there is no
// total.
func (p *Progress) Fraction() (float64, bool) {
	if p == nil || p.Total <= 0 {
		return 0, false
	}
	return min(max(p.Value/p.Total, 0), 1), true
}

// OutcomeKind says how a call ended.
type OutcomeKind int

// The outcomes of a call.
const (
	// Pending: still in flight.
	Pending OutcomeKind = iota
	// Succeeded: a result came back.
	Succeeded
	// FailedWithError: an error came back.
	FailedWithError
	// CancelledByCaller: the sender cancelled it; no response is due.
	CancelledByCaller
	// ConnectionDied: the server exited or was restarted first.
	ConnectionDied
	// FailedLocally: the sender gave up without an answer (its timer
	// fired, or its line could not be written).
	FailedLocally
	// NeedsInput: a 2026-07-28 round that ended with an input_required
	// result: the server asks the person something, and the call goes on
	// as a new round once answered.
	NeedsInput
)

// String names the outcome.
func (k OutcomeKind) String() string {
	return [...]string{"pending", "ok", "error", "cancelled", "connection died", "failed", "needs input"}[k]
}

// Outcome is how and when a call ended.
type Outcome struct {
	Kind OutcomeKind
	Time time.Time
	// Err is set for FailedWithError and FailedLocally.
	Err *RPCError
	// Negotiation marks the probe's error answer from an older server: a
	// step of the version negotiation, not a failure.
	Negotiation bool
	// ToolError marks a tools/call result with isError true: the answer
	// came (Succeeded on the wire), and says the tool failed.
	ToolError bool
}

// Left is the time left on the call's timer at now, and false when it has
// no timer.
func (c *Call) Left(now time.Time) (time.Duration, bool) {
	if c.Deadline.IsZero() {
		return 0, false
	}
	return c.Deadline.Sub(now), true
}

// Age is how long the call has been (or was) in flight at now.
func (c *Call) Age(now time.Time) time.Duration {
	if c.Outcome.Kind != Pending {
		return c.Outcome.Time.Sub(c.Start)
	}
	return now.Sub(c.Start)
}

// setTimer applies timer options from the call's start.
func (c *Call) setTimer(timeout, maxTotal time.Duration, reset bool) {
	c.Timeout, c.ResetOnProgress = timeout, reset
	c.Deadline, c.MaxDeadline = time.Time{}, time.Time{}
	if timeout <= 0 {
		return
	}
	c.Deadline = c.Start.Add(timeout)
	if reset && maxTotal > 0 {
		c.MaxDeadline = c.Start.Add(maxTotal)
	}
}

// progressed folds one progress notification in.
func (c *Call) progressed(t time.Time, value, total float64, msg string) {
	p := c.Progress
	if p == nil {
		p = &Progress{}
		c.Progress = p
	}
	p.Value, p.Total, p.Message, p.Time = value, total, msg, t
	p.Count++
	if c.ResetOnProgress && c.Timeout > 0 {
		d := t.Add(c.Timeout)
		if !c.MaxDeadline.IsZero() && d.After(c.MaxDeadline) {
			d = c.MaxDeadline
		}
		if d.After(c.Deadline) {
			c.Deadline = d
		}
	}
}
