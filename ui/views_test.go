package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// viewsSession is the scripted session with all eight levels logged, the
// level set, and a server that says much of itself: a title, a website,
// icons, instructions in Markdown (with an escape sequence in them) and
// capabilities; its banner on stdout is a lint finding.
func viewsSession() []model.Event {
	evs := uitest.Session()
	evs = append(evs, model.Ready{Stamp: model.Stamp{Time: uitest.At(0.3)}, ServerName: "weather", ServerVersion: "1.4.2",
		Protocol: "2025-11-25", PID: 4242, Offered: []string{"2025-11-25"},
		Info: model.ServerInfo{
			Title: "Weather \x1b]0;pwned\x07 Service", WebsiteURL: "https://weather.example", Description: "Forecasts for anywhere.",
			Icons:        json.RawMessage(`[{"src":"https://weather.example/icon.png","mimeType":"image/png","sizes":["48x48"]}]`),
			Instructions: "# Using the weather server\n\nCall `forecast` with a **city**.\n\n- Prefer metric units\n- Never call \x1b[2J`alerts` in a loop\n",
			Capabilities: json.RawMessage(`{"tools":{},"logging":{},"resources":{"subscribe":true}}`),
			Allowed:      []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"},
			Reason:       "server/discover is not known to the server (-32601): initialize offered 2025-11-25 and the server accepted it",
			Probes:       1, Spawns: 1,
		}},
		model.LogLevelSet{Stamp: model.Stamp{Time: uitest.At(0.4)}, Level: "debug"})
	for i, l := range []string{"debug", "info", "notice", "error", "critical", "alert", "emergency"} {
		line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":%q,"logger":"demo","data":"a %s message"}}`, l, l)
		evs = append(evs, model.Wire{Stamp: model.Stamp{Time: uitest.At(28 + float64(i)*0.1)}, Dir: model.In, Line: []byte(line), Size: len(line)})
	}
	return evs
}

// The log view and the server view at the smallest and the usual size:
// the log beside stderr, filtered, and the server view zoomed and not.
func TestViewScreens(t *testing.T) {
	evs := viewsSession()
	cases := []screenCase{
		{name: "log", events: evs, msgs: []tea.Msg{kp("7")}},
		{name: "log_filtered_zoom", events: evs, msgs: []tea.Msg{kp("7"), kp(">"), kp(">"), kp(">"), kp("z")}},
		{name: "server", events: evs, msgs: []tea.Msg{kp("8")}},
		{name: "server_zoom", events: evs, msgs: []tea.Msg{kp("8"), kp("z")}},
		{name: "log_level_picker", events: evs, msgs: []tea.Msg{kp("L")}},
	}
	for _, c := range cases {
		for _, size := range [][2]int{{80, 24}, {160, 48}} {
			t.Run(c.name+"_"+sizeName(size), func(t *testing.T) {
				styled, plain := runScreen(t, c, size[0], size[1])
				t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, plain) })
				t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, styled) })
			})
		}
	}
}

// The log view lists every message coloured by level and counts them in
// its title; > and < change the least severe level shown; the server's
// text stays inert.
func TestLogViewFiltersByLevel(t *testing.T) {
	m, _ := newTest(t, 160, 48, viewsSession()...)
	s := screen(m)
	if !strings.Contains(s, "7 Log (14) · level debug") {
		t.Fatalf("no log pane with its count and level:\n%s", s)
	}
	for _, want := range []string{"a debug message", "a emergency message"} {
		if !strings.Contains(s, want) {
			t.Errorf("the log pane lacks %q", want)
		}
	}
	press(m, "7", ">", ">", ">")
	s = screen(m)
	if !strings.Contains(s, "7 Log (5 of 14, warning+)") {
		t.Fatalf("filtered title missing:\n%s", s)
	}
	log := paneText(s, "7 Log")
	if strings.Contains(log, "a notice message") || strings.Contains(log, "tick 0") || !strings.Contains(log, "a error message") || !strings.Contains(log, `\x1b[31mOSLO`) {
		t.Errorf("warning and up should show, nothing less:\n%s", log)
	}
	press(m, "<", "<", "<")
	if s := screen(m); !strings.Contains(s, "7 Log (14) · level debug") {
		t.Errorf("< did not bring every level back:\n%s", s)
	}
}

// paneText is the lines of the screen from the pane titled title down,
// the columns of that pane only.
func paneText(s, title string) string {
	lines := strings.Split(s, "\n")
	var out []string
	col := -1
	for _, l := range lines {
		if col < 0 {
			if i := strings.Index(l, title); i >= 0 {
				col = len([]rune(l[:i]))
			}
			continue
		}
		r := []rune(l)
		if col < len(r) {
			out = append(out, string(r[col:]))
		}
	}
	return strings.Join(out, "\n")
}

// L asks the backend for another level from any pane, and the picker
// starts on the level in effect.
func TestLogLevelKey(t *testing.T) {
	m, fb := newTest(t, 100, 30, viewsSession()...)
	press(m, "3", "L")
	if s := screen(m); !strings.Contains(s, "Log level") || !strings.Contains(s, "• debug") {
		t.Fatalf("no picker on debug:\n%s", s)
	}
	run(t, m, press(m, "j", "j", "j", "enter"))
	calls := fb.Calls()
	if len(calls) != 1 || calls[0].Method != "SetLogLevel" || calls[0].Level != "warning" {
		t.Fatalf("calls %+v", calls)
	}
}

// The server view shows the instructions (Markdown, inert), identity,
// capabilities and why the version was chosen; enter on a lint finding
// goes to its traffic line.
func TestServerViewAndFindingJump(t *testing.T) {
	m, _ := newTest(t, 160, 48, viewsSession()...)
	press(m, "8", "z")
	s := screen(m)
	for _, want := range []string{"8 Server — weather", "Using the weather server", "Prefer metric units", `\x1b[2J`,
		`Weather \x1b]0;pwned\x07 Service`, "https://weather.example/icon.png · image/png · 48x48", "subscribe", "-32601", "log level    debug"} {
		if !strings.Contains(s, want) {
			t.Errorf("the server view lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "\x1b") {
		t.Error("raw escape on screen")
	}
	fs := m.sess.Findings()
	if len(fs) == 0 {
		t.Fatal("the scripted session breaks no rule")
	}
	lines := m.serverLines(m.views.serverDoc.w)
	at := -1
	for i, l := range lines {
		if l.seq == fs[0].Seq {
			at = i
			break
		}
	}
	if at < 0 {
		t.Fatal("no line of the first finding")
	}
	m.lists[paneServer].cursor = at
	press(m, "enter")
	if m.focus != paneTraffic || m.views.server {
		t.Fatalf("focus %d, server view %v", m.focus, m.views.server)
	}
	if e := m.selectedEntry(); e == nil || e.Seq != fs[0].Seq {
		t.Errorf("traffic cursor on %+v, want #%d", e, fs[0].Seq)
	}
}

// The server view says in its border when its document goes on below,
// like the lists do (the log view does the same).
func TestServerAndLogViewsMarkMore(t *testing.T) {
	m, _ := newTest(t, 80, 24, viewsSession()...)
	press(m, "8", "z") // zoomed: its border is the only one
	if s := screen(m); !strings.Contains(s, "↓") || !strings.Contains(s, " more ") {
		t.Errorf("the server view at 80x24 does not say it goes on:\n%s", s)
	}
}
