package replay

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/model"
)

// ErrReadOnly is what every action of a replay returns: a recording (or a
// host's session watched through a tap) cannot be sent anything. It is
// backend.ErrReadOnly, the sentence the read-only inspector says too.
var ErrReadOnly = backend.ErrReadOnly

// maxBatch is the most events one Next returns.
const maxBatch = 4096

// Backend is a read-only backend.Backend over a recording's events: Next hands
// them out in batches, then waits until Close; every action returns
// ErrReadOnly (Shutdown, which only stops, returns nil so that quitting
// works). It is safe for concurrent use.
type Backend struct {
	mu      sync.Mutex
	pending []model.Event
	closed  bool
	wake    chan struct{}
	more    chan struct{} // signalled by Push
}

// NewBackend returns a backend whose Next delivers evs.
func NewBackend(evs []model.Event) *Backend {
	return &Backend{pending: evs, wake: make(chan struct{}), more: make(chan struct{}, 1)}
}

// Push adds events for Next to deliver (a live feed being followed).
func (b *Backend) Push(evs ...model.Event) {
	b.mu.Lock()
	b.pending = append(b.pending, evs...)
	b.mu.Unlock()
	select {
	case b.more <- struct{}{}:
	default:
	}
}

// Next returns the next batch of events; once they are all delivered it
// waits for more (Push), Close (io.EOF) or ctx.
func (b *Backend) Next(ctx context.Context) ([]model.Event, error) {
	for {
		evs, err := b.next(ctx)
		if evs != nil || err != nil {
			return evs, err
		}
	}
}

// next is one try of Next: nil, nil when more events were pushed.
func (b *Backend) next(ctx context.Context) ([]model.Event, error) {
	b.mu.Lock()
	if len(b.pending) > 0 {
		n := min(len(b.pending), maxBatch)
		batch := b.pending[:n:n]
		b.pending = b.pending[n:]
		b.mu.Unlock()
		return batch, nil
	}
	closed, wake := b.closed, b.wake
	b.mu.Unlock()
	if closed {
		return nil, io.EOF
	}
	select {
	case <-wake:
		return nil, io.EOF
	case <-b.more:
		return nil, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close ends the replay: Next returns io.EOF.
func (b *Backend) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.closed = true
		close(b.wake)
	}
}

// Cancel returns ErrReadOnly.
func (b *Backend) Cancel(context.Context, json.RawMessage) error { return ErrReadOnly }

// Extend returns ErrReadOnly.
func (b *Backend) Extend(context.Context, json.RawMessage, time.Duration) error { return ErrReadOnly }

// Answer returns ErrReadOnly.
func (b *Backend) Answer(context.Context, model.QuestionRef, json.RawMessage) error {
	return ErrReadOnly
}

// Reject returns ErrReadOnly.
func (b *Backend) Reject(context.Context, model.QuestionRef, model.RPCError) error {
	return ErrReadOnly
}

// CloseSubscription returns ErrReadOnly.
func (b *Backend) CloseSubscription(context.Context, json.RawMessage) error { return ErrReadOnly }

// Restart returns ErrReadOnly.
func (b *Backend) Restart(context.Context) error { return ErrReadOnly }

// Shutdown does nothing: there is no server to stop.
func (b *Backend) Shutdown(context.Context) error { return nil }
