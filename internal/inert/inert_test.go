package inert

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLine(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "hello, world", "hello, world"},
		{"empty", "", ""},
		{"unicode", "naïve 日本語 🙂", "naïve 日本語 🙂"},
		{"emoji zwj", "👩\u200d💻", `👩\u200d💻`},
		{"family", "👨\u200d👩\u200d👧", `👨\u200d👩\u200d👧`},
		{"vs16 after text-default", "❤\ufe0f ok", `❤\ufe0f ok`},
		{"keycap", "1\ufe0f\u20e3", `1\ufe0f` + "\u20e3"},
		{"skin tone", "👍🏽", `👍\U0001f3fd`},
		{"spacing mark", "กำ", `ก\u0e33`},
		{"combining accent stays", "e\u0301", "e\u0301"},
		{"flag stays", "🇵🇹", "🇵🇹"},
		{"backslash stays", `C:\path\x1b`, `C:\path\x1b`},
		{"clear screen", "\x1b[2J", `\x1b[2J`},
		{"cursor home", "a\x1b[Hb", `a\x1b[Hb`},
		{"sgr", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"osc title bel", "\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
		{"osc 8 hyperlink", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", `\x1b]8;;https://evil.example\x1b\click\x1b]8;;\x1b\`},
		{"osc 52 clipboard", "\x1b]52;c;cm0gLXJmIC8=\x07", `\x1b]52;c;cm0gLXJmIC8=\x07`},
		{"dcs", "\x1bP+q544e\x1b\\", `\x1bP+q544e\x1b\`},
		{"c1 csi rune", "\u009b2J", `\x9b2J`},
		{"c1 osc rune", "\u009d0;t\u009c", `\x9d0;t\x9c`},
		{"c1 raw byte", "a\x9bb", `a\x9bb`},
		{"invalid utf8", "\xff\xfe", `\xff\xfe`},
		{"truncated utf8", "\xe6\x97", `\xe6\x97`},
		{"del", "a\x7fb", `a\x7fb`},
		{"nul bell backspace", "\x00\x07\x08", `\x00\x07\x08`},
		{"newline tab cr", "a\nb\tc\rd", `a\nb\tc\rd`},
		{"rlo", "abc\u202Etxt.exe", `abc\u202etxt.exe`},
		{"bidi isolates", "\u2066x\u2069", `\u2066x\u2069`},
		{"lrm rlm alm", "\u200e\u200f\u061c", `\u200e\u200f\u061c`},
		{"zero width space", "pay\u200bpal", `pay\u200bpal`},
		{"word joiner bom", "\u2060\ufeff", `\u2060\ufeff`},
		{"line separator", "a\u2028b\u2029c", `a\u2028b\u2029c`},
		{"tag characters", "hi\U000E0041\U000E0042", `hi\U000e0041\U000e0042`},
		{"soft hyphen", "in\u00advisible", `in\xadvisible`},
		{"hangul filler", "\u3164", `\u3164`},
		{"annotation", "\ufff9a\ufffbb", `\ufff9a\ufffbb`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Line(c.in); got != c.want {
				t.Errorf("Line(%q) = %q, want %q", c.in, got, c.want)
			}
			if Safe(c.in) != (c.in == c.want) {
				t.Errorf("Safe(%q) = %v", c.in, Safe(c.in))
			}
		})
	}
}

func TestText(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"keeps newlines", "a\nb", "a\nb"},
		{"crlf", "a\r\nb", "a\nb"},
		{"lone cr", "a\rb", `a\rb`},
		{"tab", "a\tb", "a       b"},
		{"tab after newline", "abc\n\tx", "abc\n        x"},
		{"escape", "\x1b[2Jx\n", "\\x1b[2Jx\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Text(c.in); got != c.want {
				t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestStyled(t *testing.T) {
	got := Styled("a\x1b[1mb", func(s string) string { return "<" + s + ">" })
	if want := `a<\x1b>[1mb`; got != want {
		t.Errorf("Styled = %q, want %q", got, want)
	}
}

func TestClip(t *testing.T) {
	if got := Clip("日本語", 4); got != "日" {
		t.Errorf("Clip on a boundary = %q", got)
	}
	if got := Clip("abc", 10); got != "abc" {
		t.Errorf("Clip short = %q", got)
	}
	if got := Clip("abc", 0); got != "" {
		t.Errorf("Clip 0 = %q", got)
	}
	if got := Clip("\x80\x80\x80\x80\x80", 2); got != "\x80\x80" {
		t.Errorf("Clip invalid = %q", got)
	}
}

func TestFit(t *testing.T) {
	cases := []struct {
		in    string
		width int
		want  string
	}{
		{"hello", 10, "hello"},
		{"hello world", 5, "hell…"},
		{"日本語です", 5, "日本…"},
		{"\x1b[2J", 4, `\x1…`},
		{"\x1b[2J", 7, `\x1b[2J`},
		{"abc", 0, ""},
		{"🙂🙂🙂", 4, "🙂…"},
	}
	for _, c := range cases {
		if got := Fit(c.in, c.width); got != c.want {
			t.Errorf("Fit(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
	if got := FitPad("ab", 4); got != "ab  " {
		t.Errorf("FitPad = %q", got)
	}
}

func TestFitHugeInputIsCheap(t *testing.T) {
	huge := strings.Repeat("\x1b[2J", 4<<20) // 16 MiB of escapes
	got := Fit(huge, 20)
	if Width(got) > 20 || !strings.HasSuffix(got, Ellipsis) {
		t.Errorf("Fit(huge) = %q", got)
	}
	small := huge[:64<<10]
	hugeAllocs := testing.AllocsPerRun(5, func() { _ = Fit(huge, 80) })
	smallAllocs := testing.AllocsPerRun(5, func() { _ = Fit(small, 80) })
	if hugeAllocs != smallAllocs {
		t.Errorf("Fit allocates %v times on 16 MiB and %v on 64 KiB: its work depends on the length", hugeAllocs, smallAllocs)
	}
	zalgo := "a" + strings.Repeat("\u0301", 100000)
	if got := Fit(zalgo, 10); !strings.HasSuffix(got, Ellipsis) {
		t.Errorf("Fit(zalgo) did not mark the cut: %q", got)
	}
}

func TestSlice(t *testing.T) {
	if got := Slice("0123456789", 3, 4); got != "3456" {
		t.Errorf("Slice = %q", got)
	}
	if got := Slice("a\x1bb", 1, 3); got != `\x1` {
		t.Errorf("Slice escape = %q", got)
	}
}

// checkInert asserts what every escaped output must satisfy.
func checkInert(t *testing.T, in, out string, keepNewline bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("output of %q is not valid UTF-8: %q", in, out)
	}
	for _, r := range out {
		if r == '\n' && keepNewline {
			continue
		}
		if dangerous(r) {
			t.Fatalf("output of %q keeps %U: %q", in, r, out)
		}
	}
}
