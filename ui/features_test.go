package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/dialog"
	"github.com/mcptui/mcptui/ui/viewer"
)

// openLine opens the viewer on one line pushed as the only traffic.
func openLine(t *testing.T, line string) *Model {
	t.Helper()
	m, _ := newTest(t, 100, 30, model.Wire{Stamp: model.Stamp{Time: uitest.At(1)}, Dir: model.In, Line: []byte(line), Size: len(line)})
	press(m, "3", "enter")
	if !topIs[*viewer.Viewer[*Model]](m) {
		t.Fatal("the viewer did not open")
	}
	return m
}

func TestViewerFolds(t *testing.T) {
	m := openLine(t, `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a"},{"name":"b"}],"nextCursor":"x"}}`)
	s := screen(m)
	if !strings.Contains(s, `"jsonrpc": "2.0",`) || !strings.Contains(s, `"name": "a"`) {
		t.Fatalf("unfolded:\n%s", s)
	}
	// Down to "result", fold it: the line says what is hidden, with the
	// comma its closing brace would have had (none: it is last).
	press(m, "j", "j", "j", "space")
	s = screen(m)
	if !strings.Contains(s, `"result": { … }  2 members`) || strings.Contains(s, `"name"`) {
		t.Fatalf("folded result:\n%s", s)
	}
	press(m, "space")
	// Fold from inside: the cursor on "name": "a" folds its object and
	// moves to it.
	press(m, "j", "j", "j", "j", "enter")
	s = screen(m)
	if !strings.Contains(s, `{ … },  1 member`) || !strings.Contains(s, `"name": "b"`) {
		t.Fatalf("folded from inside:\n%s", s)
	}
	if _, val := topAs[*viewer.Viewer[*Model]](m).CursorText(); string(val) != "{" {
		t.Errorf("cursor on %q, want the folded object", val)
	}
	// Moving down skips the folded object; up comes back to it.
	press(m, "j")
	if k, _ := topAs[*viewer.Viewer[*Model]](m).CursorText(); topAs[*viewer.Viewer[*Model]](m).CursorLine() == 0 || k != nil {
		t.Errorf("down from the fold landed on key %s", k)
	}
	press(m, "k")
	if !topAs[*viewer.Viewer[*Model]](m).CursorFolded() {
		t.Errorf("up did not come back to the fold")
	}
	// Fold all: everything below the top level; unfold all.
	press(m, "C")
	s = screen(m)
	if !strings.Contains(s, `"result": { … }  2 members`) || !strings.Contains(s, `"id": 1,`) {
		t.Fatalf("fold all:\n%s", s)
	}
	press(m, "O")
	if strings.Contains(screen(m), "…") {
		t.Fatalf("unfold all left a fold:\n%s", screen(m))
	}
}

func TestViewerCopies(t *testing.T) {
	line := `{"jsonrpc":"2.0","id":1,"result":{"a":[1,2]}}`
	m := openLine(t, line)
	cmd := press(m, "y")
	if cmd == nil || fmt.Sprint(cmd()) != line {
		t.Errorf("y copies %v", cmd)
	}
	press(m, "j", "j", "j", "j") // "a": [
	cmd = press(m, "Y")
	if cmd == nil || fmt.Sprint(cmd()) != `[1,2]` || !strings.Contains(m.notice, "copied the value") {
		t.Errorf("Y copies %v (notice %q)", cmd, m.notice)
	}
}

// TestViewerFoldsAHugeLine: folding in a 300,000-element array still draws
// only the screen, and the fold skips the elements.
func TestViewerFoldsAHugeLine(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":1,"result":{"items":[`)
	for i := range 300_000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d", i)
	}
	b.WriteString(`],"after":true}}`)
	m := openLine(t, b.String())
	press(m, "j", "j", "j", "j", "space")
	s := screen(m)
	if !strings.Contains(s, `"items": [ … ],  300000 items`) || !strings.Contains(s, `"after": true`) {
		t.Fatalf("folded huge array:\n%s", s)
	}
	for i, l := range strings.Split(m.render(), "\n") {
		if w := lineWidth(l); w != 100 {
			t.Errorf("line %d is %d cells wide", i, w)
		}
	}
}

