package inert

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Ellipsis is the tail Fit puts on text it had to cut.
const Ellipsis = "…"

// Width is the number of terminal cells s takes once escaped by Line.
func Width(s string) int {
	return ansi.StringWidth(Line(s))
}

// Fit escapes s as Line does and cuts it to at most width cells, ending with
// Ellipsis when something was cut. It reads only as much of s as width needs,
// so its cost does not depend on len(s).
func Fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	esc, whole := prefix(s, width)
	if !whole && ansi.StringWidth(esc) <= width {
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
	return ansi.Truncate(safe, width, tail)
}

// Pad adds spaces to safe text up to width cells; longer text is returned as
// it is.
func Pad(safe string, width int) string {
	w := ansi.StringWidth(safe)
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
