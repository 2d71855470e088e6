// Package inerttest has the hostile strings a server may send and a check
// that what a screen drew of them is inert, for the tests of every editor
// and viewer that draws server text.
package inerttest

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcptui/mcptui/internal/inert"
)

// Hostile is one of every form of text that must not reach a terminal as
// it is: escape sequences (CSI, OSC 52 and OSC 8, APC, DCS, a title), raw
// C0 and C1 controls (as code points and as bytes), bidi overrides and
// isolates, zero-width and other invisible characters, tag characters,
// invalid UTF-8.
var Hostile = map[string]string{
	"csi-clear":     "a\x1b[2Jb",
	"osc-title":     "a\x1b]0;pwned\x07b",
	"osc8-link":     "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\",
	"osc52-clip":    "\x1b]52;c;cm0gLXJmIH4=\x07",
	"apc":           "a\x1b_Gpwned\x1b\\b",
	"dcs-query":     "a\x1bP$qm\x1b\\b",
	"c1-csi":        "a\u009b2Jb",
	"c1-osc":        "a\u009d0;t\u009cb",
	"c1-bytes":      "a\x9b2J\x9d0;t\x07b",
	"bel-bs-cr":     "ab\x07\x08\rc",
	"bidi-override": "abc\u202edcba\u202c",
	"bidi-isolate":  "a\u2066b\u2069c\u2067d\u2068e",
	"lrm-rlm-alm":   "a\u200eb\u200fc\u061cd",
	"zero-width":    "a\u200bb\u2060c\ufeffd",
	"soft-hyphen":   "pay\u00adpal",
	"tags":          "a\U000e0041\U000e0042b",
	"hangul-filler": "a\u3164b",
	"line-sep":      "a\u2028b\u2029c",
	"invalid-utf8":  "a\xff\xfeb",
	"del":           "a\x7fb",
}

// Names are the keys of Hostile, in a fixed order.
func Names() []string {
	names := make([]string, 0, len(Hostile))
	for n := range Hostile {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Drawn returns an error naming the first thing in out, a screen as a
// model drew it, that a terminal would act on or hide: anything but
// printable text, newlines and the program's own SGR styles (ESC [ ... m).
func Drawn(out string) error {
	for i := 0; i < len(out); {
		c := out[i]
		if c == 0x1b && i+1 < len(out) && out[i+1] == '[' {
			j := i + 2
			for j < len(out) && (out[j] >= '0' && out[j] <= '9' || out[j] == ';' || out[j] == ':') {
				j++
			}
			if j < len(out) && out[j] == 'm' {
				i = j + 1
				continue
			}
			return fmt.Errorf("a control sequence other than a style at byte %d: %q", i, clip(out[i:]))
		}
		if c == '\n' {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(out[i:])
		if r == utf8.RuneError && size <= 1 {
			return fmt.Errorf("an invalid UTF-8 byte %#x at byte %d: %q", c, i, clip(out[i:]))
		}
		if !inert.Safe(string(r)) {
			return fmt.Errorf("%U drawn raw at byte %d: %q", r, i, clip(out[max(i-8, 0):]))
		}
		i += size
	}
	return nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40]
	}
	return s
}

// Spelled reports whether out shows the escapes of s as text: at least
// one of the escape spellings of inert (\x1b, \u202e, ...) is there, so
// the hostile text was drawn escaped rather than dropped.
func Spelled(out string) bool {
	return strings.Contains(out, `\x`) || strings.Contains(out, `\u`) || strings.Contains(out, `\U`)
}
