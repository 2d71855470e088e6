package session

import (
	"context"
	"encoding/json"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/mcp"
)

// Catalog is the session as the catalog (ui/catalog) sees it: the lists
// on the current connection, the person's calls as tracked requests (so
// that they are ordinary requests in the requests pane, cancelled and
// extended there), and the protocol's decisions — how a log level is set,
// whether the roots' change is announced — taken here, below the UI.
// key names the server for remembered arguments.
func (s *Session) Catalog(key string) backend.Catalog { return &catalog{s: s, key: key} }

// catalog implements backend.Catalog over a Session.
type catalog struct {
	s   *Session
	key string
}

var _ backend.Catalog = (*catalog)(nil)

// client is the current connection's client, for the reads that are not
// the person's requests (lists, completion, subscriptions).
func (c *catalog) client() (*mcp.Client, error) {
	_, cl, err := c.s.current()
	return cl, err
}

// send runs one of the person's calls as a tracked request.
func (c *catalog) send(ctx context.Context, method string, o backend.CatalogCallOptions, fn func(ctx context.Context, cl *mcp.Client, opts []mcp.RequestOption) error) error {
	var extra []mcp.RequestOption
	if o.Progress != nil {
		p := o.Progress
		extra = append(extra, mcp.WithProgress(func(pr conn.Progress) error { p(pr); return nil }))
	}
	return c.s.track(ctx, method, callOptions{timeout: o.Timeout, reset: o.ResetOnProgress}, func(ctx context.Context, cl *mcp.Client, opts []mcp.RequestOption) error {
		return fn(ctx, cl, append(opts, extra...))
	})
}

func (c *catalog) ListTools(ctx context.Context) ([]mcp.Tool, error) {
	cl, err := c.client()
	if err != nil {
		return nil, err
	}
	l, err := cl.ListTools(ctx)
	return l.Items, err
}

func (c *catalog) ListResources(ctx context.Context) ([]mcp.Resource, error) {
	cl, err := c.client()
	if err != nil {
		return nil, err
	}
	l, err := cl.ListResources(ctx)
	return l.Items, err
}

func (c *catalog) ListResourceTemplates(ctx context.Context) ([]mcp.ResourceTemplate, error) {
	cl, err := c.client()
	if err != nil {
		return nil, err
	}
	l, err := cl.ListResourceTemplates(ctx)
	return l.Items, err
}

func (c *catalog) ListPrompts(ctx context.Context) ([]mcp.Prompt, error) {
	cl, err := c.client()
	if err != nil {
		return nil, err
	}
	l, err := cl.ListPrompts(ctx)
	return l.Items, err
}

func (c *catalog) Call(ctx context.Context, method string, params any, o backend.CatalogCallOptions) (json.RawMessage, error) {
	var res json.RawMessage
	err := c.send(ctx, method, o, func(ctx context.Context, cl *mcp.Client, opts []mcp.RequestOption) error {
		var err error
		res, err = cl.Request(ctx, method, params, opts...)
		return err
	})
	return res, err
}

func (c *catalog) ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	var res *mcp.ReadResourceResult
	err := c.send(ctx, mcp.MethodReadResource, backend.CatalogCallOptions{}, func(ctx context.Context, cl *mcp.Client, opts []mcp.RequestOption) error {
		var err error
		res, err = cl.ReadResource(ctx, uri, opts...)
		return err
	})
	return res, err
}

func (c *catalog) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	var res *mcp.GetPromptResult
	err := c.send(ctx, mcp.MethodGetPrompt, backend.CatalogCallOptions{}, func(ctx context.Context, cl *mcp.Client, opts []mcp.RequestOption) error {
		var err error
		res, err = cl.GetPrompt(ctx, name, args, opts...)
		return err
	})
	return res, err
}

func (c *catalog) Complete(ctx context.Context, ref mcp.Ref, arg, value string, context map[string]string) (*mcp.CompleteResult, error) {
	cl, err := c.client()
	if err != nil {
		return nil, err
	}
	return cl.Complete(ctx, ref, arg, value, context)
}

// SetLogLevel is the session's: the model hears of the level.
func (c *catalog) SetLogLevel(ctx context.Context, level string) error {
	return c.s.SetLogLevel(ctx, level)
}

func (c *catalog) Listen(ctx context.Context, f mcp.Filter) (backend.Subscription, error) {
	cl, err := c.client()
	if err != nil {
		return nil, err
	}
	sub, err := cl.Listen(ctx, f)
	if err != nil {
		return nil, err
	}
	return sub, nil
}

func (c *catalog) RootsChanged(ctx context.Context) (string, error) { return c.s.RootsChanged(ctx) }

func (c *catalog) Info() backend.CatalogInfo {
	cl, err := c.client()
	if err != nil {
		return backend.CatalogInfo{Key: c.key}
	}
	sess := cl.Session()
	return backend.CatalogInfo{Version: cl.Version(), Offered: sess.Offered, Capabilities: sess.Capabilities, Name: sess.Server.Name,
		ServerVersion: sess.Server.Version, Key: c.key}
}

// RootsChanged tells the server that the client's roots changed, as its
// era allows: notifications/roots/list_changed (declared by the session,
// see options) before 2026-07-28; nothing on 2026-07-28, which has no such
// notification (the next roots/list gets them). It says what it did.
func (s *Session) RootsChanged(ctx context.Context) (string, error) {
	_, cl, err := s.current()
	if err != nil {
		return "", err
	}
	if mcp.Stateless(cl.Version()) {
		return "2026-07-28 has no list_changed: the server sees them on its next request", nil
	}
	if err := cl.Notify(ctx, mcp.NotificationRootsListChanged, nil); err != nil {
		return "", err
	}
	return "sent notifications/roots/list_changed", nil
}
