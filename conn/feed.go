package conn

import (
	"context"
	"encoding/json"
	"time"
)

// SubscriptionFeed is the transport side of a Subscription that another of
// mcptui's transports (httpconn) carries: the transport hands it the
// acknowledgement, the events and the end, and the Subscription behaves
// exactly as one Listen opened over stdio.
type SubscriptionFeed struct{ s *Subscription }

// NewSubscriptionFeed makes the subscription of the subscriptions/listen
// request id, queueing at most maxBuffer events (DefaultMaxBuffer when <=
// 0). forget removes it from the transport and tells the server, with the
// reason to send in notifications/cancelled; it reports false when the
// subscription had ended already.
func NewSubscriptionFeed(id int64, maxBuffer int, forget func(reason string) bool) *SubscriptionFeed {
	s := newSubscription(id, maxBuffer)
	s.forget = forget
	return &SubscriptionFeed{s: s}
}

// Open waits, as Listen does, for the acknowledgement (at most timeout when
// > 0) and returns the subscription, which ctx then owns.
func (f *SubscriptionFeed) Open(ctx context.Context, timeout time.Duration) (*Subscription, error) {
	if err := f.s.open(ctx, timeout); err != nil {
		return nil, err
	}
	return f.s, nil
}

// Event hands the subscription a notification tagged with its id: the
// acknowledgement or an event.
func (f *SubscriptionFeed) Event(n Notification) { f.s.event(n) }

// Terminal hands the subscription the response that ends it: its result,
// or the error it carried.
func (f *SubscriptionFeed) Terminal(result json.RawMessage, err error) { f.s.terminal(result, err) }

// End ends the subscription with err (the connection stopped, or its
// stream ended with no terminal response); events already queued are
// still delivered.
func (f *SubscriptionFeed) End(err *Error) { f.s.end(err, false) }
