package catalog

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/answer"
	"github.com/mcptui/mcptui/ui/catalog/argstore"
	"github.com/mcptui/mcptui/ui/kit/screentest"
)

// cmds leaves out the catalog's listeners: a subscription's next
// notification and an App's next log line, which no test sends unasked.
func cmds() screentest.Cmds {
	return screentest.Cmds{Listeners: []string{"(*Model).next", "(*Model).waitAppLog"}}
}

var t0 = time.Date(2026, 11, 30, 9, 30, 0, 0, time.UTC)

func fixedNow() time.Time { return t0 }

// newTest builds a catalog over f, sized and listed.
func newTest(t testing.TB, f *fake, store *argstore.Store) *Model {
	t.Helper()
	return newTestWith(t, f, func(o *Options) { o.Store = store })
}

// newTestWith is newTest with options of its own.
func newTestWith(t testing.TB, f *fake, set func(*Options)) *Model {
	t.Helper()
	o := Options{Server: f, Styles: themes.New(themes.Dark()), Now: fixedNow,
		NoAutoListen: true, Tick: -1, SaveDir: t.TempDir(),
		Roots: answer.NewRootList([]model.Root{{URI: "file:///home/me/project"}})}
	set(&o)
	m := New(o)
	t.Cleanup(m.Stop)
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	feedCmd(m, m.Init())
	return m
}

// feedCmd runs a Cmd and feeds what it produces back, recursively.
func feedCmd(m *Model, cmd tea.Cmd) {
	for _, msg := range cmds().Drain(cmd) {
		feedCmd(m, m.Update(msg))
	}
}

// feed sends messages and what their Cmds produce.
func feed(m *Model, msgs ...tea.Msg) {
	for _, msg := range msgs {
		feedCmd(m, m.Update(msg))
	}
}

func press(m *Model, keys ...string) { feed(m, screentest.Keys(keys...)...) }
func typeIn(m *Model, s string)      { feed(m, screentest.Type(s)...) }

