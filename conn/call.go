package conn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/jsonscan"
)

// Cancellation reasons sent in notifications/cancelled.
const (
	reasonTimedOut       = "Request timed out"
	reasonStoppedWaiting = "The client stopped waiting"
	reasonClosed         = "Closed by the client"
	reasonInvalidAck     = "Invalid acknowledgement"
)

// pendingCall is a request waiting for its response. The reader hands it
// progress and the final outcome through a mailbox, so the caller processes
// progress in order, in its own goroutine, before the result.
type pendingCall struct {
	out      outgoing
	progress bool

	mu       sync.Mutex
	queue    []progressAt
	finished bool
	result   json.RawMessage
	err      error
	wake     chan struct{}
}

// progressAt is a progress notification and when it arrived.
type progressAt struct {
	Progress
	at time.Time
}

func (p *pendingCall) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

func (p *pendingCall) addProgress(pr Progress, at time.Time) {
	p.mu.Lock()
	p.queue = append(p.queue, progressAt{pr, at})
	p.mu.Unlock()
	p.signal()
}

// finish delivers the outcome; only the goroutine that removed the call from
// the pending table calls it.
func (p *pendingCall) finish(result json.RawMessage, err error) {
	p.mu.Lock()
	p.finished, p.result, p.err = true, result, err
	p.mu.Unlock()
	p.signal()
}

// take returns the queued progress and whether the outcome has arrived.
func (p *pendingCall) take(buf []progressAt) ([]progressAt, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	buf = append(buf[:0], p.queue...)
	clear(p.queue)
	p.queue = p.queue[:0]
	return buf, p.finished
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
	p := &pendingCall{progress: o.progress != nil, wake: make(chan struct{}, 1)}
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
	var extendC <-chan struct{}
	if ctl := o.control; ctl != nil {
		var shown time.Time
		if o.timeout > 0 {
			shown = start.Add(o.timeout)
		}
		extendC = ctl.start(id, shown)
		defer ctl.end()
	}
	// If the connection stopped in between, stop has finished p already.
	c.w.enqueue(&p.out)
	return c.await(ctx, id, p, o, start, extendC)
}

// requestParams encodes params and sets what the options put in _meta.
func requestParams(params any, o callOptions, id int64) ([]byte, error) {
	raw, err := encodeParams(params)
	if err != nil {
		return nil, err
	}
	var set []metaMember
	if len(o.meta) > 0 {
		if !jsontext.Value(o.meta).IsValid() || jsonscan.SkipSpace(o.meta, 0) >= len(o.meta) || o.meta[jsonscan.SkipSpace(o.meta, 0)] != '{' {
			return nil, errors.New("WithMeta needs a JSON object")
		}
		_ = jsonscan.EachMember(o.meta[jsonscan.SkipSpace(o.meta, 0):], func(name, _, v []byte) error {
			set = append(set, metaMember{string(name), compactLine(v)})
			return nil
		})
	}
	if o.progress != nil {
		set = append(set, metaMember{"progressToken", strconv.AppendInt(nil, id, 10)})
	}
	return withMeta(raw, set)
}

// encodeParams turns params into one line of JSON; nil means no params.
func encodeParams(params any) ([]byte, error) {
	var raw []byte
	switch v := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		raw = v
	case []byte:
		raw = v
	case jsontext.Value:
		raw = v
	default:
		b, err := jsonv2.Marshal(params)
		if err != nil {
			return nil, err
		}
		return b, nil
	}
	if len(raw) == 0 {
		return nil, nil
	}
	if !jsontext.Value(raw).IsValid() {
		return nil, errParamsNotJSON
	}
	return compactLine(raw), nil
}

