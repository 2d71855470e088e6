package ui

import (
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// The layout rules of issue 18 item 7, one test each.

// TestLayoutMethodWholeBesideFreeRoom: pane 1 sizes its columns to the
// calls shown: a method is not cut while the target column beside it is
// empty (at 100x30 "elicitation/create" and "subscriptions/listen"
// whole).
func TestLayoutMethodWholeBesideFreeRoom(t *testing.T) {
	m, _ := newTest(t, 100, 30, uitest.Session()...)
	s := screen(m)
	for _, want := range []string{"elicitation/create", "sampling/createMessage", "subscriptions/listen"} {
		if !strings.Contains(s, want) {
			t.Errorf("pane 1 cuts %q:\n%s", want, s)
		}
	}
}

// TestLayoutScrollMarkers: a list pane that shows only part of its rows
// says so in its border.
func TestLayoutScrollMarkers(t *testing.T) {
	m, _ := newTest(t, 80, 24, uitest.Session()...)
	s := screen(m)
	if !strings.Contains(s, "↑ 20 more") || !strings.Contains(s, "↓ 5 more") {
		t.Fatalf("no scroll markers:\n%s", s)
	}
	m, _ = newTest(t, 160, 48, uitest.Session()...)
	if s := screen(m); strings.Contains(s, " more ━") {
		t.Errorf("a marker where everything is shown:\n%s", s)
	}
}

// TestLayoutHeaderSizedToContent: a long server name is not cut at ~27
// characters when the header has room for it.
func TestLayoutHeaderSizedToContent(t *testing.T) {
	name := "an-mcp-server-with-a-rather-long-descriptive-name"
	evs := append(uitest.Session(), model.Ready{Stamp: model.Stamp{Time: uitest.At(30)}, ServerName: name, ServerVersion: "2026.8.31-beta.4", Protocol: "2025-11-25", PID: 4242})
	m, _ := newTest(t, 160, 48, evs...)
	if head := strings.SplitN(screen(m), "\n", 2)[0]; !strings.Contains(head, name+" 2026.8.31-beta.4") {
		t.Errorf("header cuts the name at 160 columns:\n%s", head)
	}
}

// TestLayoutHelpFitsAt80: the ? help wraps its columns into bands: at
// 80x24 every section and the last key (q quit) are on screen, no line
// cut.
func TestLayoutHelpFitsAt80(t *testing.T) {
	m, _ := newTest(t, 80, 24, uitest.Session()...)
	press(m, "?")
	s := screen(m)
	for _, want := range []string{"Here", "Move", "Panes", "Everywhere", "q quit", "6         catalog"} {
		if !strings.Contains(s, want) {
			t.Errorf("help at 80x24 lacks %q:\n%s", want, s)
		}
	}
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "┃") && strings.Contains(l, "…") {
			t.Errorf("help at 80x24 cuts a line: %s", l)
		}
	}
}

// TestLayoutTrafficMethodTakesFreeRoom: a long method in traffic is not
// cut while its summary column stands empty.
func TestLayoutTrafficMethodTakesFreeRoom(t *testing.T) {
	m, _ := newTest(t, 80, 24, append(uitest.Session(),
		model.Wire{Stamp: model.Stamp{Time: uitest.At(29)}, Dir: model.In, Line: []byte(`{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}`), Size: 60})...)
	if s := screen(m); !strings.Contains(s, "notifications/resources/list_changed") {
		t.Errorf("traffic cuts the method beside an empty summary:\n%s", s)
	}
}
