package catalog

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/hostprofile"
	"github.com/mcptui/mcptui/internal/snapshot"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/ui/catalog/marks"
	"github.com/mcptui/mcptui/ui/kit/screentest"
)

// baselineOf is a snapshot of a server listing tools.
func baselineOf(t *testing.T, version string, tools []mcp.Tool) *snapshot.Document {
	t.Helper()
	s := snapshot.Surface{Protocol: version, Tools: []json.RawMessage{}}
	for _, tl := range tools {
		n, err := snapshot.Normalize(tl.Raw)
		if err != nil {
			t.Fatal(err)
		}
		s.Tools = append(s.Tools, n)
	}
	return &snapshot.Document{Format: snapshot.Format, Version: snapshot.Version, Eras: []snapshot.Surface{s}}
}

// toolOf is a tool as a server lists it.
func toolOf(t *testing.T, v map[string]any) mcp.Tool {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var tl mcp.Tool
	if err := json.Unmarshal(raw, &tl); err != nil {
		t.Fatal(err)
	}
	tl.Raw = raw
	return tl
}

// with is tl as listed with member k set to v.
func with(t *testing.T, tl mcp.Tool, k string, v any) map[string]any {
	t.Helper()
	var o map[string]any
	if err := json.Unmarshal(tl.Raw, &o); err != nil {
		t.Fatal(err)
	}
	o[k] = v
	return o
}

// TestCatalogMarks: with a baseline and a host and a model chosen, the
// catalog marks each tool's change since the baseline by class (B R A),
// the tools that break the host's or the model's rules (H), says which
// and why in the details, counts the removed ones, and gives the list's
// context cost; without them it marks nothing (the golden screens).
func TestCatalogMarks(t *testing.T) {
	f := newFake("demo")
	base := baselineOf(t, f.version, f.tools)
	long := "a_tool_whose_name_is_long_enough_to_break_the_limit_once_prefixed"
	var tools []mcp.Tool
	for _, tl := range f.tools {
		switch tl.Name {
		case "exit":
			continue // removed: breaking
		case "echo": // reworded: risky
			tl = toolOf(t, with(t, tl, "description", tl.Description+" Louder."))
		case "bump": // a required argument: breaking
			tl = toolOf(t, with(t, tl, "inputSchema", map[string]any{
				"type": "object", "properties": map[string]any{"by": map[string]any{"type": "integer"}}, "required": []string{"by"}}))
		}
		tools = append(tools, tl)
	}
	tools = append(tools, toolOf(t, map[string]any{"name": long, "description": "New, with an array Gemini refuses.", "inputSchema": map[string]any{
		"type": "object", "properties": map[string]any{"list": map[string]any{"type": "array"}}}}))
	f.tools = tools
	hosts, err := hostprofile.ParseHosts("claude-code")
	if err != nil {
		t.Fatal(err)
	}
	models, err := hostprofile.ParseModels("gemini")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &marks.Config{Baseline: base, BaselineName: "base.json", Hosts: hosts, Models: models, ServerName: "demo"}
	m := newTestWith(t, f, func(o *Options) { o.Marks = cfg })
	// The marks' own Cmds, not screentest.Drain, which gives up on a Cmd
	// slower than CmdWait (loading the tokenizer on a busy machine is).
	// The rules' marks come first, without the cost; the cost follows.
	cost := m.Update(m.workMarks(Tools)())
	if m.lists[Tools].ms == nil || cost == nil {
		t.Fatalf("no marks for the tools list, or no cost to follow: %v", cost)
	}
	if got := m.lists[Tools].ms.Of(long); got == nil || len(got.Breaks) == 0 || got.Tokens != 0 || m.ContextCost() != "" {
		t.Fatalf("the rules' marks: %+v, cost %q; want breaks before any cost", got, m.ContextCost())
	}
	runSync(m, cost)
	row := func(name string) string {
		for _, l := range strings.Split(screen(m), "\n") {
			if i := strings.Index(l, " "+name); i >= 0 && strings.Contains(l, "│") {
				return strings.TrimSpace(l[:strings.Index(l, "│")])
			}
		}
		t.Fatalf("no row %s:\n%s", name, screen(m))
		return ""
	}
	for name, want := range map[string]string{"echo": "R  echo", "bump": "B  bump", "a_tool_whose": "AH a_tool_whose", "burst": "burst"} {
		if got := row(name); !strings.HasPrefix(got, want) {
			t.Errorf("row %s: %q; want it to start %q", name, got, want)
		}
	}
	mustContain(t, m, "vs base.json: B 2 breaking R 1 risky A 1 additive (1 removed: exit)", "H 1 tool breaks a rule of claude-code, gemini")

	selectTool(m, "echo")
	mustContain(t, m, "R risky since the baseline: description reworded (description)", "{+Louder.+}")
	selectTool(m, "bump")
	mustContain(t, m, "B breaking since the baseline: required argument by added")
	selectTool(m, long)
	mustContain(t, m, "A additive since the baseline: new tool",
		"H claude-code: the name the model sees,", "mcp__demo__"+long[:40], "is 76 characters, over the 64-character limit",
		"H gemini: inputSchema /properties/list:", "context cost: ")
	if c := m.ContextCost(); !strings.Contains(c, "tokens for 22 tools") || !strings.Contains(c, "o200k_base") {
		t.Errorf("context cost %q", c)
	}

	// A listing that arrives after the marks were asked for drops them.
	gen := m.lists[Tools].gen
	cmd := m.workMarks(Tools)
	feed(m, m.refresh(Tools)())
	feed(m, cmd())
	if m.lists[Tools].gen == gen || m.lists[Tools].ms.Of("echo") == nil {
		t.Fatal("the new listing lost its marks, or the stale ones were not told apart")
	}

	plain := newTest(t, newFake("demo"), nil)
	mustNotContain(t, plain, "vs base", "marking")
}

// TestResultOverACapIsMarked: with claude-code chosen, a tool's result
// over its 25,000-token cap is marked on the result of that call.
func TestResultOverACapIsMarked(t *testing.T) {
	f := newFake("demo")
	b, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": strings.Repeat("lorem ipsum dolor sit amet, ", 150_000/28)}}})
	f.results["large"] = string(b)
	f.results["bump"] = `{"content":[{"type":"text","text":"hi"}]}`
	m := newTestWith(t, f, func(o *Options) { o.Marks = &marks.Config{Hosts: hostprofile.Hosts()[:1]} })
	call := func(name string) {
		selectTool(m, name)
		press(m, "enter") // the form
		if m.page != pageForm {
			t.Fatalf("%s: no form: %q", name, m.notice)
		}
		// The call's own Cmds, not screentest.Drain, which gives up on
		// a Cmd slower than CmdWait (counting 150 KB of tokens on a busy
		// machine is).
		runSync(m, m.Update(screentest.Key("ctrl+s")))
		if m.page != pageResult {
			t.Fatalf("%s: no result: page %v %q", name, m.page, m.notice)
		}
	}
	call("large")
	mustContain(t, m, "over claude-code's result cap: ", "(MAX_MCP_OUTPUT_TOKENS)")
	press(m, "esc", "esc")
	call("bump")
	mustNotContain(t, m, "cap")
}

// runSync runs cmd and what follows from it, each Cmd to its end.
func runSync(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			runSync(m, c)
		}
	default:
		runSync(m, m.Update(msg))
	}
}
