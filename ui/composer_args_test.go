package ui

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/catalog/argstore"
)

// composerServer offers a tool with a schema worth a form, a prompt and a
// resource template, to compose requests for.
type composerServer struct{ richServer }

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

// ctrl is ctrl and a letter; arrow an arrow key.
func ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }

var (
	right = tea.KeyPressMsg{Code: tea.KeyRight}
	left  = tea.KeyPressMsg{Code: tea.KeyLeft}
)

// composeTest opens the composer over composerServer (its offer listed),
// with the method field emptied.
func composeTest(t *testing.T, w, h int, store *argstore.Store, keys *keymap.KeyMap) (*Model, *uitest.Backend) {
	t.Helper()
	fb := uitest.New()
	m := New(Options{Backend: fb, Now: now, Tick: -1, Theme: "dark", NoBell: true, Catalog: composerServer{}, ArgStore: store, Keys: keys,
		Session: model.New(model.Config{Timeout: 30 * time.Second})})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.Update(EventsMsg{Events: uitest.Session()})
	_, cmd := m.Update(keyMsg("n"))
	run(t, m, cmd)
	if m.composer == nil || m.composer.offer == nil {
		t.Fatal("the composer has no offer")
	}
	m.composer.method.SetValue("")
	return m, fb
}

// pickTarget completes method, then picks target from its picker.
func pickTarget(t *testing.T, m *Model, method, target string) {
	t.Helper()
	typeText(m, method)
	press(m, "enter")
	typeText(m, target)
	press(m, "enter")
	if m.composer.args == nil {
		t.Fatalf("no arguments form for %s %s:\n%s", method, target, screen(m))
	}
}

func sentParams(t *testing.T, fb *uitest.Backend) string {
	t.Helper()
	c := fb.Calls()
	if len(c) != 1 || c[0].Method != "Call" {
		t.Fatalf("calls = %+v", c)
	}
	return string(c[0].Request.Params)
}

// Choosing a tool opens its inputSchema as fields: required marked, the
// default prefilled and selected (typing replaces it), an enum stepped
// with arrows; what is sent is what the form shows.
func TestComposerToolArgumentsForm(t *testing.T) {
	m, fb := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, m, "tools/call", "forecast")
	s := screen(m)
	for _, want := range []string{"arguments", "city *", "days", "units *", "3"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the form lacks %q:\n%s", want, s)
		}
	}
	typeText(m, "Oslo")
	press(m, "tab")
	typeText(m, "7") // replaces the default 3: not 37
	press(m, "tab")
	m.Update(right)
	if s := screen(m); !strings.Contains(s, "Oslo") || !strings.Contains(s, "‹ c ›") {
		t.Fatalf("the form does not show what was typed:\n%s", s)
	}
	run(t, m, press(m, "ctrl+s"))
	if got, want := sentParams(t, fb), `{"name":"forecast","arguments":{"city":"Oslo","days":7,"units":"c"}}`; got != want {
		t.Errorf("sent %s, want %s", got, want)
	}
}

// A field the schema requires, left empty, is an error on the field, and
// nothing is sent until it is fixed.
func TestComposerArgumentsValidatedPerField(t *testing.T) {
	m, fb := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, m, "tools/call", "forecast")
	press(m, "ctrl+s")
	if len(fb.Calls()) != 0 || !strings.Contains(m.composer.err, "problem(s)") {
		t.Fatalf("sent with required fields empty (err %q)", m.composer.err)
	}
	s := screen(m)
	if !strings.Contains(s, "✗") || !strings.Contains(s, "fix the fields marked ✗") {
		t.Fatalf("no error on the fields:\n%s", s)
	}
	typeText(m, "Bergen")
	press(m, "tab", "tab")
	m.Update(left)
	run(t, m, press(m, "ctrl+s"))
	if got := sentParams(t, fb); got != `{"name":"forecast","arguments":{"city":"Bergen","days":3,"units":"f"}}` {
		t.Errorf("sent %s", got)
	}
}

