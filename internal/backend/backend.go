// Package backend is the contract between the inspector's UI and the
// connection: what the UI may ask (calls, cancellations, answers, restarts)
// and how events reach it. The ui package draws; an implementation of
// Backend over mcp does the I/O; uitest fakes it.
package backend

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcptui/mcptui/model"
)

// Backend is everything the UI asks of the connection. Each method may block
// (the UI calls it inside a tea.Cmd) and returns an error the UI shows.
type Backend interface {
	// Next waits for the next batch of events (connection lines, stderr,
	// lifecycle, questions) and returns it; an error means no more will
	// come. inbox.Inbox.Next is the usual implementation.
	Next(ctx context.Context) ([]model.Event, error)
	// Cancel cancels one of our requests in flight (the connection sends
	// notifications/cancelled).
	Cancel(ctx context.Context, id json.RawMessage) error
	// Extend moves the timer of one of our requests later.
	Extend(ctx context.Context, id json.RawMessage, by time.Duration) error
	// Answer sends the result of a question the server asked.
	Answer(ctx context.Context, q model.QuestionRef, result json.RawMessage) error
	// Reject answers a question with a JSON-RPC error.
	Reject(ctx context.Context, q model.QuestionRef, e model.RPCError) error
	// CloseSubscription closes one of our subscriptions.
	CloseSubscription(ctx context.Context, id json.RawMessage) error
	// Restart stops the server and starts it again with the same command.
	Restart(ctx context.Context) error
	// Shutdown stops the server for good (stdin EOF, SIGTERM, SIGKILL).
	Shutdown(ctx context.Context) error
}

// Reconnector is the optional part of a Backend that restarts the server
// at other protocol versions (a host may negotiate an older one than
// mcptui's newest; a server author tests the one it uses).
type Reconnector interface {
	// RestartAt stops the server and starts it again allowing versions:
	// one pins it, several restrict, nil negotiates among all.
	RestartAt(ctx context.Context, versions []string) error
	// Versions are the versions allowed now (nil: all).
	Versions() []string
}

// Caller is the optional part of a Backend that sends requests the person
// composed; without it the composer says it cannot send.
type Caller interface {
	// Call sends a request of ours and waits for its result; the lines
	// themselves reach the UI as events like any other.
	Call(ctx context.Context, req CallRequest) (json.RawMessage, error)
}

// CallRequest is a request the person composed.
type CallRequest struct {
	Method string
	// Params is a JSON object, or nil for none.
	Params json.RawMessage
	// Timeout is the call's timer: 0 means the default, mcp.NoTimeout
	// (any value < 0) none.
	Timeout time.Duration
	// Progress asks the server for progress notifications; with
	// ResetOnProgress each one restarts the timer.
	Progress, ResetOnProgress bool
}

// Listener is the optional part of a Backend that opens subscriptions the
// person asks for; without it the subscriptions pane only shows the ones on
// the wire. The subscription then shows up as events (the listen request
// and its acknowledgement, or model.SubscriptionOpened) and is closed with
// Backend.CloseSubscription.
type Listener interface {
	// Listen opens a subscription and returns its id once the server
	// accepted it.
	Listen(ctx context.Context, req ListenRequest) (json.RawMessage, error)
	// Resources lists the resources the server offers, to pick the ones a
	// subscription watches.
	Resources(ctx context.Context) ([]Resource, error)
}

// ListenRequest is the filter of a subscription the person asked for.
type ListenRequest struct {
	ToolsListChanged, PromptsListChanged, ResourcesListChanged bool
	// Resources are the URIs whose updates to receive.
	Resources []string
}

// Resource is a resource the server lists.
type Resource struct {
	URI, Name string
}

// Policies is the optional part of a Backend that answers questions
// without a person, by answer policy (model.Policy): the UI lists the
// policies and changes them live; without it every question waits for
// the person.
type Policies interface {
	// Policies are the policies in force now.
	Policies() model.Policies
	// SetPolicy changes the policy of method's questions from now on.
	SetPolicy(method string, p model.Policy) error
	// SetRoots changes the roots a prepared roots answer returns.
	SetRoots(roots []model.Root)
}
