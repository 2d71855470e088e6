package themes

import (
	"strings"
	"testing"
)

func TestChoose(t *testing.T) {
	cases := []struct {
		name          string
		dark, noColor bool
		want          string
	}{
		{"auto", true, false, NameDark},
		{"auto", false, false, NameLight},
		{"", false, false, NameLight},
		{"dark", false, false, NameDark},
		{"light", true, false, NameLight},
		{"high-contrast", false, false, NameHighContrast},
		{"dark", true, true, NameMono},
		{"bogus", true, false, NameDark},
	}
	for _, c := range cases {
		if got := Choose(c.name, c.dark, c.noColor).Name; got != c.want {
			t.Errorf("Choose(%q, dark=%v, noColor=%v) = %s, want %s", c.name, c.dark, c.noColor, got, c.want)
		}
	}
	if _, err := ByName("bogus"); err == nil || !Valid("auto") || Valid("bogus") {
		t.Error("unknown names must be rejected")
	}
}

func TestNoColor(t *testing.T) {
	env := map[string]string{}
	get := func(k string) string { return env[k] }
	if NoColor(get) {
		t.Error("NO_COLOR unset")
	}
	env["NO_COLOR"] = "1"
	if !NoColor(get) {
		t.Error("NO_COLOR=1 not honoured")
	}
}

func TestSelectionUsesBackgroundNotReverse(t *testing.T) {
	for _, p := range []Palette{Dark(), Light(), HighContrast()} {
		out := New(p).Selected.Render("row")
		if !strings.Contains(out, "48;2;") {
			t.Errorf("%s: selection has no background colour: %q", p.Name, out)
		}
		if strings.Contains(out, "\x1b[7m") || strings.Contains(out, ";7m") || New(p).Selected.GetReverse() {
			t.Errorf("%s: selection uses reverse video: %q", p.Name, out)
		}
	}
}

func TestMonoHasNoColour(t *testing.T) {
	s := New(Mono())
	for name, st := range map[string]string{
		"selected": s.Selected.Render("x"), "error": s.Error.Render("x"), "pane": s.PaneFocused.Render("x"),
		"json": s.JSONKey.Render("x"), "help": s.Help.ShortKey.Render("x"),
	} {
		if strings.Contains(st, "38;") || strings.Contains(st, "48;") {
			t.Errorf("mono %s has colour: %q", name, st)
		}
	}
	if !s.Selected.GetBold() || !s.Selected.GetUnderline() {
		t.Error("mono selection is not marked")
	}
}

func TestEveryPaletteIsComplete(t *testing.T) {
	for _, p := range []Palette{Dark(), Light(), HighContrast()} {
		for name, c := range map[string]any{"Fg": p.Fg, "SelectBg": p.SelectBg, "Error": p.Error, "Escape": p.Escape, "JSONKey": p.JSONKey, "ProgressFull": p.ProgressFull, "Focus": p.Focus} {
			if c == nil {
				t.Errorf("%s: %s is not set", p.Name, name)
			}
		}
	}
}
