package composer

import (
	"slices"

	"charm.land/bubbles/v2/key"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/ui/catalog/argstore"
)

// Choosing a tool opens its inputSchema as fields: required marked, the
// default prefilled and selected (typing replaces it), an enum stepped
// with arrows; what is sent is what the form shows.
func TestComposerToolArgumentsForm(t *testing.T) {
	h, fb := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, h, "tools/call", "forecast")
	s := h.screen()
	for _, want := range []string{"arguments", "city *", "days", "units *", "3"} {
		if !strings.Contains(s, want) {
			t.Fatalf("the form lacks %q:\n%s", want, s)
		}
	}
	h.typeText("Oslo")
	h.press("tab")
	h.typeText("7") // replaces the default 3: not 37
	h.press("tab")
	h.update(right)
	if s := h.screen(); !strings.Contains(s, "Oslo") || !strings.Contains(s, "‹ c ›") {
		t.Fatalf("the form does not show what was typed:\n%s", s)
	}
	h.run(t, h.press("ctrl+s"))
	if got, want := sentParams(t, fb), `{"name":"forecast","arguments":{"city":"Oslo","days":7,"units":"c"}}`; got != want {
		t.Errorf("sent %s, want %s", got, want)
	}
}

// A field the schema requires, left empty, is an error on the field, and
// nothing is sent until it is fixed.
func TestComposerArgumentsValidatedPerField(t *testing.T) {
	h, fb := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, h, "tools/call", "forecast")
	h.press("ctrl+s")
	if len(fb.Calls()) != 0 || !strings.Contains(h.c.err, "problem(s)") {
		t.Fatalf("sent with required fields empty (err %q)", h.c.err)
	}
	s := h.screen()
	if !strings.Contains(s, "✗") || !strings.Contains(s, "fix the fields marked ✗") {
		t.Fatalf("no error on the fields:\n%s", s)
	}
	h.typeText("Bergen")
	h.press("tab", "tab")
	h.update(left)
	h.run(t, h.press("ctrl+s"))
	if got := sentParams(t, fb); got != `{"name":"forecast","arguments":{"city":"Bergen","days":3,"units":"f"}}` {
		t.Errorf("sent %s", got)
	}
}

// ctrl+r shows the params as JSON made from the form; edited there, the
// form is filled from them on the way back; JSON that does not parse, or
// that the form cannot show, stays in the editor with the reason.
func TestComposerRawParamsStayInSync(t *testing.T) {
	h, fb := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, h, "tools/call", "forecast")
	h.typeText("Oslo")
	h.update(ctrl('r'))
	c := h.c
	if !c.args.raw || !strings.Contains(c.params.Value(), `"city": "Oslo"`) || !strings.Contains(c.params.Value(), `"days": 3`) {
		t.Fatalf("raw params %q", c.params.Value())
	}
	if s := h.screen(); !strings.Contains(s, `"name": "forecast"`) || !strings.Contains(s, "back to the form") {
		t.Fatalf("the raw params are not shown:\n%s", s)
	}
	broken := `{"name":"forecast","arguments":{"city":"Oslo",`
	c.params.SetValue(broken)
	h.update(ctrl('r'))
	if !c.args.raw || c.params.Value() != broken || !strings.Contains(c.err, "not a JSON object") {
		t.Fatalf("broken JSON: raw %v, text %q, err %q", c.args.raw, c.params.Value(), c.err)
	}
	h.press("ctrl+s")
	if len(fb.Calls()) != 0 {
		t.Fatal("broken JSON was sent")
	}
	wrongType := `{"name":"forecast","arguments":{"city":"Oslo","days":"many"}}`
	c.params.SetValue(wrongType)
	h.update(ctrl('r'))
	if !c.args.raw || c.params.Value() != wrongType || !strings.Contains(c.err, "cannot show") {
		t.Fatalf("a mismatch: raw %v, err %q", c.args.raw, c.err)
	}
	c.params.SetValue(`{"name":"forecast","arguments":{"city":"Rome","days":5,"units":"f"},"_meta":{"trace":"t1"}}`)
	h.update(ctrl('r'))
	if c.args.raw || c.err != "" {
		t.Fatalf("back to the form: raw %v, err %q", c.args.raw, c.err)
	}
	if s := h.screen(); !strings.Contains(s, "Rome") || !strings.Contains(s, "‹ f ›") || !strings.Contains(s, "also sent: _meta") {
		t.Fatalf("the form does not show the JSON's values:\n%s", s)
	}
	h.run(t, h.press("ctrl+s"))
	if got, want := sentParams(t, fb), `{"name":"forecast","arguments":{"city":"Rome","days":5,"units":"f"},"_meta":{"trace":"t1"}}`; got != want {
		t.Errorf("sent %s, want %s", got, want)
	}
}