// ctrl+r shows the params as JSON made from the form; edited there, the
// form is filled from them on the way back; JSON that does not parse, or
// that the form cannot show, stays in the editor with the reason.
func TestComposerRawParamsStayInSync(t *testing.T) {
	m, fb := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, m, "tools/call", "forecast")
	typeText(m, "Oslo")
	m.Update(ctrl('r'))
	c := m.composer
	if !c.args.raw || !strings.Contains(c.params.Value(), `"city": "Oslo"`) || !strings.Contains(c.params.Value(), `"days": 3`) {
		t.Fatalf("raw params %q", c.params.Value())
	}
	if s := screen(m); !strings.Contains(s, `"name": "forecast"`) || !strings.Contains(s, "back to the form") {
		t.Fatalf("the raw params are not shown:\n%s", s)
	}
	broken := `{"name":"forecast","arguments":{"city":"Oslo",`
	c.params.SetValue(broken)
	m.Update(ctrl('r'))
	if !c.args.raw || c.params.Value() != broken || !strings.Contains(c.err, "not a JSON object") {
		t.Fatalf("broken JSON: raw %v, text %q, err %q", c.args.raw, c.params.Value(), c.err)
	}
	press(m, "ctrl+s")
	if len(fb.Calls()) != 0 {
		t.Fatal("broken JSON was sent")
	}
	wrongType := `{"name":"forecast","arguments":{"city":"Oslo","days":"many"}}`
	c.params.SetValue(wrongType)
	m.Update(ctrl('r'))
	if !c.args.raw || c.params.Value() != wrongType || !strings.Contains(c.err, "cannot show") {
		t.Fatalf("a mismatch: raw %v, err %q", c.args.raw, c.err)
	}
	c.params.SetValue(`{"name":"forecast","arguments":{"city":"Rome","days":5,"units":"f"},"_meta":{"trace":"t1"}}`)
	m.Update(ctrl('r'))
	if c.args.raw || c.err != "" {
		t.Fatalf("back to the form: raw %v, err %q", c.args.raw, c.err)
	}
	if s := screen(m); !strings.Contains(s, "Rome") || !strings.Contains(s, "‹ f ›") || !strings.Contains(s, "also sent: _meta") {
		t.Fatalf("the form does not show the JSON's values:\n%s", s)
	}
	run(t, m, press(m, "ctrl+s"))
	if got, want := sentParams(t, fb), `{"name":"forecast","arguments":{"city":"Rome","days":5,"units":"f"},"_meta":{"trace":"t1"}}`; got != want {
		t.Errorf("sent %s, want %s", got, want)
	}
}

// Raw params naming another tool open that tool's form.
func TestComposerRawParamsNameAnotherTool(t *testing.T) {
	m, fb := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, m, "tools/call", "forecast")
	m.Update(ctrl('r'))
	m.composer.params.SetValue(`{"name":"echo","arguments":{"message":"hi"}}`)
	m.Update(ctrl('r'))
	c := m.composer
	if c.err != "" || c.args == nil || c.args.raw || c.args.target != "echo" || c.target.Value() != "echo" {
		t.Fatalf("err %q args %+v target %q", c.err, c.args, c.target.Value())
	}
	run(t, m, press(m, "ctrl+s"))
	if got := sentParams(t, fb); got != `{"name":"echo","arguments":{"message":"hi"}}` {
		t.Errorf("sent %s", got)
	}
}

