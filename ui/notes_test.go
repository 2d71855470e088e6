package ui

import (
	"context"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// countingServer counts the catalog's tools/list.
type countingServer struct {
	richServer
	lists *atomic.Int32
}

func (c countingServer) ListTools(ctx context.Context) ([]mcp.Tool, error) {
	c.lists.Add(1)
	return c.richServer.ListTools(ctx)
}

// The catalog hears of the server's notifications through the model, as
// every other view does (there is no second feed): a tools list_changed on
// the wire makes it list the tools again; one that a subscription claimed
// (tagged with its id) is left to the subscriber.
func TestCatalogHearsNotificationsThroughTheModel(t *testing.T) {
	var lists atomic.Int32
	m := New(Options{Backend: uitest.New(), Now: now, Tick: -1, Theme: "dark", NoBell: true, Catalog: countingServer{lists: &lists}})
	m.Update(EventsMsg{Events: uitest.Session()})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	run(t, m, press(m, "E"))
	if n := lists.Load(); n != 1 {
		t.Fatalf("listed %d times on opening", n)
	}
	note := func(line string) {
		_, cmd := m.Update(EventsMsg{Events: []model.Event{model.Wire{Stamp: model.Stamp{Time: uitest.At(40)}, Dir: model.In, Line: []byte(line), Size: len(line)}}})
		run(t, m, cmd)
	}
	note(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
	if n := lists.Load(); n != 2 {
		t.Fatalf("listed %d times after list_changed, want 2", n)
	}
	note(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7}}}`)
	if n := lists.Load(); n != 2 {
		t.Errorf("a subscription's notification reached the catalog through the model too (%d lists)", n)
	}
}