// screen is the catalog drawn as plain text.
func screen(m *Model) string {
	lines := m.View(120, 40)
	for i, l := range lines {
		lines[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	return strings.Join(lines, "\n")
}

func mustContain(t *testing.T, m *Model, want ...string) {
	t.Helper()
	s := screen(m)
	for _, w := range want {
		if !strings.Contains(s, w) {
			t.Fatalf("the screen lacks %q:\n%s", w, s)
		}
	}
}

func mustNotContain(t *testing.T, m *Model, unwanted ...string) {
	t.Helper()
	s := screen(m)
	for _, w := range unwanted {
		if strings.Contains(s, w) {
			t.Fatalf("the screen shows %q:\n%s", w, s)
		}
	}
}

func selectTool(m *Model, name string) {
	m.setTab(Tools)
	for rows, i := m.lists[Tools].rows(""), 0; i < rows.len(); i++ {
		if r := rows.at(i); r.it.name == name {
			m.lists[Tools].cursor = i
		}
	}
}

func TestListsFilterAndDetails(t *testing.T) {
	f := newFake("everything")
	m := newTest(t, f, nil)
	mustContain(t, m, "Tools 17", "Resources 7", "Templates 2", "Prompts 4", "echo", "get-annotated-message")
	press(m, "/")
	typeIn(m, "trig")
	mustContain(t, m, "trigger-long-running-operation", "trigger-elicitation-request")
	if s := screen(m); strings.Contains(s, " get-sum") {
		t.Errorf("the filter lets get-sum through:\n%s", s)
	}
	press(m, "enter")
	mustContain(t, m, "filter trig (4 shown)")
	press(m, "esc") // clears the filter
	if m.filters[Tools] != "" || m.WantsClose() {
		t.Error("esc did not clear the filter first")
	}
	selectTool(m, "get-structured-content")
	mustContain(t, m, "[read-only]", "structured output", "input schema", "output schema", `"location"`)
	press(m, "esc")
	if !m.WantsClose() {
		t.Error("esc at the top does not close")
	}
}

func TestListChangedDiff(t *testing.T) {
	f := newFake("demo")
	m := newTest(t, f, nil)
	f.mu.Lock()
	f.tools = f.tools[1:] // bump goes
	f.tools[0].Description = "changed"
	f.tools[0].Raw = json.RawMessage(`{"name":"burst","description":"changed"}`)
	f.tools = append(f.tools, mcp.Tool{Name: "surprise", Raw: json.RawMessage(`{"name":"surprise"}`)})
	f.mu.Unlock()
	feed(m, NotificationMsg{N: mcp.Notification{Method: mcp.NotificationToolsChanged}})
	mustContain(t, m, "+1 added", "−1 removed", "~1 changed", "+ surprise", "~ burst", "− bump", "Tools 22 ±3")
	m.setTab(Log)
	mustContain(t, m, "tools list changed: listing again", "Tools changed: +1 −1 ~1")
}

func TestCallToolRememberedArgs(t *testing.T) {
	f := newFake("everything")
	f.results["get-sum"] = `{"content":[{"type":"text","text":"The sum of 2 and 40 is 42."}]}`
	store, _ := argstore.Open(filepath.Join(t.TempDir(), "args.json"))
	m := newTest(t, f, store)
	selectTool(m, "get-sum")
	press(m, "enter")
	mustContain(t, m, "Call tool get-sum", "First number", "options: default timeout · progress · reset on progress")
	press(m, "ctrl+s")
	mustContain(t, m, "2 problem(s)", "✗ required")
	typeIn(m, "2")
	press(m, "tab")
	typeIn(m, "40")
	press(m, "ctrl+s")
	mustContain(t, m, "tools/call get-sum", "The sum of 2 and 40 is 42.")
	if len(f.calls) != 1 || f.calls[0] != `tools/call {"arguments":{"a":2,"b":40},"name":"get-sum"}` {
		t.Fatalf("calls %q", f.calls)
	}
	// Call options: a _meta object goes with the call.
	press(m, "esc", "ctrl+g", "down", "down", "down")
	typeIn(m, `{"trace":"abc"}`)
	press(m, "ctrl+s")
	if len(f.calls) != 2 || f.calls[1] != `tools/call {"_meta":{"trace":"abc"},"arguments":{"a":2,"b":40},"name":"get-sum"}` {
		t.Fatalf("calls %q", f.calls)
	}
	f.calls = f.calls[:1]
	// A new catalog (a new run) fills the form with the last arguments.
	m2 := newTest(t, f, mustOpen(t, store))
	selectTool(m2, "get-sum")
	press(m2, "enter")
	// Issue 18 item 10: the form says which values are remembered, the
	// value of the field entered is selected, so typing replaces it.
	mustContain(t, m2, "2 value(s) ↺ from the last call · ctrl+z schema defaults", "↺ last call")
	press(m2, "ctrl+s")
	if len(f.calls) != 2 || f.calls[1] != f.calls[0] {
		t.Errorf("calls %q", f.calls)
	}
	m3 := newTest(t, f, mustOpen(t, store))
	selectTool(m3, "get-sum")
	press(m3, "enter")
	typeIn(m3, "7")
	mustContain(t, m3, "1 value(s) ↺ from the last call")
	press(m3, "ctrl+s")
	if want := `tools/call {"arguments":{"a":7,"b":40},"name":"get-sum"}`; len(f.calls) != 3 || f.calls[2] != want {
		t.Errorf("typing on a remembered value: calls %q, want %s", f.calls, want)
	}
	// One key back to the schema's defaults: nothing remembered is sent.
	m4 := newTest(t, f, mustOpen(t, store))
	selectTool(m4, "get-sum")
	press(m4, "enter", "ctrl+z")
	mustNotContain(t, m4, "↺")
	press(m4, "ctrl+s")
	mustContain(t, m4, "2 problem(s)")
}

func mustOpen(t *testing.T, s *argstore.Store) *argstore.Store {
	t.Helper()
	path := reflectPath(s)
	again, err := argstore.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return again
}

func TestResultKinds(t *testing.T) {
	f := newFake("everything")
	f.results["get-structured-content"] = `{"content":[{"type":"text","text":"{\"temperature\":22.5,\"conditions\":\"Partly cloudy\",\"humidity\":65}"}],"structuredContent":{"temperature":22.5,"conditions":"Partly cloudy","humidity":65}}`
	m := newTest(t, f, nil)
	selectTool(m, "get-structured-content")
	press(m, "enter", "right", "ctrl+s")
	mustContain(t, m, "structuredContent matches the outputSchema", "text · JSON", `"conditions": "Partly cloudy"`, "structured content")
	press(m, "esc")
	f.results["get-structured-content"] = `{"content":[],"structuredContent":{"temperature":"hot"}}`
	press(m, "ctrl+s")
	mustContain(t, m, "violates the outputSchema", "/temperature: got string, want number", "/conditions: required")
	press(m, "esc")
	f.results["get-structured-content"] = `{"content":[{"type":"text","text":"Unknown city"}],"isError":true}`
	press(m, "ctrl+s")
	mustContain(t, m, "✗ tool error", "the tool reported an error (isError: true)", "Unknown city")
	press(m, "esc", "esc")

	f.results["get-resource-links"] = `{"content":[{"type":"text","text":"Here are 2 links"},{"type":"resource_link","uri":"demo://resource/dynamic/text/1","name":"Resource 1","description":"a text resource","mimeType":"text/plain"},{"type":"image","mimeType":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEklEQVR4nGP4z8DAwMDAwMAAAA8EAf1YY6/LAAAAAElFTkSuQmCC"},{"type":"resource","resource":{"uri":"demo://resource/static/document/a.md","mimeType":"text/markdown","text":"# Embedded"}}]}`
	selectTool(m, "get-resource-links")
	press(m, "enter", "ctrl+s")
	mustContain(t, m, "resource link · enter reads it", "→ demo://resource/dynamic/text/1", "image, 75 B, 2×3 png", "embedded resource · 10 B · text/markdown")
	// The link opens a read, stacked over the result.
	m.results[0].cursor = 3
	press(m, "enter")
	mustContain(t, m, "resources/read demo://resource/dynamic/text/1", "(2 deep: esc goes back)", "The text of demo://resource/dynamic/text/1.")
	press(m, "esc")
	mustContain(t, m, "tools/call get-resource-links")
}

func TestCopyAndSave(t *testing.T) {
	f := newFake("everything")
	f.results["get-tiny-image"] = `{"content":[{"type":"image","mimeType":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEklEQVR4nGP4z8DAwMDAwMAAAA8EAf1YY6/LAAAAAElFTkSuQmCC"}]}`
	m := newTest(t, f, nil)
	selectTool(m, "get-tiny-image")
	press(m, "enter", "ctrl+s")
	if cmd := m.Update(screentest.Key("y")); cmd == nil {
		t.Error("y returned no clipboard Cmd")
	}
	press(m, "w")
	d := m.dlg.save
	if d == nil || !strings.HasSuffix(d.path.Value(), ".png") {
		t.Fatalf("save dialog %+v", d)
	}
	path := d.path.Value()
	press(m, "enter")
	b, err := os.ReadFile(path)
	if err != nil || len(b) != 75 || string(b[1:4]) != "PNG" {
		t.Fatalf("%d bytes, %v", len(b), err)
	}
	press(m, "W")
	whole := m.dlg.save.path.Value()
	press(m, "enter")
	if b, err := os.ReadFile(whole); err != nil || !strings.Contains(string(b), `"mimeType": "image/png"`) {
		t.Fatalf("%s %v", b, err)
	}
	// An existing file is not overwritten.
	press(m, "W")
	m.dlg.save.path.Set(whole)
	press(m, "enter")
	mustContain(t, m, "not saved:", "file exists")
}

func TestTemplateCompletion(t *testing.T) {
	f := newFake("everything")
	m := newTest(t, f, nil)
	m.setTab(Templates)
	press(m, "enter")
	mustContain(t, m, "Read from template demo://resource/dynamic/text/{resourceId}", "suggestions: 1  2  3  10")
	typeIn(m, "1")
	mustContain(t, m, "suggestions: 1  10", "→ demo://resource/dynamic/text/1")
	press(m, "alt+down", "enter")
	mustContain(t, m, "→ demo://resource/dynamic/text/10")
	press(m, "ctrl+s")
	mustContain(t, m, "resources/read demo://resource/dynamic/text/10", "The text of")
}

func TestPromptCompletionAndMessages(t *testing.T) {
	f := newFake("everything")
	m := newTest(t, f, nil)
	m.setTab(Prompts)
	for rows, i := m.lists[Prompts].rows(""), 0; i < rows.len(); i++ {
		if r := rows.at(i); r.it.name == "completable-prompt" {
			m.lists[Prompts].cursor = i
		}
	}
	press(m, "enter")
	typeIn(m, "E")
	mustContain(t, m, "suggestions: Engineering")
	press(m, "enter", "tab")
	typeIn(m, "A")
	press(m, "enter", "ctrl+s")
	mustContain(t, m, "prompts/get completable-prompt", "user · text", "assistant · text", `Arguments: {"department":"Engineering","name":"Alice"}`)
}

func TestLogLevelMessagesAndSubscriptions(t *testing.T) {
	f := newFake("everything")
	m := newTest(t, f, nil)
	press(m, "L", "down", "down", "enter")
	if f.level != "notice" || m.log.Conn().LogLevel != "notice" {
		t.Fatalf("level %q %q", f.level, m.log.Conn().LogLevel)
	}
	for _, l := range []string{"debug", "error"} {
		feed(m, NotificationMsg{N: mcp.Notification{Method: mcp.NotificationMessage, Params: json.RawMessage(`{"level":"` + l + `","logger":"demo","data":"a ` + l + ` message \u001b[31m"}`)}})
	}
	press(m, "g")
	mustContain(t, m, "level notice", "debug", "a debug message \\x1b[31m", "error", "demo:")
	press(m, "s", "down", "down", "space", "down", "space", "enter")
	if len(f.listens) != 1 || !f.listens[0].ResourcesListChanged || len(f.listens[0].ResourceSubscriptions) != 1 {
		t.Fatalf("listens %+v", f.listens)
	}
	mustContain(t, m, "opened subscription: accepted", "1 subscription(s)")
}

// A server without the logging capability is not sent logging/setLevel:
// the dialog does not open and the notice says why.
func TestLogLevelNeedsTheCapability(t *testing.T) {
	f := newFake("everything")
	f.noLogging = true
	m := newTest(t, f, nil)
	press(m, "L")
	if f.level != "" {
		t.Fatalf("logging/setLevel sent (%q) to a server without logging", f.level)
	}
	mustContain(t, m, "the server declares no logging capability")
}

func TestTask(t *testing.T) {
	f := newFake("everything")
	f.results["simulate-research-query"] = `{"task":{"taskId":"t-1","status":"working","statusMessage":"researching","pollInterval":10,"ttl":60000}}`
	f.results["tasks/get"] = `{"taskId":"t-1","status":"completed","statusMessage":"done","pollInterval":10}`
	f.results["tasks/result"] = `{"content":[{"type":"text","text":"Research report: MCP"}]}`
	m := newTest(t, f, nil)
	selectTool(m, "simulate-research-query")
	press(m, "enter")
	mustContain(t, m, "as a task")
	typeIn(m, "MCP")
	press(m, "ctrl+s")
	mustContain(t, m, "task t-1 of simulate-research-query", "Research report: MCP")
	if !strings.Contains(f.calls[0], `"task":{"ttl":300000}`) || !strings.HasPrefix(f.calls[1], "tasks/get") || !strings.HasPrefix(f.calls[2], "tasks/result") {
		t.Errorf("calls %q", f.calls)
	}
}

// "As a task" is offered only on 2025-11-25 with tasks.requests.tools.call
// declared (or on the 2026-07-28 extension); otherwise the form has no
// such option and the tools/call carries no task.
func TestTaskNeedsTheCapability(t *testing.T) {
	for _, tc := range []struct {
		name, version string
		tasks         json.RawMessage
	}{
		{"no tasks capability", mcp.Version20251125, nil},
		{"tasks without tools.call", mcp.Version20251125, json.RawMessage(`{"list":{},"requests":{}}`)},
		{"2025-06-18", mcp.Version20250618, json.RawMessage(`{"requests":{"tools":{"call":{}}}}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake("everything")
			f.version, f.tasks = tc.version, tc.tasks
			f.results["simulate-research-query"] = `{"content":[{"type":"text","text":"plain answer"}]}`
			m := newTest(t, f, nil)
			selectTool(m, "simulate-research-query")
			mustContain(t, m, "not offered as a task")
			press(m, "enter")
			if strings.Contains(screen(m), "as a task") {
				t.Fatalf("as a task offered:\n%s", screen(m))
			}
			typeIn(m, "MCP")
			press(m, "ctrl+s")
			mustContain(t, m, "plain answer")
			if len(f.calls) != 1 || strings.Contains(f.calls[0], `"task"`) {
				t.Errorf("calls %q", f.calls)
			}
		})
	}
}

// A 2025-11-25 task that reaches input_required gets tasks/result at once,
// over which the server asks its question; its answer is the result.
func TestTaskInputRequiredSendsTasksResult(t *testing.T) {
	f := newFake("everything")
	f.results["simulate-research-query"] = `{"task":{"taskId":"t-1","status":"working","pollInterval":10,"ttl":60000}}`
	// Without the tasks/result the task would wait for ever; the fake
	// gives up (cancelled) after two more polls.
	f.sequence["tasks/get"] = []string{
		`{"taskId":"t-1","status":"input_required","statusMessage":"which depth?","pollInterval":10}`,
		`{"taskId":"t-1","status":"input_required","statusMessage":"which depth?","pollInterval":10}`,
	}
	f.results["tasks/get"] = `{"taskId":"t-1","status":"cancelled","statusMessage":"nobody answered","pollInterval":10}`
	f.results["tasks/result"] = `{"content":[{"type":"text","text":"Research report: deep"}]}`
	m := newTest(t, f, nil)
	selectTool(m, "simulate-research-query")
	press(m, "enter")
	typeIn(m, "MCP")
	press(m, "ctrl+s")
	mustContain(t, m, "task t-1 of simulate-research-query", "Research report: deep")
	if len(f.calls) < 3 || !strings.HasPrefix(f.calls[1], "tasks/get") || !strings.HasPrefix(f.calls[2], "tasks/result") {
		t.Errorf("calls %q", f.calls)
	}
	n := 0
	for _, c := range f.calls {
		if strings.HasPrefix(c, "tasks/result") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("tasks/result sent %d times: %q", n, f.calls)
	}
}

func TestProgressAndCancel(t *testing.T) {
	f := newFake("everything")
	f.block = make(chan struct{})
	m := newTest(t, f, nil)
	selectTool(m, "trigger-long-running-operation")
	press(m, "enter")
	cmd := m.Update(screentest.Key("ctrl+s"))
	if m.page != pageRunning {
		t.Fatalf("page %d", m.page)
	}
	m.Update(runMsg{id: m.run.id, progress: &progressValue})
	mustContain(t, m, "waiting for tools/call trigger-long-running-operation", "2/5", "step 2 of 5", "c cancels it")
	// esc goes back to the lists and never cancels: the call goes on.
	press(m, "esc")
	if m.page != pageList || m.Running() != 1 || m.run.cancelled {
		t.Fatalf("esc: page %d, running %d", m.page, m.Running())
	}
	mustContain(t, m, "goes on (pane 1 shows it)")
	// Back on its page, c cancels it.
	m.page = pageRunning
	press(m, "c")
	// The call returns once cancelled.
	for _, msg := range cmds().Drain(cmd) {
		m.Update(msg)
	}
	mustContain(t, m, "cancelled tools/call trigger-long-running-operation")
}

func TestRootsFromCatalog(t *testing.T) {
	f := newFake("everything")
	m := newTest(t, f, nil)
	press(m, "o", "a", "ctrl+u")
	typeIn(m, "/srv/data")
	press(m, "enter", "ctrl+s")
	if len(f.notified) != 1 || f.notified[0] != mcp.NotificationRootsListChanged {
		t.Fatalf("notified %q", f.notified)
	}
	if got := m.opts.Roots.Get(); len(got) != 2 || got[1].URI != "file:///srv/data" {
		t.Errorf("roots %v", got)
	}
}

// TestCallTimerIsTheCommandLines: a tool call's options start from the
// command line's --timeout (it was a fixed 60 s whatever --timeout said),
// say so, and the call is sent without a timer of its own, so that the
// session applies --timeout.
func TestCallTimerIsTheCommandLines(t *testing.T) {
	for _, tc := range []struct {
		def  time.Duration
		want string
	}{
		{5 * time.Second, "options: timeout 5s (default) · progress"},
		{-1, "options: timeout none (default) · progress"},
	} {
		f := newFake("everything")
		f.results["echo"] = `{"content":[{"type":"text","text":"hi"}]}`
		m := New(Options{Server: f, Styles: themes.New(themes.Dark()), Now: fixedNow,
			NoAutoListen: true, Tick: -1, SaveDir: t.TempDir(), DefaultTimeout: tc.def})
		t.Cleanup(m.Stop)
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		feedCmd(m, m.Init())
		selectTool(m, "echo")
		press(m, "enter")
		mustContain(t, m, tc.want)
		typeIn(m, "hi")
		press(m, "ctrl+s")
		mustContain(t, m, "tools/call echo")
		if len(f.timeouts) != 1 || f.timeouts[0] != 0 {
			t.Errorf("--timeout %v: the call's own timers %v; want [0] (the default)", tc.def, f.timeouts)
		}
	}
}