// The arguments last sent to a tool (through the composer or the catalog:
// one store) fill its form, marked ↺; ctrl+z puts back the schema's
// defaults; what is sent is remembered.
func TestComposerRemembersArguments(t *testing.T) {
	store, err := argstore.Open(filepath.Join(t.TempDir(), "arguments.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Put("composer", argstore.Tool, "forecast", json.RawMessage(`{"city":"Lima","days":9,"units":"c"}`)); err != nil {
		t.Fatal(err)
	}
	m, fb := composeTest(t, 100, 30, store, nil)
	pickTarget(t, m, "tools/call", "forecast")
	s := screen(m)
	if !strings.Contains(s, "Lima") || !strings.Contains(s, "↺ last call") || !strings.Contains(s, "3 value(s) ↺ from the last call") || !strings.Contains(s, "ctrl+z") {
		t.Fatalf("remembered values not shown:\n%s", s)
	}
	typeText(m, "Quito") // the remembered Lima is selected: replaced
	press(m, "tab")
	m.Update(ctrl('z'))
	if s := screen(m); strings.Contains(s, "Lima") || strings.Contains(s, "Quito") || strings.Contains(s, "↺") || !strings.Contains(s, " 3 ") {
		t.Fatalf("ctrl+z did not put back the defaults:\n%s", s)
	}
	typeText(m, "Quito")
	press(m, "tab", "tab")
	m.Update(right)
	for _, msg := range run(t, m, press(m, "ctrl+s")) {
		m.Update(msg)
	}
	if got := sentParams(t, fb); got != `{"name":"forecast","arguments":{"city":"Quito","days":3,"units":"c"}}` {
		t.Errorf("sent %s", got)
	}
	if b, _ := store.Get("composer", argstore.Tool, "forecast"); string(b) != `{"city":"Quito","days":3,"units":"c"}` {
		t.Errorf("remembered %s", b)
	}
}

// prompts/get: the prompt's arguments as fields, required marked.
func TestComposerPromptArguments(t *testing.T) {
	m, fb := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, m, "prompts/get", "greet")
	s := screen(m)
	if !strings.Contains(s, "name *") || !strings.Contains(s, "style") || !strings.Contains(s, "who to greet") {
		t.Fatalf("prompt form:\n%s", s)
	}
	typeText(m, "Ada")
	run(t, m, press(m, "ctrl+s"))
	if got := sentParams(t, fb); got != `{"name":"greet","arguments":{"name":"Ada"}}` {
		t.Errorf("sent %s", got)
	}
}

// resources/read on a template: its variables as fields, the URI they
// make shown and sent.
func TestComposerTemplateVariables(t *testing.T) {
	m, fb := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, m, "resources/read", "demo://color/{name}")
	typeText(m, "teal")
	if s := screen(m); !strings.Contains(s, "variables") || !strings.Contains(s, "→ demo://color/teal") {
		t.Fatalf("template form:\n%s", s)
	}
	run(t, m, press(m, "ctrl+s"))
	if got := sentParams(t, fb); got != `{"uri":"demo://color/teal"}` {
		t.Errorf("sent %s", got)
	}
	// The URI edited away from the template in the raw params: the
	// template is left, and the params stay JSON, sent as typed.
	m.Update(keyMsg("n"))
	press(m, "tab", "tab", "tab", "tab")
	if m.composer.field != fieldParams || m.composer.args == nil {
		t.Fatalf("field %d args %v", m.composer.field, m.composer.args)
	}
	m.Update(ctrl('r'))
	m.composer.params.SetValue(`{"uri":"demo://readme"}`)
	m.Update(ctrl('r'))
	if c := m.composer; c.args != nil || c.target.Value() != "demo://readme" || !strings.Contains(c.err, "no longer comes from the template") {
		t.Fatalf("args %v target %q err %q", c.args, c.target.Value(), c.err)
	}
	run(t, m, press(m, "ctrl+s"))
	if c := fb.Calls(); len(c) != 2 || string(c[1].Request.Params) != `{"uri":"demo://readme"}` {
		t.Fatalf("calls %+v", c)
	}
	// A plain resource has no variables: its params stay JSON.
	m2, _ := composeTest(t, 100, 30, nil, nil)
	typeText(m2, "resources/read")
	press(m2, "enter")
	typeText(m2, "demo://readme")
	press(m2, "enter")
	if m2.composer.args != nil || !strings.Contains(m2.composer.params.Value(), `"uri": "demo://readme"`) {
		t.Fatalf("a plain resource: args %v params %q", m2.composer.args, m2.composer.params.Value())
	}
}

