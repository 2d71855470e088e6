package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// richServer is a tiny backend.Catalog: one tool that echoes.
type richServer struct{}

func (richServer) ListTools(context.Context) ([]mcp.Tool, error) {
	var t mcp.Tool
	_ = json.Unmarshal([]byte(`{"name":"echo","description":"Echoes **back**.","inputSchema":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}}`), &t)
	return []mcp.Tool{t}, nil
}
func (richServer) ListResources(context.Context) ([]mcp.Resource, error) { return nil, nil }
func (richServer) ListResourceTemplates(context.Context) ([]mcp.ResourceTemplate, error) {
	return nil, nil
}
func (richServer) ListPrompts(context.Context) ([]mcp.Prompt, error) { return nil, nil }
func (richServer) Call(_ context.Context, _ string, params any, _ backend.CatalogCallOptions) (json.RawMessage, error) {
	b, _ := json.Marshal(params)
	var p struct {
		Arguments struct{ Message string } `json:"arguments"`
	}
	_ = json.Unmarshal(b, &p)
	text, _ := json.Marshal("echo: " + p.Arguments.Message)
	return json.RawMessage(`{"content":[{"type":"text","text":` + string(text) + `}]}`), nil
}
func (richServer) ReadResource(context.Context, string) (*mcp.ReadResourceResult, error) {
	return nil, &mcp.Error{Code: -32002, Message: "none"}
}
func (richServer) GetPrompt(context.Context, string, map[string]string) (*mcp.GetPromptResult, error) {
	return nil, &mcp.Error{Code: -32602, Message: "none"}
}
func (richServer) Complete(context.Context, mcp.Ref, string, string, map[string]string) (*mcp.CompleteResult, error) {
	return &mcp.CompleteResult{}, nil
}
func (richServer) SetLogLevel(context.Context, string) error { return nil }
func (richServer) Listen(context.Context, mcp.Filter) (backend.Subscription, error) {
	return nil, &mcp.Error{Code: -32601, Message: "no"}
}
func (richServer) RootsChanged(context.Context) (string, error) {
	return "sent notifications/roots/list_changed", nil
}
func (richServer) Info() backend.CatalogInfo {
	return backend.CatalogInfo{Version: mcp.Version20251125, Name: "rich", Key: "rich",
		Capabilities: mcp.ServerCapabilities{Tools: &mcp.ListChangedCapability{}}}
}

func TestFormAnswersElicitation(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	press(m, "2", "j", "f")
	if !topIs[*answerOverlay](m) {
		t.Fatalf("overlay %T", m.top())
	}
	if s := ansi.Strip(m.render()); !strings.Contains(s, "Which environment should the deploy target?") || !strings.Contains(s, "‹ staging ›") {
		t.Fatalf("the form is not shown:\n%s", s)
	}
	press(m, "right", "down", "space")
	run(t, m, press(m, "ctrl+s"))
	calls := fb.Calls()
	if len(calls) != 1 || calls[0].Method != "Answer" {
		t.Fatalf("calls %+v", calls)
	}
	var ans struct {
		Action  string
		Content map[string]any
	}
	if err := json.Unmarshal(calls[0].Result, &ans); err != nil || ans.Action != "accept" || ans.Content["env"] != "production" || ans.Content["confirm"] != true {
		t.Fatalf("%s %v", calls[0].Result, err)
	}
	if m.top() != nil {
		t.Errorf("overlay %T after answering", m.top())
	}
}

func TestFormAnswersSampling(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	press(m, "2", "f")
	typeText(m, "The build passed.")
	run(t, m, press(m, "ctrl+s"))
	calls := fb.Calls()
	if len(calls) != 1 || !strings.Contains(string(calls[0].Result), `"text":"The build passed."`) {
		t.Fatalf("calls %+v", calls)
	}
}

// TestCatalogPane: E focuses the catalog as pane 6 of the main screen, with
// the requests and the server's questions still in view; global keys work
// from it; esc goes back one level at a time and finally to the pane
// before it.
func TestCatalogPane(t *testing.T) {
	fb := uitest.New()
	m := New(Options{Backend: fb, Now: now, Tick: -1, Theme: "dark", NoBell: true, Catalog: richServer{}})
	m.Update(EventsMsg{Events: uitest.Session()})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := m.Update(keyMsg("E"))
	run(t, m, cmd)
	if m.top() != nil || m.focus != paneCatalog || !m.catalogShown {
		t.Fatalf("overlay %T focus %d", m.top(), m.focus)
	}
	s := ansi.Strip(m.render())
	for _, want := range []string{"6 Catalog — weather", "Tools 1", "echo", "Echoes back.", "1 Requests", "2 Server asks"} {
		if !strings.Contains(s, want) {
			t.Fatalf("lacks %q:\n%s", want, s)
		}
	}
	press(m, "enter")
	// In the form, keys are typed, not global: 1 and q go into the field.
	typeText(m, "hi")
	if m.focus != paneCatalog {
		t.Fatalf("typing moved the focus to %d", m.focus)
	}
	run(t, m, press(m, "ctrl+s"))
	if s := ansi.Strip(m.render()); !strings.Contains(s, "echo: hi") {
		t.Fatalf("no result:\n%s", s)
	}
	// ctrl+a answers the newest question from the catalog, and comes back
	// to it.
	press(m, "ctrl+a")
	if !topIs[*answerOverlay](m) {
		t.Fatalf("overlay %T", m.top())
	}
	run(t, m, press(m, "ctrl+s"))
	if m.top() != nil || m.focus != paneCatalog {
		t.Errorf("back to overlay %T focus %d, not the catalog", m.top(), m.focus)
	}
	// Global keys work from the catalog's result: 1 focuses the requests
	// and the catalog stays on the screen; 6 comes back.
	press(m, "1")
	if m.focus != paneInFlight || !m.catalogShown {
		t.Fatalf("1: focus %d catalog %v", m.focus, m.catalogShown)
	}
	press(m, "6")
	if m.focus != paneCatalog {
		t.Fatalf("6: focus %d", m.focus)
	}
	// esc: result → form → list → out of the catalog, back to pane 1.
	press(m, "esc", "esc")
	if m.focus != paneCatalog {
		t.Fatalf("esc left the catalog too early")
	}
	press(m, "esc")
	if m.focus != paneInFlight || m.catalogShown {
		t.Errorf("esc at the catalog's top: focus %d catalog %v", m.focus, m.catalogShown)
	}
}