func TestInFlightOpensRequestAndResponse(t *testing.T) {
	m, _ := newTest(t, 100, 30, uitest.Session()...)
	// The newest finished call with a response: the failed tools/call 6.
	press(m, "1")
	for i := range 10 {
		if c := m.selectedCall(); c != nil && c.ResponseSeq != 0 {
			break
		}
		press(m, "j")
		_ = i
	}
	c := m.selectedCall()
	if c == nil || c.ResponseSeq == 0 {
		t.Fatal("no call with a response")
	}
	press(m, "o")
	if !topIs[*viewer.Viewer[*Model]](m) || topAs[*viewer.Viewer[*Model]](m).Entry().Seq != c.ResponseSeq {
		t.Fatalf("o opened %+v", topAs[*viewer.Viewer[*Model]](m))
	}
	press(m, "esc", "i")
	if !topIs[*viewer.Viewer[*Model]](m) || topAs[*viewer.Viewer[*Model]](m).Entry().Seq != c.RequestSeq {
		t.Fatalf("i opened %+v", topAs[*viewer.Viewer[*Model]](m))
	}
	// A call still in flight has no response to open.
	press(m, "esc", "g", "o")
	if m.top() != nil || !strings.Contains(m.notice, "no response yet") {
		t.Errorf("o on a pending call: overlay %T, notice %q", m.top(), m.notice)
	}
}

func TestListenDialog(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	run(t, m, press(m, "4", "s"))
	if !topIs[*dialog.Listen[*Model]](m) || !strings.Contains(screen(m), fmt.Sprintf("(%d listed by the server)", len(uitest.Resources))) {
		t.Fatalf("dialog %T:\n%s", m.top(), screen(m))
	}
	s := screen(m)
	if !strings.Contains(s, "file:///var/log/build.log") || !strings.Contains(s, "2 listed by the server") {
		t.Fatalf("dialog:\n%s", s)
	}
	press(m, "ctrl+s")
	if s := screen(m); !strings.Contains(s, "✗ pick something") {
		t.Errorf("empty filter:\n%s", s)
	}
	// Tools list, the second resource, and a URI typed in.
	press(m, "space", "down", "down", "down", "down", "space", "down")
	typeText(m, "tmpl://x/1")
	press(m, "enter")
	if !strings.Contains(screen(m), "[x] tmpl://x/1") {
		t.Fatalf("typed URI not added:\n%s", screen(m))
	}
	run(t, m, press(m, "ctrl+s"))
	calls := fb.Calls()
	if len(calls) != 1 || calls[0].Method != "Listen" {
		t.Fatalf("calls %+v", calls)
	}
	got := calls[0].Listen
	if !got.ToolsListChanged || got.PromptsListChanged || strings.Join(got.Resources, " ") != "mem://cache tmpl://x/1" {
		t.Errorf("listen %+v", got)
	}
	if m.top() != nil || !strings.Contains(m.notice, `subscribed: subscription "fake-1"`) {
		t.Errorf("after: overlay %T notice %q", m.top(), m.notice)
	}
}

func TestSubscriptionsPaneDescribesFilters(t *testing.T) {
	m, _ := newTest(t, 160, 48, append(uitest.Session(),
		model.SubscriptionOpened{Stamp: model.Stamp{Time: uitest.At(29)}, ID: json.RawMessage(`"sub-1"`),
			Asked:    json.RawMessage(`{"toolsListChanged":true,"resourceSubscriptions":["a://1","a://2"]}`),
			Accepted: json.RawMessage(`{"resourceSubscriptions":["a://1","a://2"]}`)})...)
	m.focus, m.zoom = paneSubs, true
	s := screen(m)
	for _, want := range []string{
		"asked    tools list; 2 resources: a://1, a://2",
		"accepted 2 resources: a://1, a://2",
		"asked    tools list; 1 resource: file:///var/log/build.log",
		"accepted 1 resource: file:///var/log/build.log",
		"last     notifications/resources/updated file:///var/log/build.log",
		"1 event, last 10s ago",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in\n%s", want, s)
		}
	}
	// An initialize-era subscription opens as its filters.
	press(m, "enter")
	if !topIs[*viewer.Viewer[*Model]](m) || !strings.Contains(screen(m), `"asked": {`) {
		t.Errorf("enter on a local subscription:\n%s", screen(m))
	}
}

