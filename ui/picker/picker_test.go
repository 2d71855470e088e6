package picker

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/hostconfig"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/themes"
)

func servers() []hostconfig.Server {
	return []hostconfig.Server{
		{Name: "remote", Host: hostconfig.VSCode, File: "/p/.vscode/mcp.json", Transport: hostconfig.HTTP, URL: "https://example.test/mcp"},
		{Name: "demo", Host: hostconfig.ClaudeDesktop, File: "/h/claude_desktop_config.json", Transport: hostconfig.Stdio, Command: "mcptui", Args: []string{"demo-server"},
			Env: []hostconfig.EnvVar{{Name: "TOKEN", Value: "ghp_notshown"}}},
		{Name: "evil\x1b]0;pwned\x07", Host: hostconfig.Cursor, File: "/h/.cursor/mcp.json", Transport: hostconfig.Stdio, Command: "x\x1b[2J"},
	}
}

func press(m tea.Model, keys ...string) tea.Model {
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "backspace":
			msg = tea.KeyPressMsg{Code: tea.KeyBackspace}
		default:
			msg = tea.KeyPressMsg{Code: rune(k[0]), Text: k}
		}
		m, _ = m.Update(msg)
	}
	return m
}

func screen(m tea.Model) string { return ansi.Strip(m.(Model).View().Content) }

func TestPickerChoosesAStdioServer(t *testing.T) {
	st := themes.New(themes.Mono())
	var m tea.Model = New(servers(), []error{errors.New("/h/.claude.json: not a JSON object")}, st)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	s := screen(m)
	for _, want := range []string{"Servers in your host configs (3)", "https://example.test/mcp", "mcptui demo-server", "unreadable: /h/.claude.json", "enter open server"} {
		if !strings.Contains(s, want) {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "\x1b]0;") || strings.Contains(m.(Model).View().Content, "\x1b[2J") {
		t.Errorf("a server name or command reached the terminal raw")
	}
	m = press(m, "j")
	if !strings.Contains(screen(m), "env   TOKEN") || strings.Contains(screen(m), "ghp_notshown") {
		t.Errorf("the details show environment names, never values:\n%s", screen(m))
	}
	m = press(m, "enter")
	got, ok := m.(Model).Chosen()
	if !ok || got.Name != "demo" {
		t.Errorf("chosen %v %v, want demo", got.Name, ok)
	}
}

// TestPickerOpensAnHTTPServer: an HTTP entry opens like a stdio one (the
// inspector speaks Streamable HTTP and HTTP+SSE), with the user's keys.
func TestPickerOpensAnHTTPServer(t *testing.T) {
	keys := keymap.Default()
	if err := keys.Rebind(map[string][]string{"picker.open": {"o"}}); err != nil {
		t.Fatal(err)
	}
	var m tea.Model = New(servers(), nil, themes.New(themes.Mono())).WithKeys(keys)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 100, Height: 24})
	if !strings.Contains(screen(m), "o open server") {
		t.Errorf("the hint does not name the rebound key:\n%s", screen(m))
	}
	if m = press(m, "enter"); m.(Model).chosen != nil {
		t.Fatal("the default enter still opens with open rebound to o")
	}
	m = press(m, "o")
	got, ok := m.(Model).Chosen()
	if !ok || got.URL != "https://example.test/mcp" {
		t.Fatalf("o on the HTTP entry chose %+v %v", got, ok)
	}
}

func TestPickerFilters(t *testing.T) {
	var m tea.Model = New(servers(), nil, themes.New(themes.Mono()))
	m = press(m, "/", "c", "u", "r", "s", "o", "r", "enter")
	s := screen(m)
	if strings.Contains(s, "demo-server") || !strings.Contains(s, `evil\x1b`) {
		t.Errorf("filter cursor: want only the Cursor entry:\n%s", s)
	}
	m = press(m, "/", "backspace", "backspace", "backspace", "backspace", "backspace", "backspace", "x", "y", "z", "esc")
	if !strings.Contains(screen(m), "no server matches the filter") {
		t.Errorf("a filter matching nothing:\n%s", screen(m))
	}
	if m = press(m, "enter"); func() bool { _, ok := m.(Model).Chosen(); return ok }() {
		t.Error("enter with nothing shown chose a server")
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	if cmd == nil {
		t.Error("q does not quit")
	}
}