func TestRichScreen(t *testing.T) {
	for _, c := range []screenCase{
		{name: "elicitation_form", events: uitest.Session(), msgs: []tea.Msg{kp("2"), kp("j"), kp("f")}},
		{name: "sampling_form", events: uitest.Session(), msgs: []tea.Msg{kp("2"), kp("f")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			styled, plain := runScreen(t, c, 100, 30)
			t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, plain) })
			t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, styled) })
		})
	}
}

// TestRootsEditedThenApproved: roots changed in the roots editor are what
// both the editor and "approve prepared" send next.
func TestRootsEditedThenApproved(t *testing.T) {
	roots := func(id string) model.Event {
		return model.QuestionAsked{Stamp: model.Stamp{Time: uitest.At(29)}, RequestID: json.RawMessage(id), Method: "roots/list", Params: json.RawMessage(`{}`)}
	}
	m, fb := newTest(t, 100, 30, append(uitest.Session(), roots(`"r-1"`), roots(`"r-2"`))...)
	press(m, "2")
	for i, q := range m.sess.Questions() {
		if string(q.RequestID) == `"r-1"` {
			m.lists[panePending].cursor = i
		}
	}
	press(m, "f", "a", "ctrl+u")
	typeText(m, "/srv/data")
	press(m, "enter")
	run(t, m, press(m, "ctrl+s"))
	if m.top() != nil {
		t.Fatalf("overlay %T", m.top())
	}
	for i, q := range m.sess.Questions() {
		if string(q.RequestID) == `"r-2"` {
			m.lists[panePending].cursor = i
		}
	}
	run(t, m, press(m, "a"))
	var answers []string
	for _, c := range fb.Calls() {
		if c.Method == "Answer" {
			answers = append(answers, string(c.Ref.RequestID)+" "+string(c.Result))
		}
	}
	if len(answers) != 2 {
		t.Fatalf("answers %q", answers)
	}
	for _, a := range answers {
		if !strings.Contains(a, "file:///srv/data") || !strings.Contains(a, "file:///home/me/project") {
			t.Errorf("an answer lacks a root: %s", a)
		}
	}
}

// TestRequestOutcome: enter on a finished request in pane 1 shows its
// outcome rendered in the catalog (the content's text, not the JSON-RPC
// line); an error is explained; the traffic summary shows the content,
// not _meta.
func TestRequestOutcome(t *testing.T) {
	fb := uitest.New()
	m := New(Options{Backend: fb, Now: now, Tick: -1, Theme: "dark", NoBell: true, Catalog: richServer{}})
	evs := append(uitest.Session(),
		model.Wire{Stamp: model.Stamp{Time: uitest.At(29)}, Dir: model.Out, Line: []byte(`{"jsonrpc":"2.0","id":40,"method":"tools/call","params":{"name":"forecast","arguments":{"city":"Oslo"}}}`)},
		model.Wire{Stamp: model.Stamp{Time: uitest.At(29.5)}, Dir: model.In, Line: []byte(`{"jsonrpc":"2.0","id":40,"result":{"_meta":{"trace":"abc"},"resultType":"complete","content":[{"type":"text","text":"Sunny, 21 degrees"}]}}`)})
	m.Update(EventsMsg{Events: evs})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	if s := screen(m); !strings.Contains(s, "Sunny, 21 degrees") || strings.Contains(s, `{"_meta"`) {
		t.Fatalf("the traffic summary is not the content:\n%s", s)
	}
	press(m, "1")
	for range 10 {
		if c := m.selectedCall(); c != nil && string(c.ID) == "40" {
			break
		}
		press(m, "j")
	}
	run(t, m, press(m, "enter"))
	if m.focus != paneCatalog {
		t.Fatalf("enter: focus %d", m.focus)
	}
	s := screen(m)
	if !strings.Contains(s, "tools/call forecast") || !strings.Contains(s, "Sunny, 21 degrees") {
		t.Fatalf("no rendered outcome:\n%s", s)
	}
	// esc goes back one level at a time: the result, the catalog's list,
	// then pane 1.
	press(m, "esc", "esc")
	if m.focus != paneInFlight {
		t.Fatalf("esc, esc: focus %d", m.focus)
	}
	for range 10 {
		if c := m.selectedCall(); c != nil && string(c.ID) == "6" {
			break
		}
		press(m, "j")
	}
	run(t, m, press(m, "enter"))
	if s := screen(m); !strings.Contains(s, "error -32602: Unknown tool (the server rejected the params)") {
		t.Fatalf("the error is not explained:\n%s", s)
	}
}