// Raw params naming another tool open that tool's form.
func TestComposerRawParamsNameAnotherTool(t *testing.T) {
	h, fb := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, h, "tools/call", "forecast")
	h.update(ctrl('r'))
	h.c.params.SetValue(`{"name":"echo","arguments":{"message":"hi"}}`)
	h.update(ctrl('r'))
	c := h.c
	if c.err != "" || c.args == nil || c.args.raw || c.args.target != "echo" || c.target.Value() != "echo" {
		t.Fatalf("err %q args %+v target %q", c.err, c.args, c.target.Value())
	}
	h.run(t, h.press("ctrl+s"))
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
	h, fb := composeTest(t, 100, 30, store, nil)
	pickTarget(t, h, "tools/call", "forecast")
	s := h.screen()
	if !strings.Contains(s, "Lima") || !strings.Contains(s, "↺ last call") || !strings.Contains(s, "3 value(s) ↺ from the last call") || !strings.Contains(s, "ctrl+z") {
		t.Fatalf("remembered values not shown:\n%s", s)
	}
	h.typeText("Quito") // the remembered Lima is selected: replaced
	h.press("tab")
	h.update(ctrl('z'))
	if s := h.screen(); strings.Contains(s, "Lima") || strings.Contains(s, "Quito") || strings.Contains(s, "↺") || !strings.Contains(s, " 3 ") {
		t.Fatalf("ctrl+z did not put back the defaults:\n%s", s)
	}
	h.typeText("Quito")
	h.press("tab", "tab")
	h.update(right)
	for _, msg := range h.run(t, h.press("ctrl+s")) {
		h.update(msg)
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
	h, fb := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, h, "prompts/get", "greet")
	s := h.screen()
	if !strings.Contains(s, "name *") || !strings.Contains(s, "style") || !strings.Contains(s, "who to greet") {
		t.Fatalf("prompt form:\n%s", s)
	}
	h.typeText("Ada")
	h.run(t, h.press("ctrl+s"))
	if got := sentParams(t, fb); got != `{"name":"greet","arguments":{"name":"Ada"}}` {
		t.Errorf("sent %s", got)
	}
}

// resources/read on a template: its variables as fields, the URI they
// make shown and sent.
func TestComposerTemplateVariables(t *testing.T) {
	h, fb := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, h, "resources/read", "demo://color/{name}")
	h.typeText("teal")
	if s := h.screen(); !strings.Contains(s, "variables") || !strings.Contains(s, "→ demo://color/teal") {
		t.Fatalf("template form:\n%s", s)
	}
	h.run(t, h.press("ctrl+s"))
	if got := sentParams(t, fb); got != `{"uri":"demo://color/teal"}` {
		t.Errorf("sent %s", got)
	}
	// The URI edited away from the template in the raw params: the
	// template is left, and the params stay JSON, sent as typed.
	h.open(t)
	h.press("tab", "tab", "tab", "tab")
	if h.c.field != fieldParams || h.c.args == nil {
		t.Fatalf("field %d args %v", h.c.field, h.c.args)
	}
	h.update(ctrl('r'))
	h.c.params.SetValue(`{"uri":"demo://readme"}`)
	h.update(ctrl('r'))
	if c := h.c; c.args != nil || c.target.Value() != "demo://readme" || !strings.Contains(c.err, "no longer comes from the template") {
		t.Fatalf("args %v target %q err %q", c.args, c.target.Value(), c.err)
	}
	h.run(t, h.press("ctrl+s"))
	if c := fb.Calls(); len(c) != 2 || string(c[1].Request.Params) != `{"uri":"demo://readme"}` {
		t.Fatalf("calls %+v", c)
	}
	// A plain resource has no variables: its params stay JSON.
	h2, _ := composeTest(t, 100, 30, nil, nil)
	h2.typeText("resources/read")
	h2.press("enter")
	h2.typeText("demo://readme")
	h2.press("enter")
	if h2.c.args != nil || !strings.Contains(h2.c.params.Value(), `"uri": "demo://readme"`) {
		t.Fatalf("a plain resource: args %v params %q", h2.c.args, h2.c.params.Value())
	}
}

