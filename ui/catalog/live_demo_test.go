package catalog

import (
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit/screentest"
)

// demoKeys answers the demo server's questions the way a person would.
func demoKeys(kind model.QuestionKind, round int, q *model.Question) []tea.Msg {
	keys := screentest.Keys
	typ := screentest.Type
	switch kind {
	case model.AskElicitForm:
		switch p := string(q.Params); {
		case strings.Contains(p, `"role"`): // interview: pick a role, give years
			return append(append(keys("right", "down"), typ("7")...), keys("ctrl+s")...)
		case strings.Contains(p, `"reveal"`): // demo://secret
			return keys("space", "ctrl+s")
		case !strings.Contains(p, `"email"`):
			return keys("ctrl+s")
		}
		out := keys("down")
		out = append(out, typ("ada@example.com")...)
		if strings.Contains(string(q.Params), `"age"`) {
			// name, email, website, birthday, meeting, height, age
			out = append(out, keys("down", "down", "down", "down", "down")...)
			out = append(out, typ("36")...)
		}
		return append(out, keys("ctrl+s")...)
	case model.AskElicitURL:
		return keys("a")
	case model.AskSampling:
		if strings.Contains(string(q.Params), `"tools"`) && !strings.Contains(string(q.Params), `"tool_result"`) {
			// sample_with_tools, first round: call get_weather.
			return append(append(keys("ctrl+t"), typ("Lisbon")...), keys("ctrl+s")...)
		}
		return append(typ("Terminals glow softly / keys click in the night / servers answer back"), keys("ctrl+s")...)
	case model.AskRoots:
		return keys("ctrl+s")
	}
	return nil
}

func demoServer(t *testing.T, versions []string, answers *answerers) *live {
	return startLive(t, os.Args[0], []string{"-test.run=^$"}, []conn.EnvVar{{Name: envDemo, Value: ptr("1")}}, versions, answers)
}

func ptr(s string) *string { return &s }

