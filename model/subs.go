package model

import (
	"encoding/json"
	"time"
)

// Subscription is a subscriptions/listen stream of ours.
type Subscription struct {
	Key string
	ID  json.RawMessage
	Gen int
	// Asked is the filter we sent; Accepted what the server acknowledged
	// (nil until it does).
	Asked    json.RawMessage
	Accepted json.RawMessage
	Opened   time.Time
	AckedAt  time.Time
	Events   int
	// LastTime, LastMethod and LastSummary describe the newest event.
	LastTime    time.Time
	LastMethod  string
	LastSummary string
	Open        bool
	Ended       time.Time
	// EndReason says how it ended: "closed by client", an error, "the
	// server ended it", "connection died".
	EndReason string
}

// subscriptionIDKey is the _meta member tagging a subscription's events.
const subscriptionIDKey = "io.modelcontextprotocol/subscriptionId"

// ackMethod acknowledges a subscription with the accepted filter.
const ackMethod = "notifications/subscriptions/acknowledged"

// end closes the subscription once.
func (s *Subscription) end(t time.Time, reason string) {
	if !s.Open {
		return
	}
	s.Open, s.Ended, s.EndReason = false, t, reason
}
