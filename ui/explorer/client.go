package explorer

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/mcp"
)

// Hub buffers server notifications for the explorer: plug Push into
// mcp.Options.OnNotification (it never blocks; when the explorer falls
// behind, the oldest are dropped).
type Hub struct {
	ch chan mcp.Notification
	mu sync.Mutex
}

// NewHub makes a hub that keeps up to n notifications (0: 1024).
func NewHub(n int) *Hub {
	if n <= 0 {
		n = 1024
	}
	return &Hub{ch: make(chan mcp.Notification, n)}
}

// Push queues a notification, dropping the oldest when full.
func (h *Hub) Push(n mcp.Notification) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for {
		select {
		case h.ch <- n:
			return
		default:
			select {
			case <-h.ch:
			default:
			}
		}
	}
}

// C is the channel the explorer reads.
func (h *Hub) C() <-chan mcp.Notification { return h.ch }

// clientServer is Server over *mcp.Client.
type clientServer struct {
	c   func() (*mcp.Client, error)
	hub *Hub
	key string
}

// OverClient implements Server over the client that current returns (a
// function, so a host can swap clients across restarts); hub may be nil.
// key names the server for remembered arguments.
func OverClient(current func() (*mcp.Client, error), hub *Hub, key string) Server {
	return &clientServer{c: current, hub: hub, key: key}
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

func (s *clientServer) Call(ctx context.Context, method string, params any, o CallOptions) (json.RawMessage, error) {
	c, err := s.c()
	if err != nil {
		return nil, err
	}
	var opts []mcp.RequestOption
	if o.Timeout != 0 {
		opts = append(opts, mcp.WithTimeout(o.Timeout))
	}
	if o.ResetOnProgress {
		opts = append(opts, mcp.WithResetTimeoutOnProgress())
	}
	if o.Progress != nil {
		fn := o.Progress
		opts = append(opts, mcp.WithProgress(func(p conn.Progress) error { fn(p); return nil }))
	}
	return c.Request(ctx, method, params, opts...)
}

func (s *clientServer) ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	c, err := s.c()
	if err != nil {
		return nil, err
	}
	return c.ReadResource(ctx, uri)
}

func (s *clientServer) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	c, err := s.c()
	if err != nil {
		return nil, err
	}
	return c.GetPrompt(ctx, name, args)
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

func (s *clientServer) Listen(ctx context.Context, f mcp.Filter) (Subscription, error) {
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

func (s *clientServer) Notify(ctx context.Context, method string, params any) error {
	c, err := s.c()
	if err != nil {
		return err
	}
	return c.Notify(ctx, method, params)
}

func (s *clientServer) Info() Info {
	c, err := s.c()
	if err != nil {
		return Info{Key: s.key}
	}
	sess := c.Session()
	key := s.key
	if key == "" {
		cmd, args := c.Command()
		key = strings.Join(append([]string{cmd}, args...), " ")
	}
	return Info{Version: c.Version(), Capabilities: sess.Capabilities, Name: sess.Server.Name,
		ServerVersion: sess.Server.Version, Key: key}
}

func (s *clientServer) Notifications() <-chan mcp.Notification {
	if s.hub == nil {
		return nil
	}
	return s.hub.C()
}
