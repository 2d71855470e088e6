package ui

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/catalog"
)

// One server log and one level: the server's log messages are the
// model's one book, which pane 7 draws; the catalog, handed the same
// message, keeps no second copy (its Log tab lists its own events and
// says the log is pane 7); the level set with L (the one picker, over the
// catalog too) is the level both show.
func TestOneServerLogOneLevel(t *testing.T) {
	fb := uitest.New()
	m := New(Options{Backend: fb, Now: now, Tick: -1, Theme: "dark", NoBell: true, Catalog: richServer{}})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	m.Update(EventsMsg{Events: uitest.Session()})
	run(t, m, press(m, "E", "g")) // the catalog, its Log tab

	// A message that comes now reaches the one book, which pane 7 draws;
	// handed to the catalog as well, it is not kept there again.
	params := `{"level":"error","logger":"books","data":"written once"}`
	line := `{"jsonrpc":"2.0","method":"notifications/message","params":` + params + `}`
	m.Update(EventsMsg{Events: []model.Event{model.Wire{Stamp: model.Stamp{Time: uitest.At(29)}, Dir: model.In, Line: []byte(line), Size: len(line)}}})
	m.rich.catalog.Update(catalog.NotificationMsg{N: mcp.Notification{Method: mcp.NotificationMessage, Params: json.RawMessage(params)}})
	if s := screen(m); strings.Count(s, "written once") != 1 || !strings.Contains(s, "7 Log (8)") {
		t.Fatalf("the message is not in pane 7 once, of 8:\n%s", s)
	}
	tab := ansi.Strip(strings.Join(m.rich.catalog.View(160, 40), "\n"))
	if strings.Contains(tab, "written once") || !strings.Contains(tab, "the server's log is pane 7") {
		t.Fatalf("the catalog's Log tab keeps a book of its own:\n%s", tab)
	}

	// L picks the level (the one picker, over the catalog too); the model
	// hears of the level in effect, and both views show it.
	press(m, "L")
	if _, ok := m.top().(*levelPicker); !ok {
		t.Fatalf("L over the catalog opened %T, not the level picker", m.top())
	}
	run(t, m, press(m, "down", "down", "enter"))
	if calls := fb.Calls(); len(calls) == 0 || calls[len(calls)-1].Level != "notice" {
		t.Fatalf("calls %+v, want SetLogLevel notice", calls)
	}
	m.Update(EventsMsg{Events: []model.Event{model.LogLevelSet{Stamp: model.Stamp{Time: uitest.At(30), Gen: m.sess.Conn().Gen}, Level: "notice"}}})
	tab = ansi.Strip(strings.Join(m.rich.catalog.View(160, 40), "\n"))
	if !strings.Contains(tab, "· level notice") || !strings.Contains(tab, "log notice ·") {
		t.Fatalf("the catalog does not show the level set with L:\n%s", tab)
	}
	if s := screen(m); !strings.Contains(s, "7 Log (8) · level notice") {
		t.Fatalf("pane 7 does not show the level set with L:\n%s", s)
	}
}
