package conn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/mcptui/mcptui/internal/jsonscan"
	"github.com/mcptui/mcptui/internal/rpccall"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Messages of subscription errors.
const (
	msgInvalidAck       = "The server sent an invalid subscription acknowledgement"
	msgEndedBeforeAck   = "The server ended the subscription before acknowledging it"
	msgSubscriptionDone = "The subscription is closed"
	ackMethod           = "notifications/subscriptions/acknowledged"
)

// Subscription is a subscriptions/listen stream opened with Listen. Its events
// queue up (at most the buffer size, the oldest dropped first) until Next
// takes them.
type Subscription struct {
	id        int64
	maxBuffer int
	out       outgoing
	// forget removes the subscription from its transport and tells the
	// server (notifications/cancelled with the reason); false when it had
	// ended already.
	forget func(reason string) bool

	mu       sync.Mutex
	acked    bool
	accepted json.RawMessage
	ackErr   error // the listen failed before the acknowledgement
	queue    []Notification
	dropped  int
	ended    bool  // no more events will come
	endErr   error // what Next returns once the queue is empty
	byServer bool  // the server ended it (no cancellation is due)
	wake     chan struct{}
	stopOwn  func() bool
}

// Listen opens a subscription: it sends subscriptions/listen with params
// {"notifications": filter} and waits (for the call timeout) for the
// acknowledgement. ctx owns the subscription: when it is done the
// subscription closes. WithMeta adds _meta members; WithMaxBuffer sets the
// queue size.
func (c *Conn) Listen(ctx context.Context, filter any, opts ...CallOption) (*Subscription, error) {
	o := newCallOptions(opts)
	if o.progress != nil || o.resetOnProgress {
		return nil, errors.New("conn: Listen takes no progress options")
	}
	if o.maxBuffer <= 0 {
		o.maxBuffer = DefaultMaxBuffer
	}
	filterRaw, err := rpccall.EncodeParams(filter)
	if err != nil {
		return nil, fmt.Errorf("conn: listen filter: %w", err)
	}
	if filterRaw == nil {
		filterRaw = emptyObject
	}
	params := append(append([]byte(`{"notifications":`), filterRaw...), '}')
	id := c.nextID.Add(1)
	params, err = requestParams(json.RawMessage(params), o, id)
	if err != nil {
		return nil, fmt.Errorf("conn: listen params: %w", err)
	}
	s := newSubscription(id, o.maxBuffer)
	s.forget = func(reason string) bool { return c.forget(s, reason) }
	s.out.line = appendRequest(nil, id, protocol.MethodListen, params)

	c.mu.Lock()
	if c.stopErr != nil {
		e := c.stopErr
		c.mu.Unlock()
		return nil, e
	}
	c.subs[id] = s
	c.openSubs.Add(1)
	c.mu.Unlock()
	c.w.enqueue(&s.out)
	if err := s.open(ctx, o.timeout); err != nil {
		return nil, err
	}
	return s, nil
}

func newSubscription(id int64, maxBuffer int) *Subscription {
	if maxBuffer <= 0 {
		maxBuffer = DefaultMaxBuffer
	}
	return &Subscription{id: id, maxBuffer: maxBuffer, wake: make(chan struct{}, 1)}
}

// open waits for the acknowledgement and then hands the subscription to
// ctx: when ctx is done it closes.
func (s *Subscription) open(ctx context.Context, timeout time.Duration) error {
	if err := s.awaitAck(ctx, timeout); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { s.Close() })
	s.mu.Lock()
	s.stopOwn = stop
	s.mu.Unlock()
	return nil
}

// awaitAck waits for the acknowledgement, a terminal response, the timeout
// or ctx.
func (s *Subscription) awaitAck(ctx context.Context, timeout time.Duration) error {
	var timerC <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timerC = t.C
	}
	for {
		s.mu.Lock()
		acked, ackErr := s.acked, s.ackErr
		s.mu.Unlock()
		if acked {
			return nil
		}
		if ackErr != nil {
			return ackErr
		}
		select {
		case <-s.wake:
		case <-timerC:
			if s.forget(reasonTimedOut) {
				return &Error{Code: CodeTimeout, Message: msgTimedOut,
					Data: fmt.Appendf(nil, `{"timeoutMs":%d}`, timeout.Milliseconds())}
			}
			timerC = nil
		case <-ctx.Done():
			if s.forget(reasonClosed) {
				return fmt.Errorf("conn: listen: %w", context.Cause(ctx))
			}
		}
	}
}

