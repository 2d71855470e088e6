package conn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/rpccall"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Cancellation reasons sent in notifications/cancelled (the shared ones
// are rpccall's).
const (
	reasonTimedOut   = rpccall.ReasonTimedOut
	reasonClosed     = "Closed by the client"
	reasonInvalidAck = "Invalid acknowledgement"
)

// pendingCall is a request waiting for its response: rpccall's mailbox, and
// the line that carries it (which abandon withdraws if it is still queued).
type pendingCall struct {
	rpccall.Call[Progress]
	out outgoing
}

// abandoner is the Conn as rpccall.Abandoner, without a method in Conn's
// API.
type abandoner Conn

// Abandon gives up on call id (rpccall.Abandoner).
func (a *abandoner) Abandon(id int64, call *rpccall.Call[Progress], reason string, why *rpccall.GaveUp) bool {
	return (*Conn)(a).abandon(id, call, reason, why)
}

// Call sends a request and waits for its response. It returns the raw result,
// or an error: an *Error for a JSON-RPC error response, a timeout (-32001) or
// a stopped connection (-32000); the context's error if ctx ends first (the
// server is then sent notifications/cancelled); the progress function's error
// if it fails. Any number of goroutines may call at once.
func (c *Conn) Call(ctx context.Context, method string, params any, opts ...CallOption) (json.RawMessage, error) {
	o := newCallOptions(opts)
	if o.resetOnProgress && o.progress == nil {
		return nil, errors.New("conn: WithResetTimeoutOnProgress needs WithProgress")
	}
	if e := c.stoppedErr(); e != nil {
		return nil, e
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("conn: call %s: %w", method, context.Cause(ctx))
	}
	id := c.nextID.Add(1)
	raw, err := requestParams(params, o, id)
	if err != nil {
		return nil, fmt.Errorf("conn: %s params: %w", method, err)
	}
	p := &pendingCall{}
	p.Init(o.progress != nil)
	p.out.line = appendRequest(make([]byte, 0, len(raw)+len(method)+48), id, method, raw)

	c.mu.Lock()
	if c.stopErr != nil {
		e := c.stopErr
		c.mu.Unlock()
		return nil, e
	}
	c.pending[id] = p
	c.mu.Unlock()
	start := time.Now()
	w := rpccall.Wait[Progress]{
		Transport: "conn", ID: id, Start: start, Timeout: o.timeout, MaxTotal: o.maxTotal,
		ResetOnProgress: o.resetOnProgress, Progress: o.progress, NeverCancel: o.neverCancel,
		Abandon: (*abandoner)(c), TimedOut: timeoutError,
	}
	if ctl := o.control; ctl != nil {
		w.Control, w.Extended = ctl, rpccall.Bind(ctl, id, start, o.timeout)
		defer ctl.Unbind()
	}
	// If the connection stopped in between, stop has finished p already.
	c.w.enqueue(&p.out)
	return p.Await(ctx, &w)
}

// timeoutError is the -32001 of a call that timed out.
func timeoutError(message string, data json.RawMessage) error {
	return &Error{Code: CodeTimeout, Message: message, Data: data}
}

// requestParams encodes params and sets what the options put in _meta (the
// request id as progressToken for a call WithProgress).
func requestParams(params any, o callOptions, id int64) ([]byte, error) {
	var token int64
	if o.progress != nil {
		token = id
	}
	return rpccall.RequestParams(params, o.meta, token)
}

// abandon removes call id, whose mailbox is call, if it is still pending
// and, if its line went out and reason is not empty, tells the server with
// notifications/cancelled. It reports false when the outcome was already
// claimed by the reader or by stop. why, when not nil, is the Err of the
// notifications/cancelled line's Sent event (which timer fired).
func (c *Conn) abandon(id int64, call *rpccall.Call[Progress], reason string, why *rpccall.GaveUp) bool {
	c.mu.Lock()
	p := c.pending[id]
	if p == nil || &p.Call != call {
		c.mu.Unlock()
		return false
	}
	delete(c.pending, id)
	c.mu.Unlock()
	if !p.out.abandon() && reason != "" {
		c.cancelRequest(id, reason, why)
	}
	return true
}

// cancelRequest sends notifications/cancelled for one of our requests, without
// waiting for the write; why (nil for none) is its Sent event's Err.
func (c *Conn) cancelRequest(id int64, reason string, why *rpccall.GaveUp) {
	params := fmt.Appendf(nil, `{"requestId":%d,"reason":`, id)
	params, _ = jsontext.AppendQuote(params, reason)
	params = append(params, '}')
	o := &outgoing{line: appendRequest(nil, 0, protocol.NotificationCancelled, params)}
	if why != nil {
		o.why = why
	}
	c.w.enqueue(o)
}

// Notify writes a notification and returns once the line is written to the
// pipe (or ctx ends, or the connection stops).
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	if e := c.stoppedErr(); e != nil {
		return e
	}
	raw, err := rpccall.EncodeParams(params)
	if err != nil {
		return fmt.Errorf("conn: %s params: %w", method, err)
	}
	return c.writeLine(ctx, appendRequest(nil, 0, method, raw), "notify "+method)
}

// writeLine queues line (newline included) and waits until it is written
// to the pipe, ctx ends (what names the write in that error), or the
// connection stops.
func (c *Conn) writeLine(ctx context.Context, line []byte, what string) error {
	o := &outgoing{line: line, done: make(chan error, 1)}
	if !c.w.enqueue(o) {
		return c.stoppedOrClosed()
	}
	select {
	case err := <-o.done:
		if err != nil {
			return c.stoppedOrClosed()
		}
		return nil
	case <-ctx.Done():
		o.abandon()
		return fmt.Errorf("conn: %s: %w", what, context.Cause(ctx))
	}
}

// stoppedOrClosed waits for the connection to finish stopping and returns its
// sticky error.
func (c *Conn) stoppedOrClosed() error {
	<-c.done
	return c.stoppedErr()
}