// tab past the form's last field goes on to the composer's own fields;
// shift+tab from the method comes back to the form's last field; a method
// changed by hand leaves the form, its values kept as JSON params.
func TestComposerFormAmongFields(t *testing.T) {
	h, _ := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, h, "tools/call", "forecast")
	c := h.c
	h.typeText("Oslo")
	h.press("tab", "tab")
	if c.field != fieldParams {
		t.Fatalf("left the form early: field %d", c.field)
	}
	h.press("tab")
	if c.field != fieldMethod {
		t.Fatalf("tab past the last field: field %d", c.field)
	}
	h.press("shift+tab")
	if c.field != fieldParams || !c.args.form.AtLast() {
		t.Fatalf("shift+tab: field %d", c.field)
	}
	// Around again (method, tool, timeout, progress): the form starts at
	// its first field, its text selected, so typing replaces it.
	h.press("tab", "tab", "tab", "tab", "tab")
	if c.field != fieldParams || !c.args.form.AtFirst() {
		t.Fatalf("tab into the form: field %d, at its first %v", c.field, c.args.form.AtFirst())
	}
	h.typeText("Rome")
	if city := c.args.form.Value().Props[0]; city.Text != "Rome" {
		t.Fatalf("city %q", city.Text)
	}
	h.press("shift+tab", "shift+tab", "shift+tab", "shift+tab")
	if c.field != fieldMethod {
		t.Fatalf("shift+tab back to the method: field %d", c.field)
	}
	h.typeText("x")
	if c.args != nil || !strings.Contains(c.params.Value(), `"days": 3`) {
		t.Fatalf("a changed method keeps the form: %+v, params %q", c.args, c.params.Value())
	}
}

// The composer's hints and its keys for the help (ui's
// TestComposerFormKeysReboundInHelp draws the help) follow a rebinding of the form's keys.
func TestComposerFormKeysRebound(t *testing.T) {
	keys := keymap.Default()
	if err := keys.Rebind(map[string][]string{"form.raw": {"ctrl+g"}, "form.reset": {"ctrl+y"}}); err != nil {
		t.Fatal(err)
	}
	store, _ := argstore.Open(filepath.Join(t.TempDir(), "arguments.json"))
	_ = store.Put("composer", argstore.Tool, "forecast", json.RawMessage(`{"city":"Lima"}`))
	h, _ := composeTest(t, 160, 48, store, &keys)
	pickTarget(t, h, "tools/call", "forecast")
	s := h.screen()
	if !strings.Contains(s, "ctrl+g raw JSON params") || !strings.Contains(s, "ctrl+y schema defaults") || strings.Contains(s, "ctrl+r") || strings.Contains(s, "ctrl+z") {
		t.Fatalf("hints do not follow the rebinding:\n%s", s)
	}
	if ks := h.c.Keys(h); !slices.ContainsFunc(ks, func(b key.Binding) bool { return b.Help().Key == "ctrl+g" }) {
		t.Fatalf("the keys for the help do not follow the rebinding: %v", ks)
	}
	h.update(ctrl('g'))
	if !h.c.args.raw {
		t.Fatal("the rebound key does not open the raw params")
	}
}

// enter on the method and the tool already chosen keeps the form and what
// it holds; a paste in the form goes to its focused field.
func TestComposerFormKeptAndPastedInto(t *testing.T) {
	h, fb := composeTest(t, 100, 30, nil, nil)
	pickTarget(t, h, "tools/call", "forecast")
	h.update(tea.PasteMsg{Content: "Reykjavík"})
	h.press("shift+tab", "shift+tab", "shift+tab", "shift+tab") // back to the method
	if h.c.field != fieldMethod {
		t.Fatalf("field %d", h.c.field)
	}
	h.press("enter", "enter")
	c := h.c
	if c.field != fieldParams || c.args == nil || c.args.form.Value().Props[0].Text != "Reykjavík" {
		t.Fatalf("the form was not kept: field %d args %+v", c.field, c.args)
	}
	h.press("tab", "tab")
	h.update(right)
	h.run(t, h.press("ctrl+s"))
	if got := sentParams(t, fb); got != `{"name":"forecast","arguments":{"city":"Reykjavík","days":3,"units":"c"}}` {
		t.Errorf("sent %s", got)
	}
}
