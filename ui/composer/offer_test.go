package composer

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/mcp"
)

func TestOfferedMethodsFollowVersionAndCapabilities(t *testing.T) {
	tools := mcp.ServerCapabilities{Tools: &mcp.ListChangedCapability{}}
	old := offeredMethods("2024-11-05", tools)
	for _, want := range []string{"ping", "tools/list", "tools/call", "completion/complete"} {
		if !slices.Contains(old, want) {
			t.Errorf("2024-11-05 with tools: %q missing from %q", want, old)
		}
	}
	for _, not := range []string{"initialize", "resources/read", "prompts/get", "logging/setLevel", "tasks/get", "server/discover"} {
		if slices.Contains(old, not) {
			t.Errorf("2024-11-05 with tools offers %q: %q", not, old)
		}
	}
	// From 2025-03-26 completion/complete needs the completions capability.
	if slices.Contains(offeredMethods("2025-06-18", tools), "completion/complete") {
		t.Error("completion/complete offered without the completions capability")
	}
	modern := offeredMethods("2026-07-28", mcp.ServerCapabilities{Prompts: &mcp.ListChangedCapability{}})
	for _, want := range []string{"server/discover", "prompts/get", "tasks/get"} {
		if !slices.Contains(modern, want) {
			t.Errorf("2026-07-28: %q missing from %q", want, modern)
		}
	}
	for _, not := range []string{"ping", "tools/call", "subscriptions/listen", "initialize"} {
		if slices.Contains(modern, not) {
			t.Errorf("2026-07-28 with prompts offers %q", not)
		}
	}
}

func TestSuggestPrefixFirst(t *testing.T) {
	got := suggest([]string{"resources/list", "tools/list", "tools/call", "prompts/list"}, "list")
	if strings.Join(got, " ") != "resources/list tools/list prompts/list" {
		t.Errorf("contains: %q", got)
	}
	if got := suggest([]string{"tools/list", "tools/call", "resources/list"}, "tools/"); strings.Join(got, " ") != "tools/list tools/call" {
		t.Errorf("prefix: %q", got)
	}
	if got := suggest([]string{"tools/call"}, "tools/call"); got != nil {
		t.Errorf("a chosen method suggests nothing more: %q", got)
	}
}

var forecastTool = mcp.Tool{Name: "forecast", InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","default":3},"units":{"type":"string","enum":["c","f"]}},"required":["city","units"]}`)}

func TestParamsSkeletons(t *testing.T) {
	o := &composerOffer{
		tools:   []mcp.Tool{forecastTool},
		prompts: []mcp.Prompt{{Name: "greet", Arguments: []mcp.PromptArgument{{Name: "name", Required: true}}}},
	}
	for _, tc := range []struct{ method, target, want string }{
		{"tools/call", "forecast", `{"name":"forecast","arguments":{"city":"","days":3,"units":""}}`},
		{"tools/call", "unknown", `{"name":"unknown","arguments":{}}`},
		{"prompts/get", "greet", `{"name":"greet","arguments":{"name":""}}`},
		{"resources/read", "demo://readme", `{"uri":"demo://readme"}`},
		{"logging/setLevel", "", `{"level":"debug"}`},
		{"completion/complete", "", `{"ref":{"type":"ref/prompt","name":""},"argument":{"name":"","value":""}}`},
		{"tools/list", "", `{}`},
	} {
		got := o.paramsSkeleton(tc.method, tc.target)
		var a, b any
		if err := json.Unmarshal([]byte(got), &a); err != nil {
			t.Errorf("%s: not JSON: %s", tc.method, got)
			continue
		}
		_ = json.Unmarshal([]byte(tc.want), &b)
		ga, _ := json.Marshal(a)
		gb, _ := json.Marshal(b)
		if string(ga) != string(gb) {
			t.Errorf("%s %s: skeleton %s, want %s", tc.method, tc.target, ga, gb)
		}
	}
}

// The composer completes the method from what the server offers, picks the
// tool from its catalog, and starts the params from the tool's schema.
func TestComposerCompletesMethodAndPicksTool(t *testing.T) {
	h, fb := openTest(t, 100, 30)
	h.c.method.SetValue("")
	h.update(OfferMsg{gen: h.sess.Conn().Gen, offer: &composerOffer{
		methods: offeredMethods("2025-11-25", mcp.ServerCapabilities{Tools: &mcp.ListChangedCapability{}}),
		tools:   []mcp.Tool{{Name: "alerts"}, forecastTool},
	}})
	h.typeText("tools/c")
	if s := h.screen(); !strings.Contains(s, "▸ tools/call") {
		t.Fatalf("no suggestion:\n%s", s)
	}
	h.press("enter")
	if h.c.methodName() != "tools/call" || h.c.field != fieldTarget {
		t.Fatalf("method %q field %d", h.c.methodName(), h.c.field)
	}
	s := h.screen()
	if !strings.Contains(s, "▸ alerts") || !strings.Contains(s, "forecast") {
		t.Fatalf("no tool picker:\n%s", s)
	}
	h.press("down", "enter")
	if h.c.field != fieldParams || !strings.Contains(h.c.params.Value(), `"city": ""`) || !strings.Contains(h.c.params.Value(), `"days": 3`) {
		t.Fatalf("params %q", h.c.params.Value())
	}
	h.run(t, h.press("ctrl+s"))
	if c := fb.Calls(); len(c) != 1 || c[0].Request.Method != "tools/call" || !strings.Contains(string(c[0].Request.Params), `"forecast"`) {
		t.Fatalf("calls %+v", c)
	}
}

// A paste reaches whichever field is focused, the method's too, and a
// 1,000-character paste is one message: one update, one frame.
func TestComposerPasteGoesToTheFocusedField(t *testing.T) {
	h, _ := openTest(t, 160, 48)
	h.c.method.SetValue("")
	h.update(tea.PasteMsg{Content: "resources/read"})
	if h.c.methodName() != "resources/read" {
		t.Fatalf("method %q", h.c.methodName())
	}
	h.c.field = fieldParams
	h.c.focusField()
	h.c.params.SetValue("")
	text := strings.Repeat("0123456789", 100)
	h.update(tea.PasteMsg{Content: text})
	if got := h.c.params.Value(); got != text {
		t.Fatalf("params has %d characters, want 1000", len(got))
	}
	// All of it on screen, wrapped: 1,000 digits in the params field.
	digits := 0
	for _, r := range h.screen() {
		if r >= '0' && r <= '9' {
			digits++
		}
	}
	if digits < 1000 {
		t.Fatalf("the paste is not on screen (%d digits):\n%s", digits, h.screen())
	}
}
