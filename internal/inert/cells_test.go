package inert

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// cellsSamples are safe texts of every shape a screen holds.
var cellsSamples = func() []string {
	s := []string{"", " ", "plain ascii row", "tab\there", "\x1b[1mbold\x1b[m", "café", "日本語", "e\u0301", "👍🏽 ok", "~}|{", "\x7f", "a\x1b]8;;x\x07b"}
	for c := range 0x80 {
		s = append(s, "ab"+string(rune(c))+"cd")
	}
	// The symbols Cells counts without segmentation, alone, styled,
	// and beside what joins them into a cluster (a combining mark, a
	// variation selector, a joiner) or is wide.
	symbols := []rune{0xb7, 0x2022, 0x2026, 0x25cf}
	for r := rune(0x2180); r < 0x2700; r++ {
		symbols = append(symbols, r)
	}
	for _, r := range symbols {
		c := string(r)
		s = append(s, c, "\x1b[38;2;1;2;3m"+c+"\x1b[m─", c+"\u0301", c+"\ufe0f", c+"\u200d"+c, "日"+c, "a"+c+"b")
	}
	// Escapes that are not well-formed CSI sequences.
	s = append(s, "\x1b[", "a\x1b[12", "a\x1b[1\x01mb", "a\x1b[1;2Hb", "\x1bPq\x1b\\x", "…\u0301", "a…b")
	return s
}()

// Cells counts what ansi.StringWidth counts, on plain ASCII and the rest.
func TestCellsIsStringWidth(t *testing.T) {
	for _, s := range cellsSamples {
		if got, want := Cells(s), ansi.StringWidth(s); got != want {
			t.Errorf("Cells(%q) = %d, ansi.StringWidth says %d", s, got, want)
		}
	}
}

// Truncate and Pad answer as the ansi functions they stand for.
func TestTruncateAndPadAsAnsi(t *testing.T) {
	for _, s := range cellsSamples {
		for w := 1; w < 12; w++ {
			for _, tail := range []string{"", "…"} {
				if got, want := Truncate(s, w, tail), ansi.Truncate(s, w, tail); got != want {
					t.Errorf("Truncate(%q, %d, %q) = %q, ansi.Truncate says %q", s, w, tail, got, want)
				}
			}
			want := s
			if n := ansi.StringWidth(s); n < w {
				want += strings.Repeat(" ", w-n)
			}
			if got := Pad(s, w); got != want {
				t.Errorf("Pad(%q, %d) = %q, want %q", s, w, got, want)
			}
		}
	}
}
