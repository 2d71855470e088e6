package backend

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/mcp"
)

// Catalog is what the catalog (ui/catalog) asks of the connection: the
// lists, the person's calls (ordinary requests the requests pane follows),
// completion, subscriptions and the roots. Each method may block (the
// catalog calls it inside a tea.Cmd). The server's notifications reach
// the catalog through the model, like every other line, not through here;
// and what the protocol decides (whether a notification is sent, how a
// level is set) is decided behind this interface.
type Catalog interface {
	ListTools(ctx context.Context) ([]mcp.Tool, error)
	ListResources(ctx context.Context) ([]mcp.Resource, error)
	ListResourceTemplates(ctx context.Context) ([]mcp.ResourceTemplate, error)
	ListPrompts(ctx context.Context) ([]mcp.Prompt, error)
	// Call sends a request of the catalog's (tools/call, tasks/get, ...)
	// with per-call options and returns its result, raw.
	Call(ctx context.Context, method string, params any, opts CatalogCallOptions) (json.RawMessage, error)
	ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error)
	GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error)
	Complete(ctx context.Context, ref mcp.Ref, arg, value string, context map[string]string) (*mcp.CompleteResult, error)
	SetLogLevel(ctx context.Context, level string) error
	// Listen opens a subscription; ctx owns it.
	Listen(ctx context.Context, f mcp.Filter) (Subscription, error)
	// RootsChanged tells the server that the client's roots changed, if
	// its protocol has a way to (notifications/roots/list_changed before
	// 2026-07-28; none after, where the next roots/list gets them), and
	// says what was done.
	RootsChanged(ctx context.Context) (string, error)
	// Info is what is known about the server now.
	Info() CatalogInfo
}

// Subscription is an open subscription.
type Subscription interface {
	Next(ctx context.Context) (mcp.Notification, error)
	Close() error
	Accepted() json.RawMessage
}

// CatalogCallOptions are the per-call options of a request.
type CatalogCallOptions struct {
	// Timeout is the call's timer: 0 the connection's default, < 0 none.
	Timeout time.Duration
	// ResetOnProgress restarts the timer on each progress notification.
	ResetOnProgress bool
	// Progress, when set, asks for progress notifications and gets them.
	Progress func(conn.Progress)
}

// CatalogInfo is what the catalog knows about the server.
type CatalogInfo struct {
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
