package inert

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

var fuzzSeeds = []string{
	"", "plain", "\x1b[2J\x1b[H", "\x1b]0;title\x07", "\x1b]52;c;aGk=\x07",
	"\x1b]8;;http://x\x1b\\y\x1b]8;;\x1b\\", "\u009b31m", "\xff\xfe\x80",
	"a\u202eb", "\t\r\n", "日本\u200b語", "👩\u200d💻", "❤\ufe0f", "👍🏽", "กำ", "1\ufe0f\u20e3", "\x1bP1$r\x1b\\", "\x1b[?1049h",
}

func FuzzLine(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, width int) {
		out := Line(s)
		checkInert(t, s, out, false)
		if !Safe(out) {
			t.Fatalf("Line(%q) = %q is not Safe", s, out)
		}
		if Safe(s) && out != s {
			t.Fatalf("Line changed safe %q into %q", s, out)
		}
		if g, wc := ansi.StringWidth(out), ansi.StringWidthWc(out); g != wc {
			t.Fatalf("Line(%q) = %q is %d cells as grapheme clusters but %d code point by code point", s, out, g, wc)
		}
		txt := Text(s)
		checkInert(t, s, txt, true)
		if strings.Count(txt, "\n") != strings.Count(s, "\n") {
			t.Fatalf("Text(%q) changed the number of lines: %q", s, txt)
		}
		width = width % 200
		if width < 0 {
			width = -width
		}
		fit := Fit(s, width)
		checkInert(t, s, fit, false)
		if w := ansi.StringWidth(fit); w > width {
			t.Fatalf("Fit(%q, %d) = %q is %d wide", s, width, fit, w)
		}
		if ansi.StringWidth(out) <= width && fit != out && len(s) < 64 {
			t.Fatalf("Fit(%q, %d) = %q, but the whole %q fits", s, width, fit, out)
		}
	})
}

// FuzzTerminal writes escaped text into a terminal emulator and checks that
// nothing but printing happened: no title, bell, mode change, cursor jump,
// colour or hyperlink.
func FuzzTerminal(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 256 {
			s = s[:256]
		}
		out := Line(s)
		term := vt.NewEmulator(len(out)+8, 3)
		var events []string
		term.SetCallbacks(vt.Callbacks{
			Bell:             func() { events = append(events, "bell") },
			Title:            func(string) { events = append(events, "title") },
			IconName:         func(string) { events = append(events, "icon") },
			AltScreen:        func(bool) { events = append(events, "altscreen") },
			CursorVisibility: func(bool) { events = append(events, "cursor visibility") },
			WorkingDirectory: func(string) { events = append(events, "cwd") },
			EnableMode:       func(ansi.Mode) { events = append(events, "mode") },
			DisableMode:      func(ansi.Mode) { events = append(events, "mode") },
		})
		if _, err := term.WriteString(out); err != nil {
			t.Fatalf("write: %v", err)
		}
		if len(events) > 0 {
			t.Fatalf("Line(%q) = %q made the terminal do %v", s, out, events)
		}
		if pos := term.CursorPosition(); pos.Y != 0 {
			t.Fatalf("Line(%q) = %q moved the cursor to row %d", s, out, pos.Y)
		}
		for x := 0; x < term.Width(); x++ {
			c := term.CellAt(x, 0)
			if c == nil {
				continue
			}
			if c.Link.URL != "" || c.Style.Fg != nil || c.Style.Bg != nil || c.Style.Attrs != 0 {
				t.Fatalf("Line(%q) = %q styled cell %d: %+v", s, out, x, c)
			}
		}
	})
}