// await waits for the call's outcome, running progress callbacks and the
// timer, and cleans up after a timeout or an abandoned wait.
func (c *Conn) await(ctx context.Context, id int64, p *pendingCall, o callOptions, start time.Time, extendC <-chan struct{}) (json.RawMessage, error) {
	var timer *time.Timer
	var timerC <-chan time.Time
	deadline := start.Add(o.timeout)
	capAt := start.Add(o.maxTotal)
	clamped := false
	if o.timeout > 0 {
		timer = time.NewTimer(time.Until(deadline))
		timerC = timer.C
		defer timer.Stop()
	}
	var batch []progressAt
	for {
		select {
		case <-extendC:
			if d := o.control.takeExtension(); timer != nil && timerC != nil {
				deadline, capAt, clamped = deadline.Add(d), capAt.Add(d), false
				timer.Reset(time.Until(deadline))
				o.control.setDeadline(deadline)
			}
		case <-p.wake:
			var finished bool
			batch, finished = p.take(batch)
			for _, pr := range batch {
				if o.resetOnProgress && timer != nil {
					next := pr.at.Add(o.timeout)
					if next.After(capAt) {
						next, clamped = capAt, true
					}
					if next.After(deadline) {
						deadline = next
						timer.Reset(time.Until(deadline))
						if o.control != nil {
							o.control.setDeadline(deadline)
						}
					}
				}
				if err := callProgress(o.progress, pr.Progress, func() { c.abandon(id, p, o.cancelReason(reasonStoppedWaiting)) }); err != nil {
					c.abandon(id, p, o.cancelReason(reasonStoppedWaiting))
					return nil, err
				}
			}
			if finished {
				p.mu.Lock()
				result, err := p.result, p.err
				p.mu.Unlock()
				return result, err
			}
		case <-timerC:
			if !c.abandon(id, p, o.cancelReason(reasonTimedOut)) {
				timerC = nil // the outcome is on its way
				continue
			}
			if clamped {
				return nil, &Error{Code: CodeTimeout, Message: msgMaxTotalTimeout,
					Data: fmt.Appendf(nil, `{"maxTotalTimeoutMs":%d}`, o.maxTotal.Milliseconds())}
			}
			return nil, &Error{Code: CodeTimeout, Message: msgTimedOut,
				Data: fmt.Appendf(nil, `{"timeoutMs":%d}`, o.timeout.Milliseconds())}
		case <-ctx.Done():
			if c.abandon(id, p, o.cancelReason(reasonStoppedWaiting)) {
				return nil, fmt.Errorf("conn: call %d: %w", id, context.Cause(ctx))
			}
			ctx = context.Background() // the outcome is on its way
		}
	}
}

// callProgress runs the progress callback; a panic cancels the request
// (through onPanic) and goes on up the caller's stack.
func callProgress(fn func(Progress) error, pr Progress, onPanic func()) error {
	if fn == nil {
		return nil
	}
	ok := false
	defer func() {
		if !ok {
			onPanic()
		}
	}()
	err := fn(pr)
	ok = true
	return err
}

// abandon removes a call that is still pending and, if its line went out
// and reason is not empty, tells the server with notifications/cancelled. It reports false when the
// outcome was already claimed by the reader or by stop.
func (c *Conn) abandon(id int64, p *pendingCall, reason string) bool {
	c.mu.Lock()
	if c.pending[id] != p {
		c.mu.Unlock()
		return false
	}
	delete(c.pending, id)
	c.mu.Unlock()
	if !p.out.abandon() && reason != "" {
		c.cancelRequest(id, reason)
	}
	return true
}

// cancelReason is the reason sent in notifications/cancelled, or "" for a
// request that must never be cancelled.
func (o *callOptions) cancelReason(reason string) string {
	if o.neverCancel {
		return ""
	}
	return reason
}

// cancelRequest sends notifications/cancelled for one of our requests, without
// waiting for the write.
func (c *Conn) cancelRequest(id int64, reason string) {
	params := fmt.Appendf(nil, `{"requestId":%d,"reason":`, id)
	params, _ = jsontext.AppendQuote(params, reason)
	params = append(params, '}')
	c.w.enqueue(&outgoing{line: appendRequest(nil, 0, "notifications/cancelled", params)})
}

// Notify writes a notification and returns once the line is written to the
// pipe (or ctx ends, or the connection stops).
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	if e := c.stoppedErr(); e != nil {
		return e
	}
	raw, err := encodeParams(params)
	if err != nil {
		return fmt.Errorf("conn: %s params: %w", method, err)
	}
	o := &outgoing{line: appendRequest(nil, 0, method, raw), done: make(chan error, 1)}
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
		return fmt.Errorf("conn: notify %s: %w", method, context.Cause(ctx))
	}
}

// stoppedOrClosed waits for the connection to finish stopping and returns its
// sticky error.
func (c *Conn) stoppedOrClosed() error {
	<-c.done
	return c.stoppedErr()
}
