package ui

import (
	"os"

	tea "charm.land/bubbletea/v2"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/mcp"
)

func TestComposerSendsARequest(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	press(m, "n")
	if !topIs[*composer](m) || !strings.Contains(screen(m), "New request") {
		t.Fatalf("composer not open:\n%s", screen(m))
	}
	m.composer.method.SetValue("tools/call")
	press(m, "tab")
	typeText(m, "5s")
	press(m, "tab", " ", "tab")
	m.composer.params.SetValue(`{"name":"forecast"`)
	press(m, "ctrl+s")
	if !strings.Contains(m.composer.err, "JSON object") || len(fb.Calls()) != 0 {
		t.Fatalf("bad params accepted: %q", m.composer.err)
	}
	m.composer.params.SetValue(`{"name":"forecast","arguments":{"city":"Oslo"}}`)
	run(t, m, press(m, "ctrl+s"))
	c := fb.Calls()
	if len(c) != 1 || c[0].Method != "Call" {
		t.Fatalf("calls = %+v", c)
	}
	r := c[0].Request
	if r.Method != "tools/call" || r.Timeout != 5*time.Second || r.Progress || string(r.Params) != `{"name":"forecast","arguments":{"city":"Oslo"}}` {
		t.Errorf("request = %+v", r)
	}
	if !strings.Contains(m.notice, "tools/call answered (2 B)") {
		t.Errorf("notice = %q", m.notice)
	}
}

func TestComposerTimeouts(t *testing.T) {
	c := newComposer(0)
	for in, want := range map[string]time.Duration{"": 0, "none": -1, "0": -1, "2m": 2 * time.Minute} {
		c.timeout.SetValue(in)
		if r, err := c.request(); err != nil || r.Timeout != want {
			t.Errorf("timeout %q = %v, %v", in, r.Timeout, err)
		}
	}
	c.timeout.SetValue("soon")
	if _, err := c.request(); err == nil {
		t.Error("a bad timeout was accepted")
	}
	c.timeout.SetValue("")
	c.params.SetValue("")
	if r, err := c.request(); err != nil || r.Params != nil {
		t.Errorf("empty params = %s, %v", r.Params, err)
	}
}

func TestExternalEditorRoundTrip(t *testing.T) {
	m, _ := newTest(t, 100, 30, uitest.Session()...)
	m.opts.Editor = "my-editor --wait"
	press(m, "2", "j", "e")
	cmd := press(m, "ctrl+e")
	msg := cmd()
	file, ok := msg.(editorFileMsg)
	if !ok || file.err != nil {
		t.Fatalf("draft: %+v", msg)
	}
	b, err := os.ReadFile(file.path)
	if err != nil || !strings.Contains(string(b), `"staging"`) {
		t.Fatalf("draft file: %q %v", b, err)
	}
	if got := m.editorCommand(); strings.Join(got, " ") != "my-editor --wait" {
		t.Errorf("editor command = %q", got)
	}
	// The editor would run here; it changes the file.
	if err := os.WriteFile(file.path, []byte(`{"action":"decline"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, next := m.Update(editorExitMsg{path: file.path})
	_, _ = m.Update(next())
	if got := m.editor.ta.Value(); got != `{"action":"decline"}` {
		t.Errorf("editor text = %q", got)
	}
	if _, err := os.Stat(file.path); !os.IsNotExist(err) {
		t.Errorf("the draft file was left behind: %v", err)
	}
}

// TestComposerMethodTypingReplacesThePrefill: the composer opens on the last
// method (tools/list at first), selected: typing a method replaces it (it
// appended: "tools/listtools/call"), an arrow key keeps it for editing.
func TestComposerMethodTypingReplacesThePrefill(t *testing.T) {
	m, _ := newTest(t, 100, 30, uitest.Session()...)
	press(m, "n")
	typeText(m, "tools/call")
	if got := m.composer.method.Value(); got != "tools/call" {
		t.Fatalf("typing over the prefilled method gave %q", got)
	}
	press(m, "esc", "n")
	m.Update(tea.KeyPressMsg{Code: tea.KeyLeft})
	typeText(m, "x")
	if got := m.composer.method.Value(); got != "tools/calxl" {
		t.Errorf("an arrow key then typing gave %q, want the text kept and edited", got)
	}
}

// TestComposerTargetDrawnInert: a tool name from the server in the
// composer's target field is drawn escaped, never raw (the field was
// bubbles' textinput, which writes its value to the terminal as it is).
func TestComposerTargetDrawnInert(t *testing.T) {
	m, _ := newTest(t, 100, 30, uitest.Session()...)
	press(m, "n")
	evil := "evil\x1b]52;c;cHduZWQ=\x07\x1b[2J"
	m.Update(composerOfferMsg{gen: m.sess.Conn().Gen, offer: &composerOffer{
		methods: offeredMethods("2025-11-25", mcp.ServerCapabilities{Tools: &mcp.ListChangedCapability{}}),
		tools:   []mcp.Tool{{Name: evil}},
	}})
	m.composer.method.SetValue("tools/call")
	m.composer.target.SetValue(evil)
	raw := m.View().Content
	if !strings.Contains(screen(m), "evil") {
		t.Fatalf("no target field drawn:\n%s", screen(m))
	}
	if strings.Contains(raw, "\x1b]52") || strings.Contains(raw, "\x1b[2J") {
		t.Fatalf("the target's escape sequences reached the terminal raw")
	}
}
