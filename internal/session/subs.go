package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/rpccall"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// Listen opens a subscription the person asked for and keeps it until
// CloseSubscription, a restart or the end of the connection. On 2026-07-28
// it is a subscriptions/listen stream, which the model follows on the wire;
// on the initialize era it is made of resources/subscribe and list-changed
// notifications, which the session reports as model.Subscription* events
// under an id of its own ("sub-1", ...).
func (s *Session) Listen(_ context.Context, req backend.ListenRequest) (json.RawMessage, error) {
	g, client, err := s.current()
	if err != nil {
		return nil, err
	}
	f := mcp.Filter{
		ToolsListChanged:      req.ToolsListChanged,
		PromptsListChanged:    req.PromptsListChanged,
		ResourcesListChanged:  req.ResourcesListChanged,
		ResourceSubscriptions: req.Resources,
	}
	// The subscription lives as long as the connection, not as the
	// person's request that opened it.
	sub, err := client.Listen(g.ctx, f)
	if err != nil {
		return nil, err
	}
	id, local := sub.ID(), false
	if id == nil {
		s.mu.Lock()
		s.nextSubKey++
		id = json.RawMessage(fmt.Sprintf(`"sub-%d"`, s.nextSubKey))
		s.mu.Unlock()
		local = true
	}
	s.mu.Lock()
	if g.isStopped() || g.ctx.Err() != nil {
		s.mu.Unlock()
		_ = sub.Close()
		return nil, errors.New("the connection stopped")
	}
	g.subs[rpccall.MatchKey(id)] = sub
	s.mu.Unlock()
	if local {
		s.push(model.SubscriptionOpened{Stamp: model.Stamp{Time: s.now(), Gen: g.n}, ID: id, Asked: sub.Requested(), Accepted: sub.Accepted()})
	}
	go s.pump(g, id, sub, local)
	return id, nil
}

// pump reads a subscription's events until it ends; for an initialize-era
// one it reports them, since nothing on the wire names the subscription.
func (s *Session) pump(g *generation, id json.RawMessage, sub *mcp.Subscription, local bool) {
	for {
		n, err := sub.Next(g.ctx)
		if err == nil {
			if local {
				s.push(model.SubscriptionEvent{Stamp: model.Stamp{Time: s.now(), Gen: g.n}, ID: id, Method: n.Method, Params: n.Params})
			}
			continue
		}
		s.mu.Lock()
		if g.subs[rpccall.MatchKey(id)] == sub {
			delete(g.subs, rpccall.MatchKey(id))
		}
		s.mu.Unlock()
		if local {
			reason := "closed by client"
			if !errors.Is(err, io.EOF) {
				reason = err.Error()
				if g.ctx.Err() != nil || g.isStopped() {
					reason = "connection died"
				}
			}
			s.push(model.SubscriptionEnded{Stamp: model.Stamp{Time: s.now(), Gen: g.n}, ID: id, Reason: reason})
		}
		return
	}
}

// Resources lists the server's resources, for the person to pick the ones
// a subscription watches.
func (s *Session) Resources(ctx context.Context) ([]backend.Resource, error) {
	_, client, err := s.current()
	if err != nil {
		return nil, err
	}
	list, err := client.ListResources(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]backend.Resource, len(list.Items))
	for i, r := range list.Items {
		out[i] = backend.Resource{URI: r.URI, Name: r.Name}
	}
	return out, nil
}

// CloseSubscription closes one of the person's subscriptions.
func (s *Session) CloseSubscription(_ context.Context, id json.RawMessage) error {
	key := rpccall.MatchKey(id)
	s.mu.Lock()
	var sub *mcp.Subscription
	if s.gen != nil {
		sub = s.gen.subs[key]
		delete(s.gen.subs, key)
	}
	s.mu.Unlock()
	if sub == nil {
		return fmt.Errorf("subscription %s is not open", id)
	}
	return sub.Close()
}
