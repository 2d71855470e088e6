package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcptui/mcptui/conn"
)

// Filter is what a subscription asks for (subscriptions/listen's
// params.notifications).
type Filter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitzero"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitzero"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitzero"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitzero"`
	// Extra is a JSON object whose members (extension filters such as the
	// tasks extension's "taskIds") are added to the filter; 2026-07-28 only.
	Extra json.RawMessage `json:"-"`
}

func (f Filter) raw() (json.RawMessage, error) {
	extra := f.Extra
	f.Extra = nil
	base := mustMarshal(f)
	if len(extra) == 0 {
		return base, nil
	}
	if !isObject(extra) {
		return nil, errorf(CodeInvalidParams, "Filter.Extra must be a JSON object")
	}
	return mergeDeep(base, extra)
}

// Subscription is a stream of change notifications: on 2026-07-28 a
// subscriptions/listen stream; on the initialize era one built from
// resources/subscribe and the server's list-changed and updated
// notifications.
type Subscription struct {
	requested json.RawMessage
	cs        *conn.Subscription // 2026-07-28
	ls        *legacyStream      // initialize era
	closed    atomic.Bool
}

// ID is the subscription id (the listen request's id); nil on the
// initialize era.
func (s *Subscription) ID() json.RawMessage {
	if s.cs != nil {
		return s.cs.ID()
	}
	return nil
}

// Requested is the filter asked for.
func (s *Subscription) Requested() json.RawMessage { return s.requested }

// Accepted is the filter the server honours (a subset of Requested): the
// acknowledgement's notifications on 2026-07-28; on the initialize era what
// the server's capabilities allow.
func (s *Subscription) Accepted() json.RawMessage {
	if s.cs != nil {
		return s.cs.Accepted()
	}
	return s.ls.accepted
}

// Dropped is how many events were dropped because the queue was full.
func (s *Subscription) Dropped() int {
	if s.cs != nil {
		return s.cs.Dropped()
	}
	return s.ls.droppedCount()
}

// Next returns the next event. It returns io.EOF once the subscription
// ended normally (the server ended it, or Close was called), the error it
// ended with otherwise (the connection's once it stopped), or ctx's error.
func (s *Subscription) Next(ctx context.Context) (Notification, error) {
	if s.closed.Load() {
		return Notification{}, io.EOF
	}
	if s.cs != nil {
		n, err := s.cs.Next(ctx)
		if err != nil && !errors.Is(err, io.EOF) {
			err = wrap(MethodListen, err)
		}
		return n, err
	}
	return s.ls.next(ctx)
}

// Close ends the subscription: on 2026-07-28 a cancellation is sent; on
// the initialize era resources/unsubscribe is sent for each URI no other
// subscription still needs.
func (s *Subscription) Close() error {
	s.closed.Store(true)
	if s.cs != nil {
		return s.cs.Close()
	}
	return s.ls.close()
}

// Listen opens a subscription. ctx owns it: when ctx is done it closes.
// On 2026-07-28 it sends subscriptions/listen and waits for the
// acknowledgement. On the initialize era it keeps the parts of the filter
// the server's capabilities allow, sends resources/subscribe for each URI,
// and delivers the matching notifications the server sends.
func (c *Client) Listen(ctx context.Context, f Filter, opts ...RequestOption) (*Subscription, error) {
	raw, err := f.raw()
	if err != nil {
		return nil, wrap(MethodListen, err)
	}
	ro := c.requestOptions(opts)
	st := c.snapshot()
	if !Stateless(st.version) {
		if len(f.Extra) > 0 {
			return nil, wrap(MethodListen, errorf(CodeInvalidParams, "Filter.Extra needs 2026-07-28"))
		}
		s, err := c.listenLegacy(ctx, f, raw, ro)
		return s, wrap(MethodListen, err)
	}
	for attempt := 0; ; attempt++ {
		meta, err := mergeMeta(c.dialectMeta(st.version, st.logLevel).encode(), ro.meta)
		if err != nil {
			return nil, wrap(MethodListen, err)
		}
		cs, err := c.w.Listen(ctx, raw, append(slices.Clone(ro.callOptions(nil)), conn.WithMeta(meta))...)
		if err == nil {
			return &Subscription{requested: raw, cs: cs}, nil
		}
		e := asError(err)
		if attempt > 0 || e == nil || e.Code != CodeUnsupportedVersion || c.connStopped(err) {
			return nil, wrap(MethodListen, err)
		}
		if rerr := c.renegotiate(ctx, st.gen, MethodListen, e); rerr != nil {
			return nil, wrap(MethodListen, rerr)
		}
		st = c.snapshot()
		if !Stateless(st.version) {
			s, err := c.listenLegacy(ctx, f, raw, ro)
			return s, wrap(MethodListen, err)
		}
	}
}

// legacyStream is an initialize-era subscription.
type legacyStream struct {
	c        *Client
	filter   Filter // accepted
	accepted json.RawMessage
	max      int

	mu      sync.Mutex
	queue   []Notification
	dropped int
	end     error // io.EOF after close, the connection's error after it stopped
	wake    chan struct{}
	stop    chan struct{}
	once    sync.Once
}

func (c *Client) listenLegacy(ctx context.Context, f Filter, requested json.RawMessage, ro requestOptions) (*Subscription, error) {
	caps := c.Session().Capabilities
	var acc Filter
	acc.ToolsListChanged = f.ToolsListChanged && caps.Tools != nil && caps.Tools.ListChanged
	acc.PromptsListChanged = f.PromptsListChanged && caps.Prompts != nil && caps.Prompts.ListChanged
	acc.ResourcesListChanged = f.ResourcesListChanged && caps.Resources != nil && caps.Resources.ListChanged
	if caps.Resources != nil && caps.Resources.Subscribe {
		acc.ResourceSubscriptions = slices.Clone(f.ResourceSubscriptions)
	}
	accRaw, _ := acc.raw()
	ls := &legacyStream{c: c, filter: acc, accepted: accRaw, max: ro.maxBuffer,
		wake: make(chan struct{}, 1), stop: make(chan struct{})}
	if ls.max <= 0 {
		ls.max = conn.DefaultMaxBuffer
	}
	// Register first so no update sent in answer to the subscribe is lost.
	c.mu.Lock()
	c.legacySubs[ls] = struct{}{}
	c.mu.Unlock()
	var done []string
	for _, uri := range acc.ResourceSubscriptions {
		if err := c.subscribeURI(ctx, uri, ro); err != nil {
			for _, u := range done {
				_ = c.unsubscribeURI(u)
			}
			c.mu.Lock()
			delete(c.legacySubs, ls)
			c.mu.Unlock()
			return nil, err
		}
		done = append(done, uri)
	}
	go func() {
		select {
		case <-ctx.Done():
			_ = ls.close()
		case <-c.w.Done():
			ls.finish(c.w.Err())
		case <-ls.stop:
		}
	}()
	return &Subscription{requested: requested, ls: ls}, nil
}

// subscribeURI sends resources/subscribe unless another subscription has.
func (c *Client) subscribeURI(ctx context.Context, uri string, ro requestOptions) error {
	c.mu.Lock()
	n := c.uriRefs[uri]
	c.uriRefs[uri] = n + 1
	c.mu.Unlock()
	if n > 0 {
		return nil
	}
	_, err := c.sendLegacy(ctx, MethodSubscribe, object{}.set("uri", quote(uri)).encode(), ro)
	if err != nil {
		c.mu.Lock()
		c.uriRefs[uri]--
		if c.uriRefs[uri] <= 0 {
			delete(c.uriRefs, uri)
		}
		c.mu.Unlock()
		return fmt.Errorf("subscribing to %s: %w", uri, err)
	}
	return nil
}

// unsubscribeURI sends resources/unsubscribe when no subscription needs uri.
func (c *Client) unsubscribeURI(uri string) error {
	c.mu.Lock()
	c.uriRefs[uri]--
	last := c.uriRefs[uri] <= 0
	if last {
		delete(c.uriRefs, uri)
	}
	c.mu.Unlock()
	if !last {
		return nil
	}
	select {
	case <-c.w.Done():
		return nil // nobody to tell
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), conn.DefaultTimeout)
	defer cancel()
	_, err := c.w.Call(ctx, MethodUnsubscribe, object{}.set("uri", quote(uri)).encode(), c.timeoutOptions()...)
	if err != nil {
		return fmt.Errorf("unsubscribing from %s: %w", uri, err)
	}
	return nil
}

// matches reports whether the stream wants a notification.
func (ls *legacyStream) matches(n Notification) bool {
	switch n.Method {
	case NotificationToolsChanged:
		return ls.filter.ToolsListChanged
	case NotificationPromptsChanged:
		return ls.filter.PromptsListChanged
	case NotificationResourcesChanged:
		return ls.filter.ResourcesListChanged
	case NotificationResourceUpdated:
		var p struct {
			URI string `json:"uri"`
		}
		if unmarshal(n.Params, &p) != nil {
			return false
		}
		for _, s := range ls.filter.ResourceSubscriptions {
			if p.URI == s || strings.HasPrefix(p.URI, strings.TrimSuffix(s, "/")+"/") {
				return true
			}
		}
	}
	return false
}

// deliver queues an event (never blocks; the oldest is dropped when full).
func (ls *legacyStream) deliver(n Notification) {
	ls.mu.Lock()
	if ls.end != nil {
		ls.mu.Unlock()
		return
	}
	if len(ls.queue) >= ls.max {
		ls.queue = ls.queue[1:]
		ls.dropped++
	}
	ls.queue = append(ls.queue, Notification{Method: n.Method, Params: slices.Clone(n.Params)})
	ls.mu.Unlock()
	select {
	case ls.wake <- struct{}{}:
	default:
	}
}

func (ls *legacyStream) droppedCount() int {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.dropped
}

// finish ends the stream with err after the queued events.
func (ls *legacyStream) finish(err error) {
	ls.mu.Lock()
	if ls.end == nil {
		ls.end = err
		if err == nil {
			ls.end = io.EOF
		}
	}
	ls.mu.Unlock()
	select {
	case ls.wake <- struct{}{}:
	default:
	}
}

func (ls *legacyStream) next(ctx context.Context) (Notification, error) {
	for {
		ls.mu.Lock()
		if len(ls.queue) > 0 {
			n := ls.queue[0]
			ls.queue = ls.queue[1:]
			more := len(ls.queue) > 0 || ls.end != nil
			ls.mu.Unlock()
			if more { // let another waiter (or the next call) see the rest
				select {
				case ls.wake <- struct{}{}:
				default:
				}
			}
			return n, nil
		}
		if ls.end != nil {
			end := ls.end
			ls.mu.Unlock()
			if end == io.EOF {
				return Notification{}, io.EOF
			}
			return Notification{}, wrap(MethodListen, end)
		}
		ls.mu.Unlock()
		select {
		case <-ls.wake:
		case <-ctx.Done():
			return Notification{}, ctx.Err()
		}
	}
}

// close unregisters the stream, drops its queue and unsubscribes.
func (ls *legacyStream) close() error {
	var errs []error
	ls.once.Do(func() {
		close(ls.stop)
		c := ls.c
		c.mu.Lock()
		delete(c.legacySubs, ls)
		c.mu.Unlock()
		ls.mu.Lock()
		ls.queue = nil
		ls.mu.Unlock()
		ls.finish(nil)
		for _, uri := range ls.filter.ResourceSubscriptions {
			if err := c.unsubscribeURI(uri); err != nil {
				errs = append(errs, err)
			}
		}
	})
	return wrap(MethodUnsubscribe, errors.Join(errs...))
}

// onNotification receives every notification nothing in conn claimed, on
// conn's reading goroutine: initialize-era subscriptions get theirs, then
// the callbacks run, in arrival order.
func (c *Client) onNotification(n Notification) {
	switch n.Method {
	case NotificationToolsChanged, NotificationPromptsChanged, NotificationResourcesChanged, NotificationResourceUpdated:
		c.mu.Lock()
		var streams []*legacyStream
		for ls := range c.legacySubs {
			if ls.matches(n) {
				streams = append(streams, ls)
			}
		}
		c.mu.Unlock()
		for _, ls := range streams {
			ls.deliver(n)
		}
	}
	if f := c.opts.OnNotification; f != nil {
		f(n)
	}
	if f := c.opts.Conn.OnNotification; f != nil {
		f(n)
	}
}