// forget removes an open subscription and sends the cancellation; it reports
// false when the subscription had already ended.
func (c *Conn) forget(s *Subscription, reason string) bool {
	c.mu.Lock()
	if c.subs[s.id] != s {
		c.mu.Unlock()
		return false
	}
	delete(c.subs, s.id)
	c.openSubs.Add(-1)
	c.mu.Unlock()
	if !s.out.abandon() {
		c.cancelRequest(s.id, reason, nil)
	}
	return true
}

func (s *Subscription) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// event takes an acknowledgement or an event from the reader.
func (s *Subscription) event(n Notification) {
	if n.Method == ackMethod {
		s.acknowledge(n)
		return
	}
	s.mu.Lock()
	if !s.ended {
		if len(s.queue) >= s.maxBuffer {
			s.queue = s.queue[1:]
			s.dropped++
		}
		s.queue = append(s.queue, n)
	}
	s.mu.Unlock()
	s.signal()
}

func (s *Subscription) acknowledge(n Notification) {
	accepted := jsonscan.Member(n.Params, "notifications")
	s.mu.Lock()
	if s.acked || s.ackErr != nil {
		s.mu.Unlock()
		return // duplicates are ignored
	}
	if len(accepted) == 0 || accepted[0] != '{' {
		s.ackErr = &Error{Code: CodeConnection, Message: msgInvalidAck}
		s.mu.Unlock()
		s.forget(reasonInvalidAck)
		s.signal()
		return
	}
	s.acked, s.accepted = true, accepted
	s.mu.Unlock()
	s.signal()
}

// terminal takes the response that ends the subscription.
func (s *Subscription) terminal(result []byte, err error) {
	s.mu.Lock()
	s.byServer = true
	if !s.acked {
		if err == nil {
			err = &Error{Code: CodeConnection, Message: msgEndedBeforeAck}
		}
		s.ackErr = err
	} else if !s.ended {
		if err == nil {
			err = io.EOF
		}
		s.ended, s.endErr = true, err
	}
	s.mu.Unlock()
	s.signal()
}

// end finishes the subscription when the connection stops: at once (queued
// events dropped) or after the queued events.
func (s *Subscription) end(err *Error, immediate bool) {
	s.mu.Lock()
	if !s.acked {
		s.ackErr = err
	} else if !s.ended {
		s.ended, s.endErr = true, err
		if immediate {
			s.queue = nil
		}
	}
	s.mu.Unlock()
	s.signal()
}

// ID is the subscription's id: the id of its subscriptions/listen request.
func (s *Subscription) ID() json.RawMessage {
	return strconv.AppendInt(nil, s.id, 10)
}

// Accepted is the acknowledgement's params.notifications: what the server
// agreed to send, possibly a subset of the filter.
func (s *Subscription) Accepted() json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.accepted
}

// Dropped is how many events were dropped because the queue was full.
func (s *Subscription) Dropped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped
}

// Next returns the next event. After the queued events it returns io.EOF when
// the server ended the subscription with a result, the server's error when it
// ended it with one, and the connection's error when the connection stopped.
func (s *Subscription) Next(ctx context.Context) (Notification, error) {
	for {
		s.mu.Lock()
		if len(s.queue) > 0 {
			n := s.queue[0]
			s.queue[0] = Notification{}
			s.queue = s.queue[1:]
			s.mu.Unlock()
			return n, nil
		}
		if s.ended {
			err := s.endErr
			s.mu.Unlock()
			return Notification{}, err
		}
		s.mu.Unlock()
		select {
		case <-s.wake:
		case <-ctx.Done():
			return Notification{}, fmt.Errorf("conn: subscription next: %w", context.Cause(ctx))
		}
	}
}

// Close ends the subscription: unless the server already ended it, the
// server is sent notifications/cancelled ("Closed by the client"). Queued
// events are dropped. It is idempotent.
func (s *Subscription) Close() error {
	s.mu.Lock()
	stop := s.stopOwn
	already := s.ended
	if !already {
		s.ended, s.endErr, s.queue = true, &Error{Code: CodeConnection, Message: msgSubscriptionDone}, nil
	}
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
	if !already {
		s.forget(reasonClosed)
	}
	s.signal()
	return nil
}
