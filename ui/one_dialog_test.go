package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/ui/dialog"
)

// TestOneSubscribeDialogAndOneCount (issue 18 item 5): s in the catalog
// opens the same subscribe dialog as s in pane 4, and the catalog counts
// the subscriptions pane 4 lists.
func TestOneSubscribeDialogAndOneCount(t *testing.T) {
	m := New(Options{Backend: uitest.New(), Now: now, Tick: -1, Theme: "dark", NoBell: true, Catalog: richServer{}})
	m.Update(EventsMsg{Events: uitest.Session()})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	_, cmd := m.Update(keyMsg("E"))
	run(t, m, cmd)
	s := screen(m)
	if !strings.Contains(s, "4 Subscriptions (1 open)") && !strings.Contains(s, "1 subscription(s)") {
		t.Fatalf("no count:\n%s", s)
	}
	if !strings.Contains(s, "1 subscription(s)") {
		t.Errorf("the catalog does not count pane 4's open subscription:\n%s", s)
	}
	run(t, m, press(m, "s"))
	if !topIs[*dialog.Listen[*Model]](m) {
		t.Fatalf("s in the catalog opened overlay %T, not the subscribe dialog", m.top())
	}
	if s := screen(m); !strings.Contains(s, "New subscription") {
		t.Fatalf("not the subscribe dialog:\n%s", s)
	}
	press(m, "esc")
	if m.top() != nil || m.focus != paneCatalog {
		t.Errorf("esc left overlay %T focus %d", m.top(), m.focus)
	}
}

// TestListenPresetPicked: the dialog opened for a resource has it picked,
// also once the server's list arrives.
func TestListenPresetPicked(t *testing.T) {
	m, _ := newTest(t, 100, 30, uitest.Session()...)
	dialog.OpenListen(m, "file:///var/log/build.log")
	m.Update(dialog.ResourcesMsg{})
	s := screen(m)
	if !strings.Contains(s, "[x] file:///var/log/build.log") || !strings.Contains(s, "(1 listed by the server)") {
		t.Fatalf("the preset is not the one resource, picked:\n%s", s)
	}
}