// tab past the form's last field goes on to the composer's own fields;
// shift+tab from the method comes back to the form's last field; a method
// changed by hand leaves the form, its values kept as JSON params.
func TestComposerFormAmongFields(t *testing.T) {
	m, _ := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, m, "tools/call", "forecast")
	c := m.composer
	typeText(m, "Oslo")
	press(m, "tab", "tab")
	if c.field != fieldParams {
		t.Fatalf("left the form early: field %d", c.field)
	}
	press(m, "tab")
	if c.field != fieldMethod {
		t.Fatalf("tab past the last field: field %d", c.field)
	}
	press(m, "shift+tab")
	if c.field != fieldParams || !c.args.form.AtLast() {
		t.Fatalf("shift+tab: field %d", c.field)
	}
	// Around again (method, tool, timeout, progress): the form starts at
	// its first field, its text selected, so typing replaces it.
	press(m, "tab", "tab", "tab", "tab", "tab")
	if c.field != fieldParams || !c.args.form.AtFirst() {
		t.Fatalf("tab into the form: field %d, at its first %v", c.field, c.args.form.AtFirst())
	}
	typeText(m, "Rome")
	if city := c.args.form.Value().Props[0]; city.Text != "Rome" {
		t.Fatalf("city %q", city.Text)
	}
	press(m, "shift+tab", "shift+tab", "shift+tab", "shift+tab")
	if c.field != fieldMethod {
		t.Fatalf("shift+tab back to the method: field %d", c.field)
	}
	typeText(m, "x")
	if c.args != nil || !strings.Contains(c.params.Value(), `"days": 3`) {
		t.Fatalf("a changed method keeps the form: %+v, params %q", c.args, c.params.Value())
	}
}

// The composer's hints and help follow a rebinding of the form's keys.
func TestComposerFormKeysRebound(t *testing.T) {
	keys := keymap.Default()
	if err := keys.Rebind(map[string][]string{"form.raw": {"ctrl+g"}, "form.reset": {"ctrl+y"}}); err != nil {
		t.Fatal(err)
	}
	store, _ := argstore.Open(filepath.Join(t.TempDir(), "arguments.json"))
	_ = store.Put("composer", argstore.Tool, "forecast", json.RawMessage(`{"city":"Lima"}`))
	m, _ := composeTest(t, 160, 48, store, &keys)
	pickTarget(t, m, "tools/call", "forecast")
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
	if !m.composer.args.raw {
		t.Fatal("the rebound key does not open the raw params")
	}
}

// enter on the method and the tool already chosen keeps the form and what
// it holds; a paste in the form goes to its focused field.
func TestComposerFormKeptAndPastedInto(t *testing.T) {
	m, fb := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, m, "tools/call", "forecast")
	m.Update(tea.PasteMsg{Content: "Reykjavík"})
	press(m, "shift+tab", "shift+tab", "shift+tab", "shift+tab") // back to the method
	if m.composer.field != fieldMethod {
		t.Fatalf("field %d", m.composer.field)
	}
	press(m, "enter", "enter")
	c := m.composer
	if c.field != fieldParams || c.args == nil || c.args.form.Value().Props[0].Text != "Reykjavík" {
		t.Fatalf("the form was not kept: field %d args %+v", c.field, c.args)
	}
	press(m, "tab", "tab")
	m.Update(right)
	run(t, m, press(m, "ctrl+s"))
	if got := sentParams(t, fb); got != `{"name":"forecast","arguments":{"city":"Reykjavík","days":3,"units":"c"}}` {
		t.Errorf("sent %s", got)
	}
}
