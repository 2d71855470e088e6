package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/inert"
)

func sprintf(format string, args ...any) string {
	if len(args) == 0 {
		return format
	}
	return fmt.Sprintf(format, args...)
}

// seg is a piece of a row: safe text (escaped or the program's own) and its
// style.
type seg struct {
	s  string
	st lipgloss.Style
}

// srv is a column of server text: escaped, cut and padded to w cells.
func srv(s string, w int, st lipgloss.Style) seg {
	return seg{inert.FitPad(s, w), st}
}

// own is a column of the program's own text, cut and padded to w cells.
func own(s string, w int, st lipgloss.Style) seg {
	return seg{inert.Pad(inert.Truncate(s, w, "…"), w), st}
}

// fit cuts or pads safe text to exactly w cells.
func fit(safe string, w int) string {
	return inert.Pad(ansi.Truncate(safe, w, ""), w)
}

// row joins segments into one line of exactly width cells. A selected row
// is drawn in the selection style alone, so its background runs unbroken.
func (m *Model) row(width int, selected bool, segs ...seg) string {
	var b strings.Builder
	if selected {
		for _, s := range segs {
			b.WriteString(s.s)
		}
		text := inert.Pad(ansi.Truncate(b.String(), width, ""), width)
		if m.styles.Palette.Mono {
			text = "▌" + ansi.Truncate(text, width-1, "")
		}
		return m.styles.Selected.Render(text)
	}
	w := 0
	for _, s := range segs {
		if w >= width {
			break
		}
		text := s.s
		if sw := ansi.StringWidth(text); w+sw > width {
			text = ansi.Truncate(text, width-w, "")
		}
		w += ansi.StringWidth(text)
		b.WriteString(s.st.Render(text))
	}
	if w < width {
		b.WriteString(strings.Repeat(" ", width-w))
	}
	return b.String()
}

// box draws a bordered pane of exactly w×h cells with a title in its top
// border; body lines must already be w-2 cells wide (missing ones are
// blank).
func (m *Model) box(w, h int, title string, focused bool, body []string) string {
	return m.alertBox(w, h, title, focused, false, body)
}

// alertBox is box, drawn in the pending-question colour when alert is set,
// so that a pane asking for attention stands out.
func (m *Model) alertBox(w, h int, title string, focused, alert bool, body []string) string {
	if w < 2 || h < 2 {
		return ""
	}
	border := lipgloss.RoundedBorder()
	bst, tst := m.styles.Pane, m.styles.Title
	if focused {
		border, bst, tst = lipgloss.ThickBorder(), m.styles.PaneFocused, m.styles.TitleFocus
	}
	fgc := bst.GetBorderTopForeground()
	if alert {
		border, tst = lipgloss.ThickBorder(), m.styles.Pending
		fgc = m.styles.Pending.GetForeground()
	}
	paint := func(s string) string { return lipgloss.NewStyle().Foreground(fgc).Render(s) }
	inner := w - 2
	title = inert.Truncate(" "+title+" ", max(inner-2, 0), "… ")
	tw := ansi.StringWidth(title)
	var b strings.Builder
	b.WriteString(paint(border.TopLeft+border.Top) + tst.Render(title) + paint(strings.Repeat(border.Top, max(inner-1-tw, 0))+border.TopRight))
	blank := strings.Repeat(" ", inner)
	for i := range h - 2 {
		line := blank
		if i < len(body) {
			line = body[i]
		}
		b.WriteString("\n" + paint(border.Left) + line + paint(border.Right))
	}
	b.WriteString("\n" + paint(border.BottomLeft+strings.Repeat(border.Bottom, inner)+border.BottomRight))
	return b.String()
}

// fmtAge is a short duration: 450ms, 12s, 3m04s, 1h02m.
func fmtAge(d time.Duration) string {
	switch {
	case d < 0:
		return "-" + fmtAge(-d)
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// fmtClock is the time of day with milliseconds, in the clock's zone.
func fmtClock(t time.Time) string { return t.Format("15:04:05.000") }

// bar draws a progress bar of w cells: filled to frac, or, when there is no
// total, a block bouncing with the clock. Unstyled, it suits a selected row.
func (m *Model) bar(w int, frac float64, determinate bool, now time.Time, styled bool) string {
	if w <= 0 {
		return ""
	}
	plain := func(s string) string { return s }
	full, empty := plain, plain
	if styled {
		full = func(s string) string { return m.styles.ProgressFull.Render(s) }
		empty = func(s string) string { return m.styles.ProgressEmpty.Render(s) }
	}
	rep := func(paint func(string) string, s string, n int) string {
		if n <= 0 {
			return ""
		}
		return paint(strings.Repeat(s, n))
	}
	if determinate {
		n := int(frac*float64(w) + 0.5)
		return rep(full, "█", n) + rep(empty, "░", w-n)
	}
	block := min(3, w)
	span := w - block
	pos := 0
	if span > 0 {
		step := int(now.UnixMilli()/250) % (2 * span)
		pos = step
		if step > span {
			pos = 2*span - step
		}
	}
	return rep(empty, "░", pos) + rep(full, "▓", block) + rep(empty, "░", span-pos)
}