func TestPendingQuestionStandsOut(t *testing.T) {
	fb := uitest.New()
	m := New(Options{Backend: fb, Now: now, Tick: -1, Theme: "dark"})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := m.Update(EventsMsg{Events: uitest.Session()})
	if raw, ok := cmd().(tea.RawMsg); !ok || raw.Msg != "\a" {
		t.Errorf("no bell for a new question: %#v", cmd())
	}
	s := screen(m)
	if !strings.Contains(s, "2 Server asks ● 2 waiting for you") || !strings.Contains(s, "pending 2") ||
		!strings.Contains(s, "the server is asking something") {
		t.Errorf("a waiting question is easy to miss:\n%s", s)
	}
	// No bell with NoBell, nor for a question already counted.
	m.opts.NoBell = true
	_, cmd = m.Update(EventsMsg{Events: []model.Event{model.QuestionAsked{Stamp: model.Stamp{Time: uitest.At(29)}, RequestID: json.RawMessage(`9`), Method: "roots/list"}}})
	if cmd != nil {
		t.Errorf("bell with NoBell")
	}
}

func TestConnectionStatesAreShown(t *testing.T) {
	m, _ := newTest(t, 100, 30,
		model.Started{Stamp: model.Stamp{Time: uitest.At(0), Gen: 1}, Command: []string{"./srv", "--x"}},
		model.Negotiating{Stamp: model.Stamp{Time: uitest.At(0), Gen: 1}, Step: "probing with server/discover"},
		model.Wire{Stamp: model.Stamp{Time: uitest.At(0.1), Gen: 1}, Dir: model.Out, Line: []byte(`{"jsonrpc":"2.0","id":1,"method":"server/discover"}`), Size: 50})
	s := screen(m)
	if !strings.Contains(s, "● negotiating with ./srv --x") || !strings.Contains(s, "probe sent: server/discover") {
		t.Fatalf("negotiating:\n%s", s)
	}
	m.Update(EventsMsg{Events: []model.Event{
		model.Stderr{Stamp: model.Stamp{Time: uitest.At(0.2), Gen: 1}, Line: "loading \x1b[31mconfig\x1b[0m"},
		model.Stderr{Stamp: model.Stamp{Time: uitest.At(0.2), Gen: 1}, Line: "fatal: no token"},
		model.Exited{Stamp: model.Stamp{Time: uitest.At(0.3), Gen: 1}, Status: "exit status 3"},
		model.Failed{Stamp: model.Stamp{Time: uitest.At(0.3), Gen: 1}, Err: "mcp: connecting to ./srv: the stdio server exited"},
	}})
	s = screen(m)
	for _, want := range []string{"✗ the server stopped: exit status 3", "the stdio server exited", "│ loading \\x1b[31mconfig", "│ fatal: no token", "r restarts it"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in\n%s", want, s)
		}
	}
	checkOnlySGR(t, m.render())
	// A restart: the boundary, and the old process's late exit does not
	// end the new one.
	m.Update(EventsMsg{Events: []model.Event{
		model.Started{Stamp: model.Stamp{Time: uitest.At(5), Gen: 2}, Command: []string{"./srv", "--x"}},
		model.Ready{Stamp: model.Stamp{Time: uitest.At(5.1), Gen: 2}, ServerName: "srv", PID: 77},
		model.Exited{Stamp: model.Stamp{Time: uitest.At(5.2), Gen: 1}, Status: "signal: killed"},
	}})
	s = screen(m)
	if !strings.Contains(s, "● ready (restart 1)") || strings.Contains(s, "stopped") {
		t.Errorf("after restart:\n%s", s)
	}
	if !strings.Contains(s, "restarted: process 2") {
		t.Errorf("no boundary in the traffic:\n%s", s)
	}
}
