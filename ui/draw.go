package ui

import (
	"fmt"
	"strings"
	"time"
)

func sprintf(format string, args ...any) string {
	if len(args) == 0 {
		return format
	}
	return fmt.Sprintf(format, args...)
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
