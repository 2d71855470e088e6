package explorer

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/mcp"
)

// Server is what the explorer asks of the connection. Each method may block
// (the explorer calls it inside a tea.Cmd).
type Server interface {
	ListTools(ctx context.Context) ([]mcp.Tool, error)
	ListResources(ctx context.Context) ([]mcp.Resource, error)
	ListResourceTemplates(ctx context.Context) ([]mcp.ResourceTemplate, error)
	ListPrompts(ctx context.Context) ([]mcp.Prompt, error)
	// Call sends a request of the explorer's (tools/call, tasks/get, ...)
	// with per-call options and returns its result, raw.
	Call(ctx context.Context, method string, params any, opts CallOptions) (json.RawMessage, error)
	ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error)
	GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error)
	Complete(ctx context.Context, ref mcp.Ref, arg, value string, context map[string]string) (*mcp.CompleteResult, error)
	SetLogLevel(ctx context.Context, level string) error
	// Listen opens a subscription; ctx owns it.
	Listen(ctx context.Context, f mcp.Filter) (Subscription, error)
	// Notify sends a notification (roots list_changed).
	Notify(ctx context.Context, method string, params any) error
	// Info is what is known about the server now.
	Info() Info
	// Notifications delivers the server notifications nothing else
	// claimed (log messages, task status); nil when there are none.
	Notifications() <-chan mcp.Notification
}

// Subscription is an open subscription.
type Subscription interface {
	Next(ctx context.Context) (mcp.Notification, error)
	Close() error
	Accepted() json.RawMessage
}

// CallOptions are the per-call options of a request.
type CallOptions struct {
	// Timeout is the call's timer: 0 the connection's default, < 0 none.
	Timeout time.Duration
	// ResetOnProgress restarts the timer on each progress notification.
	ResetOnProgress bool
	// Progress, when set, asks for progress notifications and gets them.
	Progress func(conn.Progress)
}

// Info is what the explorer knows about the server.
type Info struct {
	// Version is the negotiated protocol version; Offered the versions the
	// server said it speaks.
	Version      string
	Offered      []string
	Capabilities mcp.ServerCapabilities
	// Name and ServerVersion identify the server.
	Name, ServerVersion string
	// Key names the server for remembered arguments (its command line).
	Key string
}
