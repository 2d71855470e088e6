package kit

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/inert"
)

// Wrap escapes server text (inert.Text: newlines kept, everything else
// made visible) and wraps it to width cells, words first, long words cut.
// At most maxLines lines are returned (0: no limit) and more reports
// whether text was left out.
func Wrap(text string, width, maxLines int) (lines []string, more bool) {
	if width <= 0 {
		return nil, text != ""
	}
	// With a line limit, only a prefix of the text can show: cut there
	// (at up to 8 bytes a cell), so a huge text costs no more than a
	// screenful on every frame.
	cut := false
	if limit := maxLines * (width + 1) * 8; maxLines > 0 && len(text) > limit {
		text, cut = strings.ToValidUTF8(text[:limit], ""), true
	}
	defer func() { more = more || cut }()
	paras := strings.Split(text, "\n")
	for i, para := range paras {
		safe := inert.Text(para)
		if safe == "" {
			lines = append(lines, "")
		} else {
			lines = append(lines, strings.Split(ansi.Wrap(safe, width, ""), "\n")...)
		}
		if maxLines > 0 && len(lines) >= maxLines {
			return lines[:maxLines], len(lines) > maxLines || i < len(paras)-1
		}
	}
	return lines, false
}

// WrapSafe wraps text that is already safe (the program's own, or
// escaped) to width cells.
func WrapSafe(safe string, width int) []string {
	if width <= 0 {
		return nil
	}
	var out []string
	for _, para := range strings.Split(safe, "\n") {
		if para == "" {
			out = append(out, "")
			continue
		}
		out = append(out, strings.Split(ansi.Wrap(para, width, ""), "\n")...)
	}
	return out
}
