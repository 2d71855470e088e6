package kit

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/textarea"
	"charm.land/lipgloss/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/themes"
)

// NewTextArea is a multi-line editor on text that is safe to show raw (see
// JSONSafe), styled from the theme, with a steady cursor.
func NewTextArea(text string, st *themes.Styles, lineNumbers bool) textarea.Model {
	ta := textarea.New()
	ta.ShowLineNumbers = lineNumbers
	ta.Prompt = " "
	ta.MaxHeight = 0
	ta.CharLimit = 0
	s := textarea.DefaultStyles(!st.Palette.Mono && st.Palette.Name != themes.NameLight)
	s.Cursor.Blink = false
	// The rows past the text are blanks; a colour on a blank is invisible,
	// and the renderer may or may not repaint it (it depends on the frames
	// drawn before), which made screens differ from run to run.
	s.Focused.EndOfBuffer, s.Blurred.EndOfBuffer = lipgloss.NewStyle(), lipgloss.NewStyle()
	s.Focused.Text = st.Text
	s.Blurred.Text = st.Muted
	s.Focused.CursorLine = st.Text
	ta.SetStyles(s)
	ta.SetValue(text)
	ta.Focus()
	return ta
}

// JSONSafe rewrites the characters a terminal must not see raw (controls,
// bidi overrides, invisible format characters) as \u escapes. Inside a JSON
// string they mean the same, so JSON that came from the server can be
// edited in a textarea (which draws its text raw) without risk.
func JSONSafe(s string) string {
	if inert.Text(s) == s {
		return s
	}
	var out strings.Builder
	for _, r := range s {
		if r == '\n' || inert.Safe(string(r)) {
			out.WriteRune(r)
			continue
		}
		if r == utf8.RuneError {
			out.WriteString(`\ufffd`)
			continue
		}
		if r > 0xffff {
			r -= 0x10000
			fmt.Fprintf(&out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			continue
		}
		fmt.Fprintf(&out, `\u%04x`, r)
	}
	return out.String()
}
