package form

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/mcptui/mcptui/internal/schemaform"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/kit"
	"github.com/mcptui/mcptui/ui/kit/screentest"
)

// elicitSchema is the everything server's elicitation form.
func elicitSchema(t testing.TB) *schemaform.Form {
	t.Helper()
	b, err := os.ReadFile("../../internal/schemaform/testdata/corpus/everything/elicit-trigger-elicitation-request.json")
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	f, err := schemaform.Compile(p.RequestedSchema)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func hardSchema(t testing.TB, name string) *schemaform.Form {
	t.Helper()
	b, err := os.ReadFile("../../internal/schemaform/testdata/hard/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	f, err := schemaform.Compile(b)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// host shows a form in a box, and submits on ctrl+s.
type host struct {
	m    *Model
	w, h int
	sent json.RawMessage
}

func newHost(f *schemaform.Form) *host {
	m := New(f, nil, themes.New(themes.Dark()))
	m.SetClock(func() time.Time { return time.Date(2026, 11, 30, 9, 30, 0, 0, time.UTC) })
	return &host{m: m}
}

func (h *host) Init() tea.Cmd { return nil }
func (h *host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		h.w, h.h = msg.Width, msg.Height
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+s" {
			if inst, ok := h.m.Submit(); ok {
				h.sent = inst
			}
			return h, nil
		}
		return h, h.m.Update(msg)
	}
	return h, nil
}
func (h *host) View() tea.View {
	if h.w == 0 {
		return tea.NewView("")
	}
	title := "form"
	if h.sent != nil {
		title = "sent " + string(h.sent)
	}
	return tea.NewView(kit.Box(h.m.st, h.w, h.h, title, true, h.m.View(h.w-2, h.h-2)))
}

func press(h *host, keys ...string) {
	for _, k := range keys {
		h.Update(screentest.Key(k))
	}
}

func typeIn(h *host, s string) {
	for _, m := range screentest.Type(s) {
		h.Update(m)
	}
}

func TestFillEverythingElicitation(t *testing.T) {
	h := newHost(elicitSchema(t))
	h.Update(tea.WindowSizeMsg{Width: 80, Height: 30})
	press(h, "ctrl+s")
	if h.sent != nil || len(h.m.Errors().At("/name")) != 1 {
		t.Fatalf("sent %s, errors %v", h.sent, h.m.Errors())
	}
	typeIn(h, "Ada Lovelace")
	if len(h.m.Errors()) != 0 {
		t.Errorf("errors stay after the fix: %v", h.m.Errors())
	}
	press(h, "down", "space")  // check
	press(h, "down", "ctrl+d") // firstLine left out
	press(h, "down")
	typeIn(h, "ada@example.com")
	press(h, "enter")
	typeIn(h, "https://ada.example")
	press(h, "down", "ctrl+t") // birthdate: today
	press(h, "down", "backspace", "backspace")
	typeIn(h, "77")
	press(h, "down", "ctrl+u")
	typeIn(h, "12.5")
	press(h, "down", "right", "right")                                 // Monica → Joey
	press(h, "down", "down", "down", "space")                          // untitled multi: Guitar stays, + Piano
	press(h, "down", "down", "down", "down", "left")                   // titled single: hero-1 → hero-3
	press(h, "down", "down", "down", "space")                          // titled multi: + Salmon
	press(h, "down", "down", "enter", "down", "down", "down", "enter") // legacy: open, pick Birds
	press(h, "ctrl+s")
	want := `{"name":"Ada Lovelace","check":true,"email":"ada@example.com","homepage":"https://ada.example","birthdate":"2026-11-30","integer":77,"number":12.5,"untitledSingleSelectEnum":"Joey","untitledMultipleSelectEnum":["Guitar","Piano"],"titledSingleSelectEnum":"hero-3","titledMultipleSelectEnum":["fish-1","fish-2"],"legacyTitledEnum":"pet-3"}`
	if string(h.sent) != want {
		t.Fatalf("sent %s\nwant %s\nerrors %v", h.sent, want, h.m.Errors())
	}
}

func TestNestedArraysAndNull(t *testing.T) {
	h := newHost(hardSchema(t, "nested"))
	h.Update(tea.WindowSizeMsg{Width: 80, Height: 30})
	// customer header, name, address header, street, city, zip, lines, +add, tags, +add, matrix, +add
	press(h, "down") // customer.name
	typeIn(h, "Ada")
	press(h, "down", "down", "down") // city
	typeIn(h, "Lisbon")
	press(h, "down", "down", "enter") // lines: add an item (cursor moves into it)
	typeIn(h, "X-1")
	press(h, "down", "backspace")
	typeIn(h, "3")
	press(h, "ctrl+s")
	if string(h.sent) != `{"customer":{"name":"Ada","address":{"city":"Lisbon"}},"lines":[{"sku":"X-1","qty":3}]}` {
		t.Fatalf("sent %s %v", h.sent, h.m.Errors())
	}
	// Raw mode round trip: the form shows what the JSON says.
	press(h, "ctrl+r")
	if !h.m.Raw() {
		t.Fatal("not raw")
	}
	h.m.ta.SetValue(`{"customer":{"name":"Bo"},"lines":[{"sku":"A","qty":1},{"sku":"B","qty":2}],"tags":["x"]}`)
	press(h, "ctrl+r")
	if h.m.Raw() {
		t.Fatalf("still raw: %s", h.m.rawErr)
	}
	if inst, _ := h.m.Value().JSON(); string(inst) != `{"customer":{"name":"Bo"},"lines":[{"sku":"A","qty":1},{"sku":"B","qty":2}],"tags":["x"]}` {
		t.Errorf("after raw %s", inst)
	}
	press(h, "ctrl+r")
	h.m.ta.SetValue(`{"customer":"nope"}`)
	press(h, "ctrl+r")
	if !h.m.Raw() || !strings.Contains(h.m.rawErr, "cannot show") {
		t.Errorf("raw %v %q", h.m.Raw(), h.m.rawErr)
	}
	n := newHost(hardSchema(t, "nullable"))
	n.Update(tea.WindowSizeMsg{Width: 80, Height: 30})
	press(n, "ctrl+o", "down", "right", "down", "ctrl+o") // colour null; size S; note not null
	typeIn(n, "hi")
	press(n, "ctrl+s")
	if string(n.sent) != `{"colour":null,"size":"S","note":"hi"}` {
		t.Errorf("sent %s %v", n.sent, n.m.Errors())
	}
}

func TestUnionForm(t *testing.T) {
	h := newHost(hardSchema(t, "unions"))
	h.Update(tea.WindowSizeMsg{Width: 80, Height: 30})
	press(h, "right", "right") // target: File → URL
	press(h, "down")
	typeIn(h, "https://example.com")
	press(h, "down", "right", "down") // limit: integer
	typeIn(h, "5")
	press(h, "ctrl+s")
	if string(h.sent) != `{"target":{"url":"https://example.com"},"limit":5,"mode":"fast"}` {
		t.Errorf("sent %s %v", h.sent, h.m.Errors())
	}
}

func screens() map[string][]tea.Msg {
	fill := screentest.Type("Ada")
	fill = append(fill, screentest.Keys("down", "space", "down", "down")...)
	fill = append(fill, screentest.Type("not-an-email")...)
	fill = append(fill, screentest.Keys("ctrl+s", "down", "down", "down", "down", "down", "down", "down", "down")...)
	return map[string][]tea.Msg{
		"elicit_initial": nil,
		"elicit_errors":  fill,
		"elicit_raw":     screentest.Keys("ctrl+r"),
	}
}

func TestScreen(t *testing.T) {
	for name, msgs := range screens() {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			t.Run(name+"_"+sizeName(size), func(t *testing.T) {
				styled, plain := screentest.Run(t, func() tea.Model { return newHost(elicitSchema(t)) }, size[0], size[1], msgs...)
				t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, plain) })
				t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, styled) })
			})
		}
	}
	nested := append(screentest.Keys("down"), screentest.Type("Ada")...)
	nested = append(nested, screentest.Keys("down", "down", "down", "down", "down", "enter", "ctrl+s")...)
	t.Run("nested_80x24", func(t *testing.T) {
		styled, plain := screentest.Run(t, func() tea.Model { return newHost(hardSchema(t, "nested")) }, 80, 24, nested...)
		t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, plain) })
		t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, styled) })
	})
}

