package conn

import (
	"context"
	"encoding/json"
	"time"
)

// Conn is a connection to a stdio server.
type Conn struct{}

// Dial starts command with args and connects to it. ctx owns the connection:
// when it is done the connection closes.
func Dial(ctx context.Context, command string, args []string, opts Options) (*Conn, error) {
	panic("unimplemented")
}

// Call sends a request and waits for its response.
func (c *Conn) Call(ctx context.Context, method string, params any, opts ...CallOption) (json.RawMessage, error) {
	panic("unimplemented")
}

// Notify writes a notification and returns once it is written.
func (c *Conn) Notify(ctx context.Context, method string, params any) error { panic("unimplemented") }

// Listen opens a subscription.
func (c *Conn) Listen(ctx context.Context, filter any, opts ...CallOption) (*Subscription, error) {
	panic("unimplemented")
}

// Close closes the child's stdin.
func (c *Conn) Close() error { panic("unimplemented") }

// CloseWithError closes with reason as the Cause of later failures.
func (c *Conn) CloseWithError(reason error) error { panic("unimplemented") }

// Shutdown closes stdin, waits, then signals.
func (c *Conn) Shutdown(grace time.Duration) error { panic("unimplemented") }

// Done is closed once the connection has stopped.
func (c *Conn) Done() <-chan struct{} { panic("unimplemented") }

// Err is the error the connection stopped with.
func (c *Conn) Err() error { panic("unimplemented") }

// PID is the child's process id.
func (c *Conn) PID() int { panic("unimplemented") }

// Subscription is an open subscriptions/listen stream.
type Subscription struct{}

// ID is the subscription id.
func (s *Subscription) ID() json.RawMessage { panic("unimplemented") }

// Accepted is params.notifications of the acknowledgement.
func (s *Subscription) Accepted() json.RawMessage { panic("unimplemented") }

// Dropped is how many events were dropped.
func (s *Subscription) Dropped() int { panic("unimplemented") }

// Next returns the next event.
func (s *Subscription) Next(ctx context.Context) (Notification, error) { panic("unimplemented") }

// Close ends the subscription.
func (s *Subscription) Close() error { panic("unimplemented") }
