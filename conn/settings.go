package conn

import (
	"encoding/json"
	"time"

	"github.com/mcptui/mcptui/internal/rpccall"
)

// CallSettings are call options resolved, defaults filled in: what another
// transport (the HTTP one) needs to honour the same CallOptions as Conn.
type CallSettings struct {
	// Timeout is how long to wait for the response; <= 0 means no timer.
	Timeout time.Duration
	// Progress receives notifications/progress; nil when not asked for.
	Progress func(Progress) error
	// ResetOnProgress restarts the timer on each progress.
	ResetOnProgress bool
	// MaxTotal caps how far progress may push the deadline.
	MaxTotal time.Duration
	// Meta is merged into params._meta (a JSON object), or nil.
	Meta json.RawMessage
	// MaxBuffer is a subscription's queue length.
	MaxBuffer int
	// Control is the call's CallControl, or nil.
	Control *CallControl
	// NeverCancel gives up on the call without notifications/cancelled
	// (WithoutCancellation).
	NeverCancel bool
}

// ResolveCallOptions applies opts over the defaults Call uses.
func ResolveCallOptions(opts ...CallOption) CallSettings {
	o := newCallOptions(opts)
	return CallSettings{
		Timeout: o.timeout, Progress: o.progress, ResetOnProgress: o.resetOnProgress,
		MaxTotal: o.maxTotal, Meta: o.meta, MaxBuffer: o.maxBuffer, Control: o.control,
		NeverCancel: o.neverCancel,
	}
}

// Bind ties the control to a call of another transport, as Call does: id is
// the call's request id, deadline its first deadline (zero without a timer).
// The channel it returns signals an Extend; take it with TakeExtension.
func (ctl *CallControl) Bind(id int64, deadline time.Time) <-chan struct{} {
	return ctl.start(id, deadline)
}

// TakeExtension returns and clears the extension asked for since the last
// call (for a transport that honours Extend).
func (ctl *CallControl) TakeExtension() time.Duration { return ctl.takeExtension() }

// SetDeadline records the call's current deadline (for a transport that
// moves it).
func (ctl *CallControl) SetDeadline(t time.Time) { ctl.setDeadline(t) }

// Unbind clears the deadline once the call is over.
func (ctl *CallControl) Unbind() { ctl.end() }

// GaveUp says why a call was given up before its answer came: the timer
// that fired (the per-request timeout, the maximum total timeout that caps
// its restarts on progress) with the durations it was set with, or the
// context's cause, and when. It is the Err of the Sent event of the
// notifications/cancelled line that tells the server.
type GaveUp = rpccall.GaveUp

// Error messages of the transport, for other transports that report the
// same conditions.
const (
	// MessageTimedOut is a -32001's message for a call that timed out.
	MessageTimedOut = msgTimedOut
	// MessageMaxTotalTimeout is a -32001's message when progress resets hit the cap.
	MessageMaxTotalTimeout = msgMaxTotalTimeout
)
