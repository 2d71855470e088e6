package kit

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/themes"
)

// Seg is a piece of a row: safe text (escaped, or the program's own) and
// its style.
type Seg struct {
	S  string
	St lipgloss.Style
}

// Srv is a column of server text: escaped, cut and padded to w cells.
func Srv(s string, w int, st lipgloss.Style) Seg {
	return Seg{inert.FitPad(s, max(w, 0)), st}
}

// SrvFree is server text escaped and cut to at most w cells, not padded.
func SrvFree(s string, w int, st lipgloss.Style) Seg {
	return Seg{inert.Fit(s, max(w, 0)), st}
}

// Own is a column of the program's own text, cut and padded to w cells.
func Own(s string, w int, st lipgloss.Style) Seg {
	return Seg{inert.Pad(inert.Truncate(s, max(w, 0), "…"), max(w, 0)), st}
}

// Txt is the program's own text, unpadded.
func Txt(s string, st lipgloss.Style) Seg { return Seg{s, st} }

// Fit cuts or pads safe text (which may hold styles) to exactly w cells.
func Fit(safe string, w int) string {
	if w <= 0 {
		return ""
	}
	return inert.Pad(ansi.Truncate(safe, w, ""), w)
}

// Row joins segments into one line of exactly width cells. A selected row
// is drawn in the selection style alone, so its background runs unbroken;
// without colour it gets a "▌" gutter.
func Row(st *themes.Styles, width int, selected bool, segs ...Seg) string {
	if width <= 0 {
		return ""
	}
	var b strings.Builder
	if selected {
		for _, s := range segs {
			b.WriteString(s.S)
		}
		text := inert.Pad(ansi.Truncate(b.String(), width, ""), width)
		if st.Palette.Mono {
			text = "▌" + ansi.Truncate(text, width-1, "")
		}
		return st.Selected.Render(text)
	}
	w := 0
	for _, s := range segs {
		if w >= width {
			break
		}
		text := s.S
		sw := inert.Cells(text)
		if w+sw > width {
			text = ansi.Truncate(text, width-w, "")
			sw = inert.Cells(text)
		}
		w += sw
		b.WriteString(s.St.Render(text))
	}
	if w < width {
		b.WriteString(strings.Repeat(" ", width-w))
	}
	return b.String()
}

// Blank is an empty row.
func Blank(width int) string { return strings.Repeat(" ", max(width, 0)) }

// Rule is a horizontal line across the row.
func Rule(st *themes.Styles, width int) string {
	return st.Subtle.Render(strings.Repeat("─", max(width, 0)))
}

// ScrollRule is Rule with the scroll marker of sc at its right end (a
// long form's fields continuing above or below).
func ScrollRule(st *themes.Styles, width int, sc Scroll) string {
	mark := sc.marks()
	mw := ansi.StringWidth(mark)
	if mark == "" || mw+2 > width {
		return Rule(st, width)
	}
	return st.Subtle.Render(strings.Repeat("─", width-mw-1)) + st.Muted.Render(mark) + st.Subtle.Render("─")
}

// Pad makes lines exactly h long, adding blank rows or cutting.
func Pad(lines []string, width, h int) []string {
	if len(lines) > h {
		return lines[:max(h, 0)]
	}
	for len(lines) < h {
		lines = append(lines, Blank(width))
	}
	return lines
}

// Box draws a bordered box of exactly w×h cells with a title in its top
// border; body lines must be w-2 cells wide (missing ones are blank).
func Box(st *themes.Styles, w, h int, safeTitle string, focused bool, body []string) string {
	return AlertBox(st, w, h, safeTitle, focused, false, body)
}

// AlertBox is Box, drawn in the pending-question colour when alert is set,
// so that a pane asking for attention stands out.
func AlertBox(st *themes.Styles, w, h int, safeTitle string, focused, alert bool, body []string) string {
	return ScrollBox(st, w, h, safeTitle, focused, alert, body, Scroll{})
}

// Scroll says how many rows of a list are above and below what is shown.
type Scroll struct{ Above, Below int }

// marks is the scroll marker drawn in a box's bottom border ("" when all
// is shown).
func (s Scroll) marks() string {
	switch {
	case s.Above > 0 && s.Below > 0:
		return fmt.Sprintf(" ↑ %d · ↓ %d more ", s.Above, s.Below)
	case s.Above > 0:
		return fmt.Sprintf(" ↑ %d more ", s.Above)
	case s.Below > 0:
		return fmt.Sprintf(" ↓ %d more ", s.Below)
	}
	return ""
}

// ScrollBox is AlertBox with a scroll marker in its bottom border where
// the list continues above or below, so that a cut list says so.
func ScrollBox(st *themes.Styles, w, h int, safeTitle string, focused, alert bool, body []string, sc Scroll) string {
	if w < 2 || h < 2 {
		return ""
	}
	border := lipgloss.RoundedBorder()
	bst, tst := st.Pane, st.Title
	if focused {
		border, bst, tst = lipgloss.ThickBorder(), st.PaneFocused, st.TitleFocus
	}
	fgc := bst.GetBorderTopForeground()
	if alert {
		border, tst = lipgloss.ThickBorder(), st.Pending
		fgc = st.Pending.GetForeground()
	}
	paint := func(s string) string { return lipgloss.NewStyle().Foreground(fgc).Render(s) }
	inner := w - 2
	title := inert.Truncate(" "+safeTitle+" ", max(inner-2, 0), "… ")
	tw := ansi.StringWidth(title)
	var b strings.Builder
	b.WriteString(paint(border.TopLeft+border.Top) + tst.Render(title) +
		paint(strings.Repeat(border.Top, max(inner-1-tw, 0))+border.TopRight))
	blank := Blank(inner)
	// The sides are painted once, not on every row (every frame draws
	// each pane's every row).
	left, right := "\n"+paint(border.Left), paint(border.Right)
	for i := range h - 2 {
		line := blank
		if i < len(body) {
			line = body[i]
		}
		b.WriteString(left)
		b.WriteString(line)
		b.WriteString(right)
	}
	mark := sc.marks()
	if ansi.StringWidth(mark)+2 > inner {
		mark = ""
	}
	mw := ansi.StringWidth(mark)
	b.WriteString("\n" + paint(border.BottomLeft+strings.Repeat(border.Bottom, max(inner-mw-1, 0))) + tst.Render(mark) +
		paint(strings.Repeat(border.Bottom, min(1, inner-mw))+border.BottomRight))
	return b.String()
}

// Window returns the offset that keeps cursor visible in a list of n rows
// shown h at a time, starting from the previous offset.
func Window(offset, cursor, n, h int) int {
	if h <= 0 {
		return 0
	}
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+h {
		offset = cursor - h + 1
	}
	offset = min(offset, max(n-h, 0))
	return max(offset, 0)
}