func sizeName(s [2]int) string { return strconv.Itoa(s[0]) + "x" + strconv.Itoa(s[1]) }

// TestViewDrawsOnlyVisibleRows: a form with a thousand fields draws the
// rows in view, not all of them, on every frame.
func TestViewDrawsOnlyVisibleRows(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range 1000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"field%d":{"type":"string"}`, i)
	}
	b.WriteString(`}}`)
	h := newHost(schemaform.MustCompile(b.String()))
	press(h, "down", "down")
	allocs := testing.AllocsPerRun(3, func() { h.m.View(80, 24) })
	if allocs > 5000 { // about 60 a drawn row
		t.Errorf("one frame of a 1000-field form took %.0f allocations: every row was drawn", allocs)
	}
	if s := strings.Join(h.m.View(80, 24), "\n"); !strings.Contains(s, "field2") || strings.Contains(s, "field30") {
		t.Errorf("the view does not show the rows around the cursor:\n%s", s)
	}
}

// TestPrefillSelectedOnEnter: a schema default is selected when its field
// is entered, so typing replaces it ("Bob", not "Ada LovelaceBob"); an
// arrow keeps it and types after it; the field is selected again when the
// cursor comes back.
func TestPrefillSelectedOnEnter(t *testing.T) {
	f := schemaform.MustCompile(`{"type":"object","properties":{
		"name":{"type":"string","default":"Ada Lovelace"},
		"mib":{"type":"integer","default":64}}}`)
	m := New(f, nil, themes.New(themes.Dark()))
	sent := func() string {
		t.Helper()
		inst, ok := m.Submit()
		if !ok {
			t.Fatalf("errors: %v", m.Errors())
		}
		var v map[string]any
		_ = json.Unmarshal(inst, &v)
		out, _ := json.Marshal(v) // keys sorted
		return string(out)
	}
	feed := func(msgs ...tea.Msg) {
		for _, msg := range msgs {
			m.Update(msg)
		}
	}
	feed(screentest.Type("Bob")...)
	if got := sent(); got != `{"mib":64,"name":"Bob"}` {
		t.Errorf("typing on a default: %s", got)
	}
	feed(screentest.Keys("tab")...)
	feed(screentest.Keys("end")...)
	feed(screentest.Type("0")...)
	if got := sent(); got != `{"mib":640,"name":"Bob"}` {
		t.Errorf("end then typing: %s", got)
	}
	feed(screentest.Keys("shift+tab", "backspace")...)
	if got := sent(); got != `{"mib":640}` {
		t.Errorf("backspace on a selected value clears it: %s", got)
	}
	feed(screentest.Keys("ctrl+z")...)
	if got := sent(); got != `{"mib":64,"name":"Ada Lovelace"}` {
		t.Errorf("reset to the schema's defaults: %s", got)
	}
}

// TestNumbersAsWritten: a field's range and default are drawn as people
// write numbers, never in exponent form (issue 18 item 7).
func TestNumbersAsWritten(t *testing.T) {
	f := schemaform.MustCompile(`{"type":"object","properties":{
		"bytes":{"type":"integer","minimum":0,"maximum":67108864,"default":1.048576e+06},
		"id":{"type":"integer","maximum":9007199254740991}}}`)
	m := New(f, nil, themes.New(themes.Dark()))
	view := func() string { return ansi.Strip(strings.Join(m.View(100, 12), "\n")) }
	if s := view(); !strings.Contains(s, "0 to 67108864, default 1048576") || strings.Contains(s, "e+") {
		t.Errorf("bytes:\n%s", s)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if s := view(); !strings.Contains(s, "<= 9007199254740991") || strings.Contains(s, "e+") {
		t.Errorf("id:\n%s", s)
	}
}
