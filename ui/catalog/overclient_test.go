package catalog

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/mcp"
)

// clientServer is a Server over a bare *mcp.Client, for the live tests
// that run the catalog alone on a real server (the inspector's is
// internal/session's).
type clientServer struct {
	c   func() (*mcp.Client, error)
	key string
}

// send runs one call on the client with its options.
func (s *clientServer) send(ctx context.Context, _ string, o backend.CatalogCallOptions, fn func(ctx context.Context, c *mcp.Client, opts []mcp.RequestOption) error) error {
	var extra []mcp.RequestOption
	if o.Progress != nil {
		p := o.Progress
		extra = append(extra, mcp.WithProgress(func(pr conn.Progress) error { p(pr); return nil }))
	}
	c, err := s.c()
	if err != nil {
		return err
	}
	if o.Timeout != 0 {
		extra = append(extra, mcp.WithTimeout(o.Timeout))
	}
	if o.ResetOnProgress {
		extra = append(extra, mcp.WithResetTimeoutOnProgress())
	}
	return fn(ctx, c, extra)
}

func (s *clientServer) ListTools(ctx context.Context) ([]mcp.Tool, error) {
	c, err := s.c()
	if err != nil {
		return nil, err
	}
	l, err := c.ListTools(ctx)
	return l.Items, err
}

func (s *clientServer) ListResources(ctx context.Context) ([]mcp.Resource, error) {
	c, err := s.c()
	if err != nil {
		return nil, err
	}
	l, err := c.ListResources(ctx)
	return l.Items, err
}

func (s *clientServer) ListResourceTemplates(ctx context.Context) ([]mcp.ResourceTemplate, error) {
	c, err := s.c()
	if err != nil {
		return nil, err
	}
	l, err := c.ListResourceTemplates(ctx)
	return l.Items, err
}

func (s *clientServer) ListPrompts(ctx context.Context) ([]mcp.Prompt, error) {
	c, err := s.c()
	if err != nil {
		return nil, err
	}
	l, err := c.ListPrompts(ctx)
	return l.Items, err
}

func (s *clientServer) Call(ctx context.Context, method string, params any, o backend.CatalogCallOptions) (json.RawMessage, error) {
	var res json.RawMessage
	err := s.send(ctx, method, o, func(ctx context.Context, c *mcp.Client, opts []mcp.RequestOption) error {
		var err error
		res, err = c.Request(ctx, method, params, opts...)
		return err
	})
	return res, err
}

func (s *clientServer) ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	var res *mcp.ReadResourceResult
	err := s.send(ctx, mcp.MethodReadResource, backend.CatalogCallOptions{}, func(ctx context.Context, c *mcp.Client, opts []mcp.RequestOption) error {
		var err error
		res, err = c.ReadResource(ctx, uri, opts...)
		return err
	})
	return res, err
}

func (s *clientServer) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	var res *mcp.GetPromptResult
	err := s.send(ctx, mcp.MethodGetPrompt, backend.CatalogCallOptions{}, func(ctx context.Context, c *mcp.Client, opts []mcp.RequestOption) error {
		var err error
		res, err = c.GetPrompt(ctx, name, args, opts...)
		return err
	})
	return res, err
}

func (s *clientServer) Complete(ctx context.Context, ref mcp.Ref, arg, value string, context map[string]string) (*mcp.CompleteResult, error) {
	c, err := s.c()
	if err != nil {
		return nil, err
	}
	return c.Complete(ctx, ref, arg, value, context)
}

func (s *clientServer) SetLogLevel(ctx context.Context, level string) error {
	c, err := s.c()
	if err != nil {
		return err
	}
	return c.SetLogLevel(ctx, level)
}

func (s *clientServer) Listen(ctx context.Context, f mcp.Filter) (backend.Subscription, error) {
	c, err := s.c()
	if err != nil {
		return nil, err
	}
	sub, err := c.Listen(ctx, f)
	if err != nil {
		return nil, err
	}
	return sub, nil
}

func (s *clientServer) RootsChanged(ctx context.Context) (string, error) {
	c, err := s.c()
	if err != nil {
		return "", err
	}
	if mcp.Stateless(c.Version()) {
		return "2026-07-28 has no list_changed: the server sees them on its next request", nil
	}
	return "sent notifications/roots/list_changed", c.Notify(ctx, mcp.NotificationRootsListChanged, nil)
}

func (s *clientServer) Info() backend.CatalogInfo {
	c, err := s.c()
	if err != nil {
		return backend.CatalogInfo{Key: s.key}
	}
	sess := c.Session()
	key := s.key
	if key == "" {
		cmd, args := c.Command()
		key = strings.Join(append([]string{cmd}, args...), " ")
	}
	return backend.CatalogInfo{Version: c.Version(), Offered: sess.Offered, Capabilities: sess.Capabilities, Name: sess.Server.Name,
		ServerVersion: sess.Server.Version, Key: key}
}