// TestLiveDemo exercises every demo tool, resource, template and prompt
// through the catalog on 2026-07-28 (the demo's preferred version).
func TestLiveDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the demo server")
	}
	answers := newAnswerers(demoKeys)
	l := demoServer(t, nil, answers)
	l.waitFor("Tools 22", "Resources 5", "Templates 2", "Prompts 4", "2026-07-28")
	record := func(what, s string) { t.Logf("%-28s %s", what, s) }

	s := l.call("t", "echo", func() { l.typeIn("hello from the catalog"); l.keys("ctrl+s") }, "item(s) ·", "hello from the catalog")
	record("tool echo", l.lineOf(s, "hello from"))
	s = l.call("t", "structured", func() { l.keys("ctrl+s") }, "structuredContent matches the outputSchema")
	record("tool structured", l.lineOf(s, "outputSchema"))
	s = l.call("t", "image", func() { l.keys("ctrl+s") }, "64×64 png")
	record("tool image", l.lineOf(s, "64×64"))
	s = l.call("t", "fail", func() { l.keys("ctrl+s") }, "✗ tool error")
	record("tool fail", l.lineOf(s, "isError"))
	s = l.call("t", "large", func() { l.keys("ctrl+s") }, "text · 1.0 MiB")
	record("tool large", l.lineOf(s, "1.0 MiB"))
	s = l.call("t", "hostile", func() { l.keys("ctrl+s") }, "item(s) ·", `\x1b`)
	record("tool hostile", l.lineOf(s, `\x1b`))
	s = l.call("t", "rpc_error", func() { l.keys("ctrl+s") }, "tools/call rpc_error failed")
	record("tool rpc_error", l.lineOf(s, "failed"))
	s = l.call("t", "progress", func() {
		l.keys("ctrl+u")
		l.typeIn("4")
		l.keys("down", "ctrl+u")
		l.typeIn("100")
		l.keys("ctrl+s")
	}, "tools/call progress ·", "item(s) ·")
	record("tool progress", l.lineOf(s, "progress"))

	// Logging: set the level, then the log tool's messages show by level.
	l.keys("L", "enter")
	l.waitFor("log level set to debug")
	l.call("t", "log", func() { l.keys("ctrl+s") }, "tools/call log ·")
	l.keys("g")
	s = l.waitFor("the catalog's events", "emergency", "demo.log:")
	record("tool log → Log tab", l.lineOf(s, "emergency"))

	// The server's questions, answered through the editors.
	s = l.call("t", "elicit_form", func() { l.keys("ctrl+s") }, "tools/call elicit_form ·", "ada@example.com")
	record("tool elicit_form", l.lineOf(s, "ada@example.com"))
	s = l.call("t", "elicit_url", func() { l.keys("ctrl+s") }, "tools/call elicit_url ·")
	record("tool elicit_url", l.lineOf(s, "1 text"))
	s = l.call("t", "sample", func() { l.keys("ctrl+s") }, "tools/call sample ·", "Terminals glow softly")
	record("tool sample", l.lineOf(s, "Terminals"))
	s = l.call("t", "sample_with_tools", func() { l.keys("ctrl+s") }, "tools/call sample_with_tools ·", "get_weather", "Terminals glow")
	record("tool sample_with_tools", l.lineOf(s, "get_weather"))
	s = l.call("t", "roots", func() { l.keys("ctrl+s") }, "tools/call roots ·", "file:///home/me/project")
	record("tool roots", l.lineOf(s, "file:///home/me/project"))

	// List changes: the catalog's own subscription relists with a diff.
	l.call("t", "toggle_tool", func() { l.keys("ctrl+s") }, "tools/call toggle_tool ·")
	s = l.waitFor("+ surprise", "+1 added")
	record("tool toggle_tool", l.lineOf(s, "since the last listing"))
	l.call("t", "toggle_resource", func() { l.keys("ctrl+s") }, "tools/call toggle_resource ·")
	l.keys("R")
	s = l.waitFor("+ demo://surprise")
	record("tool toggle_resource", l.lineOf(s, "+ demo://surprise"))
	l.call("t", "toggle_prompt", func() { l.keys("ctrl+s") }, "tools/call toggle_prompt ·")
	l.keys("p")
	s = l.waitFor("+ surprise")
	record("tool toggle_prompt", l.lineOf(s, "since the last listing"))

	// A subscription to demo://counter, then bump: the update is logged.
	l.keys("s")
	l.waitFor("updates of demo://counter")
	l.keys("down", "down", "down", "down", "space", "enter")
	l.waitFor("1 subscription(s)")
	l.call("t", "bump", func() { l.keys("ctrl+s") }, "tools/call bump ·")
	l.keys("g")
	s = l.waitFor("resource updated: demo://counter")
	record("tool bump (subscribed)", l.lineOf(s, "resource updated"))

	// slow: cancelled while it runs.
	l.call("t", "slow", func() {
		l.keys("ctrl+s")
		l.waitFor("waiting for tools/call slow")
		l.keys("c")
	}, "cancelled tools/call slow")
	record("tool slow", "cancelled: notifications/cancelled sent")

	// Resources, templates with completion, prompts with completion.
	s = l.call("R", "demo://readme", nil, "resources/read demo://readme", "text/markdown")
	record("resource demo://readme", l.lineOf(s, "text/markdown"))
	s = l.call("R", "demo://logo.png", nil, "resources/read demo://logo.png", "png")
	record("resource demo://logo.png", l.lineOf(s, "png"))
	s = l.call("R", "demo://counter", nil, "resources/read demo://counter")
	record("resource demo://counter", l.lineOf(s, "contents"))
	s = l.call("R", "demo://clock", nil, "resources/read demo://clock")
	record("resource demo://clock", l.lineOf(s, "contents"))
	s = l.call("R", "demo://secret", nil, "resources/read demo://secret")
	record("resource demo://secret", l.lineOf(s, "contents"))
	s = l.call("T", "demo://colors/{name}", func() {
		l.typeIn("re")
		l.waitFor("suggestions: red")
		l.keys("enter", "ctrl+s")
	}, "resources/read demo://colors/red")
	record("template colors (completed)", l.lineOf(s, "resources/read"))
	s = l.call("T", "demo://teams/{team}/members/{member}", func() {
		l.waitFor("fills {team}", "suggestions:")
		l.keys("enter", "tab")
		l.waitFor("fills {member}", "suggestions: alice")
		l.keys("enter", "ctrl+s")
	}, "resources/read demo://teams/")
	record("template members (context)", l.lineOf(s, "resources/read"))
	s = l.call("p", "greet", func() {
		l.typeIn("Ada")
		l.keys("tab")
		l.typeIn("pi")
		l.waitFor("suggestions: pirate")
		l.keys("enter", "ctrl+s")
	}, "prompts/get greet", "user ·")
	record("prompt greet", l.lineOf(s, "user ·"))
	s = l.call("p", "code_review", func() {
		l.typeIn("g")
		l.waitFor("suggestions: Go")
		l.keys("enter", "tab")
		l.typeIn("func main() {}")
		l.keys("ctrl+s")
	}, "prompts/get code_review", "user ·")
	record("prompt code_review", l.lineOf(s, "user ·"))
	s = l.call("p", "describe_resource", func() {
		l.typeIn("demo://readme")
		l.keys("ctrl+s")
	}, "prompts/get describe_resource", "embedded resource")
	record("prompt describe_resource", l.lineOf(s, "embedded resource"))
	s = l.call("p", "interview", func() { l.keys("ctrl+s") }, "prompts/get interview ·", "user ·")
	record("prompt interview", l.lineOf(s, "user ·"))

	for _, a := range answers.seen {
		t.Logf("answered: %s", a)
	}
}

// TestLiveDemoLegacy does the server's questions and list changes on
// 2025-11-25, where they arrive as server requests and notifications.
func TestLiveDemoLegacy(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the demo server")
	}
	answers := newAnswerers(demoKeys)
	l := demoServer(t, []string{mcp.Version20251125}, answers)
	l.waitFor("Tools 22", "2025-11-25")
	l.call("t", "elicit_form", func() { l.keys("ctrl+s") }, "tools/call elicit_form ·", "ada@example.com")
	l.call("t", "sample_with_tools", func() { l.keys("ctrl+s") }, "get_weather", "Terminals glow")
	l.call("t", "roots", func() { l.keys("ctrl+s") }, "file:///home/me/project")
	l.call("t", "toggle_tool", func() { l.keys("ctrl+s") }, "tools/call toggle_tool ·")
	l.waitFor("+ surprise", "+1 added")
	// Roots edited in the catalog: list_changed goes out, and the
	// server's next roots/list gets the new list.
	l.keys("o", "a", "ctrl+u")
	l.typeIn("/srv/data")
	l.keys("enter", "ctrl+s")
	l.waitFor("sent notifications/roots/list_changed")
	l.call("t", "roots", func() { l.keys("ctrl+s") }, "file:///srv/data")
}

// lineOf is the first line of s that contains sub.
func (l *live) lineOf(s, sub string) string {
	for _, ln := range strings.Split(s, "\n") {
		if strings.Contains(ln, sub) {
			return strings.TrimSpace(ln)
		}
	}
	return ""
}
