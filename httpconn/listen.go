package httpconn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/jsonscan"
	"github.com/mcptui/mcptui/internal/rpccall"

	"github.com/mcptui/mcptui/internal/protocol"
)

// subscriptionIDKey is the _meta member that tags a subscription's messages.
const subscriptionIDKey = "io.modelcontextprotocol/subscriptionId"

// listenSub is an open 2026-07-28 subscription: the Subscription's feed
// and what ends its POST's stream.
type listenSub struct {
	feed  *conn.SubscriptionFeed
	abort context.CancelFunc
}

// Listen opens a 2026-07-28 subscription: it POSTs subscriptions/listen
// with params {"notifications": filter}; the server answers with an SSE
// stream that carries the acknowledgement, then the events, and ends with
// the terminal response. Listen waits (for the call timeout) for the
// acknowledgement; ctx owns the subscription. Closing it sends
// notifications/cancelled and then closes the stream.
func (c *Conn) Listen(ctx context.Context, filter any, opts ...conn.CallOption) (*conn.Subscription, error) {
	s := conn.ResolveCallOptions(opts...)
	if s.Progress != nil || s.ResetOnProgress {
		return nil, errors.New("httpconn: Listen takes no progress options")
	}
	if e := c.stopped(); e != nil {
		return nil, e
	}
	if c.Mode() == SSE {
		return nil, connError("subscriptions/listen needs Streamable HTTP (this server speaks 2024-11-05 HTTP+SSE)", errors.ErrUnsupported)
	}
	filterRaw, err := rpccall.EncodeParams(filter)
	if err != nil {
		return nil, fmt.Errorf("httpconn: listen filter: %w", err)
	}
	if filterRaw == nil {
		filterRaw = []byte("{}")
	}
	params := append(append([]byte(`{"notifications":`), filterRaw...), '}')
	id := c.nextID.Add(1)
	raw, err := rpccall.RequestParams(json.RawMessage(params), s.Meta, 0)
	if err != nil {
		return nil, fmt.Errorf("httpconn: listen params: %w", err)
	}
	body := rpccall.AppendRequest(nil, id, protocol.MethodListen, raw)
	streamCtx, abort := context.WithCancel(c.ctx)
	sub := &listenSub{abort: abort}
	sub.feed = conn.NewSubscriptionFeed(id, s.MaxBuffer, func(reason string) bool { return c.forgetSub(id, sub, reason) })
	c.mu.Lock()
	if c.stopErr != nil {
		e := c.stopErr
		c.mu.Unlock()
		abort()
		return nil, e
	}
	c.subs[id] = sub
	c.wg.Add(1) // under the lock: Close waits only once stopErr is set
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		defer abort()
		c.listenStream(streamCtx, id, body)
	}()
	return sub.feed.Open(ctx, s.Timeout)
}

// listenStream POSTs the listen request and reads its stream until the
// subscription ends; a stream that ends with no terminal response ends the
// subscription with a -32000.
func (c *Conn) listenStream(ctx context.Context, id int64, body []byte) {
	c.observe(conn.Sent, body, len(body), nil)
	resp, err := c.do(ctx, http.MethodPost, c.url, body, c.standardHeaders(protocol.MethodListen, body))
	if err != nil {
		c.endSub(id, connError("The HTTP request failed", err))
		return
	}
	if resp.StatusCode/100 != 2 {
		if e, final := c.refused(resp); final {
			c.endSub(id, e) // a no-op after a JSON-RPC error: that was its terminal response
			return
		}
		c.endSub(id, connError("The HTTP request failed", c.statusError(http.MethodPost, resp)))
		return
	}
	c.settle()
	switch {
	case isSSE(resp):
		_ = c.readStream(ctx, resp, func() bool { return c.subOpen(id) })
	case isJSON(resp):
		_ = c.readJSON(resp)
	default:
		drain(resp)
	}
	c.endSub(id, connError("The subscription's stream ended without a terminal response", errNoTerminal))
}

// claimSub removes subscription id from the open ones; only the one who
// claims it ends it.
func (c *Conn) claimSub(id int64) *listenSub {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.subs[id]
	delete(c.subs, id)
	return s
}

func (c *Conn) subOpen(id int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.subs[id] != nil
}

// endSub ends subscription id with err unless it ended already.
func (c *Conn) endSub(id int64, err *conn.Error) {
	if s := c.claimSub(id); s != nil {
		s.feed.End(err)
	}
}

// forgetSub is the client's end of a subscription (closed, timed out, its
// context done): the server is sent notifications/cancelled, then the
// stream is closed. It reports false when the subscription had ended.
func (c *Conn) forgetSub(id int64, s *listenSub, reason string) bool {
	c.mu.Lock()
	if c.subs[id] != s {
		c.mu.Unlock()
		return false
	}
	delete(c.subs, id)
	c.mu.Unlock()
	started := c.goTracked(func() {
		params := fmt.Appendf(nil, `{"requestId":%d,"reason":`, id)
		params, _ = jsontext.AppendQuote(params, reason)
		params = append(params, '}')
		ctx, cancel := context.WithTimeout(c.ctx, 10*time.Second)
		_ = c.notify(ctx, protocol.NotificationCancelled, params)
		cancel()
		s.abort() // after the cancellation: closing the stream alone is not one
	})
	if !started {
		s.abort()
	}
	return true
}

// subscriptionEvent hands a notification tagged with an open
// subscription's id to that subscription.
func (c *Conn) subscriptionEvent(method string, params []byte) bool {
	id, ok := rpccall.OurID(jsonscan.Member(jsonscan.Member(params, "_meta"), subscriptionIDKey))
	if !ok {
		return false
	}
	c.mu.Lock()
	s := c.subs[id]
	c.mu.Unlock()
	if s == nil {
		return false
	}
	s.feed.Event(conn.Notification{Method: method, Params: params})
	return true
}

// subscriptionEnd hands a response to the subscription it ends, if any.
func (c *Conn) subscriptionEnd(b []byte, id int64) bool {
	s := c.claimSub(id)
	if s == nil {
		return false
	}
	c.observe(conn.Received, b, len(b), nil)
	s.feed.Terminal(outcome(b))
	return true
}

// endSubs ends every open subscription when the connection stops.
func (c *Conn) endSubs(err *conn.Error) {
	c.mu.Lock()
	subs := c.subs
	c.subs = map[int64]*listenSub{}
	c.mu.Unlock()
	for _, s := range subs {
		s.feed.End(err)
	}
}

// errNoTerminal is the cause of a subscription whose POST's stream ended
// without its terminal response (a transport's failure, having a cause).
var errNoTerminal = errors.New("the HTTP answer to the POST ended before the subscription's terminal response")
