package inert

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Ellipsis is the tail Fit puts on text it had to cut.
const Ellipsis = "…"

// Width is the number of terminal cells s takes once escaped by Line.
func Width(s string) int {
	return ansi.StringWidth(Line(s))
}

// Cells is the number of terminal cells text that is already safe takes
// (ansi.StringWidth). What a screen is made of is counted at once, without
// the grapheme segmentation the rest needs: printable ASCII, the program's
// own CSI sequences (styles: no cells), and the symbols of narrowSymbol
// (one cell each). Anything else, anywhere in the text (a
// combining mark, a joiner, a wide character), has the whole text measured
// by ansi.StringWidth.
func Cells(safe string) int {
	n := 0
	for i := 0; i < len(safe); {
		c := safe[i]
		switch {
		case c >= 0x20 && c <= 0x7e:
			n++
			i++
		case c == 0x1b && i+1 < len(safe) && safe[i+1] == '[':
			end := csiEnd(safe, i+2)
			if end < 0 {
				return ansi.StringWidth(safe)
			}
			i = end
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(safe[i:])
			if !narrowSymbol(r) {
				return ansi.StringWidth(safe)
			}
			n++
			i += size
		default:
			return ansi.StringWidth(safe)
		}
	}
	return n
}

// csiEnd is the index just past the CSI sequence whose parameters start
// at i (after "ESC ["), or -1 when it is not a well-formed one.
func csiEnd(s string, i int) int {
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x20 && c <= 0x3f: // parameters, intermediates
		case c >= 0x40 && c <= 0x7e: // the final byte
			return i + 1
		default:
			return -1
		}
	}
	return -1
}

// narrowSymbol reports whether r is one of the one-cell symbols screens
// are drawn with, which never join what is next to them into a grapheme
// cluster: box drawing (U+2500–U+257F), block elements (U+2580–U+259F),
// the ellipsis, bullets and dots (· • ●), the arrows ← ↑ → ↓.
func narrowSymbol(r rune) bool {
	switch {
	case r >= 0x2500 && r <= 0x259f, r >= 0x2190 && r <= 0x2193:
		return true
	}
	switch r {
	case '…', '·', '•', '●':
		return true
	}
	return false
}

// Fit escapes s as Line does and cuts it to at most width cells, ending with
// Ellipsis when something was cut. It reads only as much of s as width needs,
// so its cost does not depend on len(s).
func Fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	esc, whole := prefix(s, width)
	if !whole && Cells(esc) <= width {
		// Cut for being pathological, yet narrow: say so.
		return Truncate(esc, width-1, "") + Ellipsis
	}
	return Truncate(esc, width, Ellipsis)
}

// FitPad is Fit followed by spaces up to exactly width cells.
func FitPad(s string, width int) string {
	return Pad(Fit(s, width), width)
}

// Slice escapes s as Line does and returns the cells from column from (0 is
// the first) up to at most width cells, for horizontal scrolling. It reads
// about from+width cells' worth of s.
func Slice(s string, from, width int) string {
	if from <= 0 {
		return Fit(s, width)
	}
	esc, _ := prefix(s, from+width)
	return ansi.Truncate(ansi.TruncateLeft(esc, from, ""), width, "")
}

// Truncate cuts text that is already safe (escaped, or built by the program)
// to at most width cells, ending with tail when it cut. Wide characters are
// never split. It is the pinned ansi.Truncate, named here so callers need one
// import for text handling.
func Truncate(safe string, width int, tail string) string {
	if width <= 0 {
		return ""
	}
	if len(safe) <= width {
		// No byte takes more than one cell: it fits, and ansi.Truncate
		// would return it as it is (after reading all of it).
		return safe
	}
	return ansi.Truncate(safe, width, tail)
}

// Pad adds spaces to safe text up to width cells; longer text is returned as
// it is.
func Pad(safe string, width int) string {
	w := Cells(safe)
	if w >= width {
		return safe
	}
	return safe + strings.Repeat(" ", width-w)
}

// prefix escapes the start of s: enough for width cells and a little more so
// the truncation can tell whether anything was cut. A grapheme cluster takes
// at most a few dozen bytes in practice; more than 32 bytes per cell is
// treated as the pathological input it is and cut.
func prefix(s string, width int) (esc string, whole bool) {
	if width < 0 {
		width = 0
	}
	limit := (width + 2) * 32
	clipped := false
	if len(s) > limit {
		s, clipped = Clip(s, limit), true
	}
	esc, whole = escape(s, modeLine, nil, limit)
	return esc, whole && !clipped
}

// cluster is the grapheme cluster at the start of s, and whether the two
// ways terminals measure it agree: as one cluster (the width mode 2027
// asks for, which the drawing code uses) and code point by code point (the
// wcwidth way of terminals without mode 2027, tmux 3.3 among them). They
// disagree on emoji ZWJ sequences (👨‍👩‍👧: 2 cells or 6), VS16 after a
// text-default character (❤️: 2 or 1), skin tones (👍🏽: 2 or 4) and spacing
// marks (กำ: 1 or 2); such a cluster is drawn with its first character
// only and the rest spelled, so that every terminal draws it in the cells
// the layout counted.
func cluster(s string) (c string, agree bool) {
	c, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
	if c == "" {
		_, size := utf8.DecodeRuneInString(s)
		return s[:size], true
	}
	return c, w == ansi.StringWidthWc(c)
}

// clusterAt writes the start of s, whose first rune (of size bytes) is
// harmless, and returns how many bytes it consumed: the whole grapheme
// cluster when the two widths agree and nothing in it is dangerous, else
// the first rune (spelled when it alone is measured two ways) and the
// next one spelled, which splits the cluster; the rest is escaped from
// there as usual, so 👨‍👩‍👧 becomes 👨\u200d👩\u200d👧 and ❤️ becomes ❤\ufe0f.
func clusterAt(b *strings.Builder, s string, size int, put func(string)) int {
	if s[0] >= utf8.RuneSelf && joinsBadly(s) {
		r, _ := utf8.DecodeRuneInString(s)
		put(spell(r))
		return size
	}
	c, agree := cluster(s)
	if agree && clusterRestSafe(c[size:]) {
		b.WriteString(c)
		return len(c)
	}
	head := s[:size]
	if ansi.StringWidth(head) != ansi.StringWidthWc(head) || joinsForward(head) {
		r, _ := utf8.DecodeRuneInString(head)
		put(spell(r))
		return size
	}
	b.WriteString(head)
	if len(c) == size {
		return size
	}
	r, next := utf8.DecodeRuneInString(s[size:])
	if r == utf8.RuneError && next <= 1 {
		put(`\x` + string([]byte{hexDigits[s[size]>>4], hexDigits[s[size]&0xf]}))
	} else {
		put(spell(r))
	}
	return size + next
}

// joinsBadly reports whether s starts with a rune that would join the
// character drawn before it (the end of an escape, or of another piece of
// the row) into a cluster measured two ways: a spacing mark after `\x0e`
// is as wide as the one after a letter.
func joinsBadly(s string) bool {
	c, agree := cluster("0" + s[:min(len(s), 64)])
	return len(c) > 1 && !agree
}

// joinsForward reports whether a rune joins the character after it into
// one cluster (a prepended concatenation mark such as U+0600 does):
// whatever follows it, the escape too, would be measured with it.
func joinsForward(r string) bool {
	c, _ := cluster(r + "0")
	return len(c) > len(r)
}
