// Package uitest helps test the inspector's UI: a fake Backend that records
// what the UI asked for, and a scripted session rich enough for screen
// tests and screenshots.
package uitest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/model"
)

// Call is one request the UI made of the backend.
type Call struct {
	// Method is the Backend method: Call, Cancel, Extend, Answer, Reject,
	// Listen, CloseSubscription, Restart, Shutdown.
	Method string
	ID     json.RawMessage
	Ref    model.QuestionRef
	Result json.RawMessage
	Err    model.RPCError
	By     time.Duration
	// Request is set for Call.
	Request backend.CallRequest
	// Listen is set for Listen.
	Listen backend.ListenRequest
	// Versions is set for RestartAt.
	Versions []string
	// Level is set for SetLogLevel.
	Level string
}

// Backend is a fake backend.Backend: events pushed to its inbox reach the UI,
// and every call is recorded (and fails with Fail when it is set).
type Backend struct {
	Inbox *inbox.Inbox

	mu    sync.Mutex
	calls []Call
	fail  error
	wake  chan struct{}
}

// New returns a fake backend with an empty inbox.
func New() *Backend {
	return &Backend{Inbox: inbox.New(inbox.Limits{}), wake: make(chan struct{}, 1)}
}

// Push queues events for the UI.
func (b *Backend) Push(evs ...model.Event) {
	for _, ev := range evs {
		b.Inbox.Push(ev)
	}
}

// Fail makes every later call return err (nil: succeed again).
func (b *Backend) Fail(err error) {
	b.mu.Lock()
	b.fail = err
	b.mu.Unlock()
}

// Calls returns the calls recorded so far.
func (b *Backend) Calls() []Call {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Call(nil), b.calls...)
}

// WaitCalls waits until at least n calls were recorded, or ctx is done.
func (b *Backend) WaitCalls(ctx context.Context, n int) ([]Call, error) {
	for {
		if c := b.Calls(); len(c) >= n {
			return c, nil
		}
		select {
		case <-b.wake:
		case <-ctx.Done():
			return b.Calls(), fmt.Errorf("uitest: %d calls, want %d: %w", len(b.Calls()), n, ctx.Err())
		}
	}
}

func (b *Backend) record(c Call) error {
	b.mu.Lock()
	b.calls = append(b.calls, c)
	err := b.fail
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
	return err
}

// Next returns the inbox's next batch.
func (b *Backend) Next(ctx context.Context) ([]model.Event, error) { return b.Inbox.Next(ctx) }

// Call records a request and returns an empty result.
func (b *Backend) Call(_ context.Context, req backend.CallRequest) (json.RawMessage, error) {
	if err := b.record(Call{Method: "Call", Request: req}); err != nil {
		return nil, err
	}
	return json.RawMessage(`{}`), nil
}

// Resources are the resources the fake lists for Resources.
var Resources = []backend.Resource{{URI: "file:///var/log/build.log", Name: "build log"}, {URI: "mem://cache", Name: "cache"}}

// Listen records a subscription and returns the id "fake-1".
func (b *Backend) Listen(_ context.Context, req backend.ListenRequest) (json.RawMessage, error) {
	if err := b.record(Call{Method: "Listen", Listen: req}); err != nil {
		return nil, err
	}
	return json.RawMessage(`"fake-1"`), nil
}

// Resources returns the package's Resources (it is not recorded).
func (b *Backend) Resources(context.Context) ([]backend.Resource, error) {
	return Resources, nil
}

// Cancel records a cancellation.
func (b *Backend) Cancel(_ context.Context, id json.RawMessage) error {
	return b.record(Call{Method: "Cancel", ID: id})
}

// Extend records an extension.
func (b *Backend) Extend(_ context.Context, id json.RawMessage, by time.Duration) error {
	return b.record(Call{Method: "Extend", ID: id, By: by})
}

// Answer records an answer.
func (b *Backend) Answer(_ context.Context, q model.QuestionRef, result json.RawMessage) error {
	return b.record(Call{Method: "Answer", Ref: q, Result: result})
}

// Reject records a rejection.
func (b *Backend) Reject(_ context.Context, q model.QuestionRef, e model.RPCError) error {
	return b.record(Call{Method: "Reject", Ref: q, Err: e})
}

// CloseSubscription records a close.
func (b *Backend) CloseSubscription(_ context.Context, id json.RawMessage) error {
	return b.record(Call{Method: "CloseSubscription", ID: id})
}

// Restart records a restart.
func (b *Backend) Restart(context.Context) error { return b.record(Call{Method: "Restart"}) }

// RestartAt records a restart at other versions.
func (b *Backend) RestartAt(_ context.Context, versions []string) error {
	return b.record(Call{Method: "RestartAt", Versions: versions})
}

// Versions are all (nil).
func (b *Backend) Versions() []string { return nil }

// Shutdown records a shutdown.
func (b *Backend) Shutdown(context.Context) error { return b.record(Call{Method: "Shutdown"}) }

var (
	_ backend.Backend     = (*Backend)(nil)
	_ backend.Caller      = (*Backend)(nil)
	_ backend.Listener    = (*Backend)(nil)
	_ backend.Reconnector = (*Backend)(nil)
)

// SetLogLevel records the level asked for (backend.LogLeveler).
func (b *Backend) SetLogLevel(_ context.Context, level string) error {
	return b.record(Call{Method: "SetLogLevel", Level: level})
}
