package composer

import (
	tea "charm.land/bubbletea/v2"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/mcp"
)

func TestComposerSendsARequest(t *testing.T) {
	h, fb := openTest(t, 100, 30)
	if !h.shown || h.c.Title(h) != "New request" {
		t.Fatalf("composer not open:\n%s", h.screen())
	}
	h.c.method.SetValue("tools/call")
	h.press("tab")
	h.typeText("5s")
	h.press("tab", " ", "tab")
	h.c.params.SetValue(`{"name":"forecast"`)
	h.press("ctrl+s")
	if !strings.Contains(h.c.err, "JSON object") || len(fb.Calls()) != 0 {
		t.Fatalf("bad params accepted: %q", h.c.err)
	}
	h.c.params.SetValue(`{"name":"forecast","arguments":{"city":"Oslo"}}`)
	h.run(t, h.press("ctrl+s"))
	c := fb.Calls()
	if len(c) != 1 || c[0].Method != "Call" {
		t.Fatalf("calls = %+v", c)
	}
	r := c[0].Request
	if r.Method != "tools/call" || r.Timeout != 5*time.Second || r.Progress || string(r.Params) != `{"name":"forecast","arguments":{"city":"Oslo"}}` {
		t.Errorf("request = %+v", r)
	}
	if !strings.Contains(h.notice, "tools/call answered (2 B)") {
		t.Errorf("notice = %q", h.notice)
	}
}

func TestComposerTimeouts(t *testing.T) {
	c := New[*host](0)
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

// TestComposerMethodTypingReplacesThePrefill: the composer opens on the last
// method (tools/list at first), selected: typing a method replaces it (it
// appended: "tools/listtools/call"), an arrow key keeps it for editing.
func TestComposerMethodTypingReplacesThePrefill(t *testing.T) {
	h, _ := openTest(t, 100, 30)
	h.typeText("tools/call")
	if got := h.c.method.Value(); got != "tools/call" {
		t.Fatalf("typing over the prefilled method gave %q", got)
	}
	h.press("esc")
	h.open(t)
	h.update(tea.KeyPressMsg{Code: tea.KeyLeft})
	h.typeText("x")
	if got := h.c.method.Value(); got != "tools/calxl" {
		t.Errorf("an arrow key then typing gave %q, want the text kept and edited", got)
	}
}

// TestComposerTargetDrawnInert: a tool name from the server in the
// composer's target field is drawn escaped, never raw (the field was
// bubbles' textinput, which writes its value to the terminal as it is).
func TestComposerTargetDrawnInert(t *testing.T) {
	h, _ := openTest(t, 100, 30)
	evil := "evil\x1b]52;c;cHduZWQ=\x07\x1b[2J"
	h.update(OfferMsg{gen: h.sess.Conn().Gen, offer: &composerOffer{
		methods: offeredMethods("2025-11-25", mcp.ServerCapabilities{Tools: &mcp.ListChangedCapability{}}),
		tools:   []mcp.Tool{{Name: evil}},
	}})
	h.c.method.SetValue("tools/call")
	h.c.target.SetValue(evil)
	raw := h.view()
	if !strings.Contains(h.screen(), "evil") {
		t.Fatalf("no target field drawn:\n%s", h.screen())
	}
	if strings.Contains(raw, "\x1b]52") || strings.Contains(raw, "\x1b[2J") {
		t.Fatalf("the target's escape sequences reached the terminal raw")
	}
}
