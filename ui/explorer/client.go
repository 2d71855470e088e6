package explorer

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"time"

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
	// track, when set, sends the person's calls (tools/call, reads,
	// prompts) as tracked requests; nil sends them on c directly.
	track TrackFunc
}

// TrackFunc sends one request of the person's through fn with the options
// it is given (the session's timer and the control that lets the requests
// pane cancel and extend it); internal/session's Session.Track is one.
type TrackFunc func(ctx context.Context, method string, timeout time.Duration, resetOnProgress bool,
	fn func(ctx context.Context, c *mcp.Client, opts []mcp.RequestOption) error) error

// Tracker is a session whose requests the requests pane follows: the
// catalog's calls go through Track and are ordinary requests there.
type Tracker interface {
	Client() (*mcp.Client, error)
	Track(ctx context.Context, method string, timeout time.Duration, resetOnProgress bool,
		fn func(ctx context.Context, c *mcp.Client, opts []mcp.RequestOption) error) error
}

// OverSession implements Server over a session: the person's calls are
// tracked requests (cancel and extend work on them in the requests pane),
// everything else goes on the session's current client. hub may be nil;
// key names the server for remembered arguments.
func OverSession(s Tracker, hub *Hub, key string) Server {
	return &clientServer{c: s.Client, hub: hub, key: key, track: s.Track}
}

// send runs one of the person's calls: tracked when the server has a
// tracker, directly on the client otherwise.
func (s *clientServer) send(ctx context.Context, method string, o CallOptions, fn func(ctx context.Context, c *mcp.Client, opts []mcp.RequestOption) error) error {
	var extra []mcp.RequestOption
	if o.Progress != nil {
		p := o.Progress
		extra = append(extra, mcp.WithProgress(func(pr conn.Progress) error { p(pr); return nil }))
	}
	if s.track != nil {
		return s.track(ctx, method, o.Timeout, o.ResetOnProgress, func(ctx context.Context, c *mcp.Client, opts []mcp.RequestOption) error {
			return fn(ctx, c, append(opts, extra...))
		})
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
	err := s.send(ctx, mcp.MethodReadResource, CallOptions{}, func(ctx context.Context, c *mcp.Client, opts []mcp.RequestOption) error {
		var err error
		res, err = c.ReadResource(ctx, uri, opts...)
		return err
	})
	return res, err
}

func (s *clientServer) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	var res *mcp.GetPromptResult
	err := s.send(ctx, mcp.MethodGetPrompt, CallOptions{}, func(ctx context.Context, c *mcp.Client, opts []mcp.RequestOption) error {
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
	return Info{Version: c.Version(), Offered: sess.Offered, Capabilities: sess.Capabilities, Name: sess.Server.Name,
		ServerVersion: sess.Server.Version, Key: key}
}

func (s *clientServer) Notifications() <-chan mcp.Notification {
	if s.hub == nil {
		return nil
	}
	return s.hub.C()
}
