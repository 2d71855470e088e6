package ui

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/ui/catalog/argstore"
	"github.com/mcptui/mcptui/ui/composer"
)

// The composer's own tests are ui/composer's; these are the program's
// around it: n opens it, its request goes through the backend and its
// outcome to the status line, esc closes it, the help lists its keys.

// composerServer offers a tool with a schema worth a form, a prompt and a
// resource template, to compose requests for.
type composerServer struct{ richServer }

var forecastTool = mcp.Tool{Name: "forecast", InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","default":3},"units":{"type":"string","enum":["c","f"]}},"required":["city","units"]}`)}

func (composerServer) ListTools(ctx context.Context) ([]mcp.Tool, error) {
	echo, _ := richServer{}.ListTools(ctx)
	return append([]mcp.Tool{forecastTool}, echo...), nil
}
func (composerServer) ListPrompts(context.Context) ([]mcp.Prompt, error) {
	return []mcp.Prompt{{Name: "greet", Arguments: []mcp.PromptArgument{
		{Name: "name", Description: "who to greet", Required: true}, {Name: "style"}}}}, nil
}
func (composerServer) ListResources(context.Context) ([]mcp.Resource, error) {
	return []mcp.Resource{{URI: "demo://readme", Name: "readme"}}, nil
}
func (composerServer) ListResourceTemplates(context.Context) ([]mcp.ResourceTemplate, error) {
	return []mcp.ResourceTemplate{{URITemplate: "demo://color/{name}", Name: "color"}}, nil
}
func (composerServer) Info() backend.CatalogInfo {
	return backend.CatalogInfo{Version: mcp.Version20251125, Name: "composer", Key: "composer",
		Capabilities: mcp.ServerCapabilities{Tools: &mcp.ListChangedCapability{}, Prompts: &mcp.ListChangedCapability{},
			Resources: &mcp.ResourcesCapability{}}}
}

// ctrl is ctrl and a letter.
func ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }

// TestComposerSendsThroughTheProgram: n opens the composer on top; what
// it sends goes through the program's backend, it closes, and the status
// line says it was sent, then what came back (overlay.Done).
func TestComposerSendsThroughTheProgram(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	press(m, "n")
	if !topIs[*composer.Composer[*Model]](m) || !strings.Contains(screen(m), "New request") {
		t.Fatalf("composer not open:\n%s", screen(m))
	}
	m.Update(ctrl('u'))
	typeText(m, "ping")
	cmd := press(m, "ctrl+s")
	if m.top() != nil || !strings.Contains(m.notice, "sent ping…") {
		t.Fatalf("after sending: overlay %T, notice %q", m.top(), m.notice)
	}
	run(t, m, cmd)
	if c := fb.Calls(); len(c) != 1 || c[0].Method != "Call" || c[0].Request.Method != "ping" {
		t.Fatalf("calls = %+v", c)
	}
	if !strings.Contains(m.notice, "ping answered (2 B)") || m.noticeErr {
		t.Errorf("notice = %q (error %v)", m.notice, m.noticeErr)
	}
	press(m, "n")
	if !topIs[*composer.Composer[*Model]](m) || !strings.Contains(screen(m), "ping") {
		t.Fatalf("the composer does not open again on the last request:\n%s", screen(m))
	}
	press(m, "esc")
	if m.top() != nil {
		t.Fatalf("esc left %T open", m.top())
	}
}

// TestComposerFormKeysReboundInHelp: the help opened over the composer's
// arguments form lists its keys as rebound.
func TestComposerFormKeysReboundInHelp(t *testing.T) {
	keys := keymap.Default()
	if err := keys.Rebind(map[string][]string{"form.raw": {"ctrl+g"}, "form.reset": {"ctrl+y"}}); err != nil {
		t.Fatal(err)
	}
	store, _ := argstore.Open(filepath.Join(t.TempDir(), "arguments.json"))
	_ = store.Put("composer", argstore.Tool, "forecast", json.RawMessage(`{"city":"Lima"}`))
	m := New(Options{Backend: uitest.New(), Now: now, Tick: -1, Theme: "dark", NoBell: true, Catalog: composerServer{}, ArgStore: store, Keys: &keys})
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	m.Update(EventsMsg{Events: uitest.Session()})
	run(t, m, press(m, "n"))
	m.Update(ctrl('u'))
	typeText(m, "tools/call")
	press(m, "enter")
	typeText(m, "forecast")
	press(m, "enter")
	s := screen(m)
	if !strings.Contains(s, "ctrl+g raw JSON params") || !strings.Contains(s, "ctrl+y schema defaults") || strings.Contains(s, "ctrl+r") || strings.Contains(s, "ctrl+z") {
		t.Fatalf("hints do not follow the rebinding:\n%s", s)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyF1})
	if s := screen(m); !strings.Contains(s, "ctrl+g") || strings.Contains(s, "ctrl+r") {
		t.Fatalf("help does not follow the rebinding:\n%s", s)
	}
	press(m, "esc")
	m.Update(ctrl('g'))
	if s := screen(m); !strings.Contains(s, "back to the form") {
		t.Fatalf("the rebound key does not open the raw params:\n%s", s)
	}
}
