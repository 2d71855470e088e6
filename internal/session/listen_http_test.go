package session

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// On a 2026-07-28 HTTP server (go-sdk's stateless handler) the person's
// subscription is a subscriptions/listen stream: the model shows it open
// with what the server accepted, its listen exchange open while the stream
// is, the server's list change as its event, and both closed once the
// person closes it.
func TestListenOverHTTP(t *testing.T) {
	srv := sdk.NewServer(&sdk.Implementation{Name: "gosdk-http", Version: "1"},
		&sdk.ServerOptions{Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}}})
	schema := json.RawMessage(`{"type":"object"}`)
	noop := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{}, nil
	}
	srv.AddTool(&sdk.Tool{Name: "first", InputSchema: schema}, noop)
	front := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, &sdk.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(front.Close)
	h := startHTTP(t, front.URL+"/mcp", mcp.Options{})
	h.until("ready", func(s *model.Session) bool { return s.Conn().Phase == model.PhaseReady })
	id, err := h.s.Listen(context.Background(), backend.ListenRequest{ToolsListChanged: true})
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	sub := func(s *model.Session) *model.Subscription {
		for _, x := range s.Subscriptions() {
			if string(x.ID) == string(id) {
				return x
			}
		}
		return nil
	}
	listen := func(s *model.Session) *model.NetExchange {
		return find(s, func(x *model.NetExchange) bool { return sentMethod(x, "subscriptions/listen") })
	}
	h.until("the subscription, acknowledged", func(s *model.Session) bool {
		x := sub(s)
		return x != nil && x.Open && x.Accepted != nil
	})
	srv.AddTool(&sdk.Tool{Name: "second", InputSchema: schema}, noop)
	h.until("the list change on the subscription", func(s *model.Session) bool {
		x := sub(s)
		return x != nil && x.Events == 1 && x.LastMethod == "notifications/tools/list_changed"
	})
	// httpconn counts a message on its exchange after dispatching it (so
	// the exchange can point at the traffic entry), so the count may
	// trail the subscription's event by an update.
	h.until("the list change counted on the open listen exchange", func(s *model.Session) bool {
		x := listen(s)
		return x != nil && x.Messages >= 2
	})
	if x := listen(h.state); x == nil || !x.Open || x.Status != http.StatusOK || x.Messages != 2 {
		t.Fatalf("the listen exchange while subscribed: %+v", x)
	}
	if err := h.s.CloseSubscription(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	h.until("the subscription and its stream closed", func(s *model.Session) bool {
		x, ex := sub(s), listen(s)
		return x != nil && !x.Open && ex != nil && !ex.Open
	})
	t.Logf("subscription %s accepted %s; listen exchange %+v", id, sub(h.state).Accepted, *listen(h.state))
}
