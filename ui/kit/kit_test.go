package kit

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/themes"
)

func styles() *themes.Styles { return themes.New(themes.Dark()) }

func plain(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimRight(ansi.Strip(l), " ")
	}
	return strings.Join(out, "\n")
}

func TestJSONViewFoldAndCopy(t *testing.T) {
	v, err := NewJSONView([]byte(`{"a": 1, "b": [true, null, "x\u001b[2J"], "c": {"d": "e"}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := plain(v.Lines(styles(), 40, 11, false))
	want := `▾ {
    "a": 1
  ▾ "b": [
      [0] true
      [1] null
      [2] "x\u001b[2J"
    ]
  ▾ "c": {
      "d": "e"
    }
  }`
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	v.Move(2)
	if s := string(v.Selected()); s != `[true, null, "x\u001b[2J"]` {
		t.Errorf("selected %q", s)
	}
	v.Toggle()
	if v.Len() != 7 {
		t.Errorf("len %d", v.Len())
	}
	if l := plain(v.Lines(styles(), 40, 12, false)[2:3]); l != `  ▸ "b": […]  3 items` {
		t.Errorf("folded line %q", l)
	}
	v.SetFoldAll(true)
	if v.Len() != 5 {
		t.Errorf("len %d", v.Len())
	}
	if _, err := NewJSONView([]byte(`{"a":`)); err == nil {
		t.Error("broken JSON accepted")
	}
	if _, err := NewJSONView([]byte(`1 2`)); err == nil {
		t.Error("two values accepted")
	}
}

func TestJSONViewHostileKeys(t *testing.T) {
	v, err := NewJSONView([]byte("{\"\\u001b]52;c;AAAA\\u0007\": \"\u202e\"}"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range v.Lines(styles(), 60, 3, true) {
		if strings.Contains(ansi.Strip(l), "\x1b") || strings.Contains(l, "\u202e") || strings.Contains(l, "\x07") {
			t.Errorf("raw control in %q", l)
		}
	}
}

func TestMarkdown(t *testing.T) {
	src := "# Title\n\nSome **bold** and `code` with a [link](https://x.example/a).\n\n- one\n- two that is long enough to wrap around the edge\n  continued\n\n```\nraw \x1b[31m code\n```\n> quoted\n\n---"
	got := plain(Markdown(src, 30, styles()))
	want := "Title\n\nSome bold and code with a link\n(https://x.example/a).\n\n• one\n• two that is long enough to\n  wrap around the edge\n  continued\n\n  raw \\x1b[31m code\n│ quoted\n\n" + strings.Repeat("─", 30)
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestLineEdit(t *testing.T) {
	e := NewLineEdit("hello")
	key := func(s string) {
		var m tea.KeyPressMsg
		switch s {
		case "left":
			m = tea.KeyPressMsg{Code: tea.KeyLeft}
		case "backspace":
			m = tea.KeyPressMsg{Code: tea.KeyBackspace}
		case "ctrl+w":
			m = tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}
		case "home":
			m = tea.KeyPressMsg{Code: tea.KeyHome}
		default:
			m = tea.KeyPressMsg{Code: []rune(s)[0], Text: s}
		}
		e.Key(m, keymap.Default().Text)
	}
	key("left")
	key("backspace")
	key("L")
	if e.Value() != "helLo" {
		t.Errorf("%q", e.Value())
	}
	key("home")
	key("x")
	key(" ")
	if e.Value() != "x helLo" {
		t.Errorf("%q", e.Value())
	}
	e.Set("a b c")
	key("ctrl+w")
	if e.Value() != "a b " {
		t.Errorf("%q", e.Value())
	}
	if changed, handled := e.Key(tea.KeyPressMsg{Code: tea.KeyDown}, keymap.Default().Text); changed || handled {
		t.Error("down handled")
	}
	st := styles()
	e.Set("\x1b]0;pwned\x07" + strings.Repeat("z", 50))
	view := e.View(20, true, st.Text, st.Selected, st.Muted, "")
	if ansi.StringWidth(view) != 20 || strings.Contains(ansi.Strip(view), "\x1b") {
		t.Errorf("view %q", view)
	}
	if s := ansi.Strip(e.View(20, false, st.Text, st.Selected, st.Muted, "")); !strings.HasPrefix(s, `\x1b]0;pwned\x07`) {
		t.Errorf("blurred %q", s)
	}
}

func TestWrap(t *testing.T) {
	lines, more := Wrap("one two three four\nfive", 9, 0)
	if strings.Join(lines, "|") != "one two|three|four|five" || more {
		t.Errorf("%q %v", lines, more)
	}
	lines, more = Wrap("a\nb\nc", 5, 2)
	if len(lines) != 2 || !more {
		t.Errorf("%q %v", lines, more)
	}
}

// The outline face draws an empty container on one line, and a lone
// scalar as a one-line document.
func TestJSONViewOutlineEmptyAndScalar(t *testing.T) {
	v, err := NewJSONView([]byte(`{"a": {}, "b": [ ]}`))
	if err != nil {
		t.Fatal(err)
	}
	got := plain(v.Lines(styles(), 30, 4, false))
	want := "▾ {\n    \"a\": {}\n    \"b\": []\n  }"
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	s, err := NewJSONView([]byte(` "x" `))
	if err != nil || s.Len() != 1 || string(s.Selected()) != `"x"` {
		t.Fatalf("scalar: %v, %d lines, selected %q", err, s.Len(), s.Selected())
	}
}

// TestNumber: numbers as people write them.
func TestNumber(t *testing.T) {
	for f, want := range map[float64]string{
		67108864: "67108864", 9007199254740991: "9007199254740991", 0.25: "0.25", -3: "-3", 0: "0",
		1e21: "1e+21", 1e-7: "1e-07", 1.5e6: "1500000",
	} {
		if got := Number(f); got != want {
			t.Errorf("Number(%v) = %q, want %q", f, got, want)
		}
	}
	for s, want := range map[string]string{"6.7108864e+07": "67108864", "9.007199254740991e+15": "9007199254740991",
		"12345678901234567890123": "12345678901234567890123", "\"x\"": "\"x\"", "2E3": "2000"} {
		if got := NumberText(s); got != want {
			t.Errorf("NumberText(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestLineEditSelectionReadsFromItsStart: a selected value (a prefill,
// typing replaces it) is drawn whole when it fits its cells exactly, and
// from its start when it does not. (It was scrolled for a cursor after it:
// "Write a haiku…" in 45 cells read "rite a haiku…".)
func TestLineEditSelectionReadsFromItsStart(t *testing.T) {
	st := styles()
	e := NewLineEdit("Write a haiku about terminal user interfaces.")
	e.SelectAll()
	w := ansi.StringWidth(e.Value())
	if got := ansi.Strip(e.View(w, true, st.Text, st.Selected, st.Muted, "")); got != e.Value() {
		t.Errorf("in %d cells: %q", w, got)
	}
	if got := ansi.Strip(e.View(12, true, st.Text, st.Selected, st.Muted, "")); got != "Write a hai…" {
		t.Errorf("in 12 cells: %q", got)
	}
	e.Set("\x1b[2J" + strings.Repeat("z", 30))
	e.SelectAll()
	if got := ansi.Strip(e.View(10, true, st.Text, st.Selected, st.Muted, "")); strings.Contains(got, "\x1b") || ansi.StringWidth(got) != 10 {
		t.Errorf("hostile, in 10 cells: %q", got)
	}
}
