package conn

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Defaults of Options and of the call options.
const (
	DefaultMaxLineBytes      = protocol.MaxLineBytes
	DefaultMaxServerRequests = 16
	DefaultTimeout           = 30 * time.Second
	DefaultMaxTotalTimeout   = 10 * time.Minute
	DefaultMaxBuffer         = 100
)

// Options configure Dial. The zero value is usable.
type Options struct {
	// Env is added to the inherited environment; an EnvVar whose Value is
	// nil removes that variable.
	Env []EnvVar
	// Dir is the child's working directory ("" = ours).
	Dir string
	// MaxLineBytes is the largest incoming line accepted, newline excluded;
	// 0 means 16 MiB, a negative value is an error.
	MaxLineBytes int
	// OnServerRequest answers requests the server sends to the client; nil
	// answers each with -32601.
	OnServerRequest Handler
	// MaxServerRequests is how many handlers may run at once; 0 means 16, a
	// negative value is an error.
	MaxServerRequests int
	// Stderr receives the child's stderr; nil leaves it inherited.
	Stderr io.Writer
	// OnNotification receives server notifications nothing else claimed,
	// in arrival order, on the reading goroutine: it must not block.
	OnNotification func(Notification)
	// Observer sees every line sent, received or discarded, and the exit.
	// It is called from the reading and writing goroutines (never both for
	// the same direction at once) and must not block.
	Observer func(Event)
	// AcceptBatches unpacks a line holding a JSON array (a JSON-RPC batch,
	// which MCP 2025-03-26 lets a server send) into its messages, handled
	// in order as if each had come on its own line. The Observer sees the
	// batch once, as one Received line; an element that cannot be used is
	// also reported on its own as Discarded. Off (the default), an array
	// line is discarded as the seed says. SetAcceptBatches changes it later.
	AcceptBatches bool
	// FailLostAnswers fails a pending call at once when the line answering
	// it was discarded although its id could still be read (from the line,
	// or the first KiB of one over MaxLineBytes): a line over the limit or
	// nested deeper than the parser's limit, whose id, result or error
	// member and no method make it the answer to that call. The call ends
	// with -32000 "The server's answer was discarded", its Cause naming the
	// reason (the line's size and the limit; the depth). Off (the default),
	// such a call times out as the seed says.
	FailLostAnswers bool
	// OnStart is called once, from Dial, with the pid of the server process
	// as soon as it has started (before the first line is written).
	OnStart func(pid int)
	// OnShutdownStage is told each stage Shutdown enters, as it enters it,
	// from the goroutine that called Shutdown; it must not block.
	OnShutdownStage func(ShutdownStage)
}

// EnvVar is one environment change for the child. A nil Value unsets Name.
type EnvVar struct {
	Name  string
	Value *string
}

// Handler answers one server-to-client request. It returns the result, or an
// error: an *Error is sent as it is, any other error as -32603. Its context is
// cancelled when the server cancels the request or the connection stops; the
// answer is then not sent.
type Handler func(ctx context.Context, req *Request) (json.RawMessage, error)

// Request is a request the server sent to the client.
type Request struct {
	// ID is the server's id, verbatim.
	ID     json.RawMessage
	Method string
	Params json.RawMessage
}

// Notification is a JSON-RPC notification from the server.
type Notification struct {
	Method string
	Params json.RawMessage
}

// Progress is one notifications/progress for a call made WithProgress.
type Progress struct {
	Progress float64
	// Total is 0 when the server sent none.
	Total   float64
	Message string
	// Params is the notification's whole params.
	Params json.RawMessage
}

// EventKind says what an Event is about.
type EventKind int

// The kinds of Event.
const (
	// Sent is a line written to the server's stdin.
	Sent EventKind = iota + 1
	// Received is a JSON-RPC message read from the server's stdout.
	Received
	// Discarded is a line read from stdout that could not be used: over
	// the line limit, not JSON, not a JSON-RPC message, or a response that
	// matches no request.
	Discarded
	// Exited is the end of the server process.
	Exited
)

// String names the kind.
func (k EventKind) String() string {
	switch k {
	case Sent:
		return "sent"
	case Received:
		return "received"
	case Discarded:
		return "discarded"
	case Exited:
		return "exited"
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// Event is what the Observer sees.
type Event struct {
	Time time.Time
	Kind EventKind
	// Line is the line without its newline (nil for an over-long line). It
	// belongs to the connection: read it, copy it, never modify it.
	Line []byte
	// Size is the number of bytes in the line, even when it was discarded.
	Size int
	// Err is why a line was discarded, or the exit status for Exited; on
	// the Sent notifications/cancelled of a call the connection gave up on,
	// a *GaveUp saying why (which timer fired, or the context's cause) and
	// when.
	Err error
	// Head is the start of a line discarded over the limit (at most 1 KiB,
	// where Line is nil), so that an observer can tell what it was, such
	// as the id of the response it held; nil for every other event.
	Head []byte
}

// CallOption adjusts one Call or Listen.
type CallOption func(*callOptions)

type callOptions struct {
	timeout         time.Duration
	progress        func(Progress) error
	resetOnProgress bool
	maxTotal        time.Duration
	meta            json.RawMessage
	maxBuffer       int
	control         *CallControl
	neverCancel     bool
}

func newCallOptions(opts []CallOption) callOptions {
	defaults := callOptions{timeout: DefaultTimeout, maxTotal: DefaultMaxTotalTimeout, maxBuffer: DefaultMaxBuffer}
	if len(opts) == 0 {
		return defaults // without taking an address that would escape
	}
	o := defaults
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// WithTimeout sets how long to wait for the response (default 30 s); d <= 0
// means no timer.
func WithTimeout(d time.Duration) CallOption {
	return func(o *callOptions) { o.timeout = d }
}

// WithProgress asks the server for progress (params._meta.progressToken is set
// to the request id) and calls fn for each notifications/progress, in order, in
// the calling goroutine, before Call returns. If fn returns an error or panics,
// the request is cancelled on the server and Call returns that error (or
// panics again).
func WithProgress(fn func(Progress) error) CallOption {
	return func(o *callOptions) { o.progress = fn }
}

// WithResetTimeoutOnProgress restarts the timer on each progress notification,
// never beyond the start plus the maximum total timeout. It needs WithProgress.
func WithResetTimeoutOnProgress() CallOption {
	return func(o *callOptions) { o.resetOnProgress = true }
}

// WithMaxTotalTimeout caps how far progress may push the deadline (default 10
// minutes after the start).
func WithMaxTotalTimeout(d time.Duration) CallOption {
	return func(o *callOptions) { o.maxTotal = d }
}

// WithMeta merges the members of meta, a JSON object, into params._meta of the
// request (a progress token set by WithProgress wins).
func WithMeta(meta json.RawMessage) CallOption {
	return func(o *callOptions) { o.meta = meta }
}

// WithoutCancellation gives up on a request that times out or whose context
// ends without sending notifications/cancelled: MCP forbids cancelling
// initialize.
func WithoutCancellation() CallOption {
	return func(o *callOptions) { o.neverCancel = true }
}

// WithMaxBuffer sets how many events a Subscription queues before it drops the
// oldest (default 100).
func WithMaxBuffer(n int) CallOption {
	return func(o *callOptions) { o.maxBuffer = n }
}
