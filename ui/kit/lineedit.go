package kit

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/keymap"
)

// LineEdit is a one-line text editor that draws its text escaped (inert),
// so a value that came from the server (a default, a remembered argument)
// cannot reach the terminal raw, as it would through bubbles' textinput.
type LineEdit struct {
	r   []rune
	pos int
	// sel means the whole text is selected: typing or deleting replaces
	// it, moving keeps it (see SelectAll).
	sel bool
}

// SelectAll selects the whole text (a prefilled value), so that typing
// replaces it; a key that moves the cursor keeps the text.
func (e *LineEdit) SelectAll() { e.sel = len(e.r) > 0 }

// Selected reports whether the whole text is selected.
func (e *LineEdit) Selected() bool { return e.sel }

// NewLineEdit starts an editor on s with the cursor at the end.
func NewLineEdit(s string) LineEdit {
	e := LineEdit{}
	e.Set(s)
	return e
}

// Value is the text.
func (e *LineEdit) Value() string { return string(e.r) }

// Set replaces the text and puts the cursor at the end.
func (e *LineEdit) Set(s string) {
	e.r = []rune(s)
	e.pos = len(e.r)
	e.sel = false
}

// Insert types s at the cursor (a paste; newlines become spaces).
func (e *LineEdit) Insert(s string) {
	if e.sel {
		e.r, e.pos, e.sel = nil, 0, false
	}
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	ins := []rune(s)
	e.r = append(e.r[:e.pos], append(ins, e.r[e.pos:]...)...)
	e.pos += len(ins)
}

// Key applies an editing key of t (keymap.Text) and reports whether the
// text changed and whether the key was an editing key at all (so callers
// can use the others for movement).
func (e *LineEdit) Key(msg tea.KeyPressMsg, t keymap.Text) (changed, handled bool) {
	before := string(e.r)
	if e.sel {
		switch {
		case key.Matches(msg, t.Backspace, t.Delete, t.KillBefore, t.KillAfter, t.KillWord):
			e.r, e.pos, e.sel = nil, 0, false
			return before != "", true
		case msg.Text == "" || msg.Mod&(tea.ModCtrl|tea.ModAlt) != 0:
			// A key that moves keeps the text and ends the selection.
			e.sel = false
		}
	}
	switch {
	case key.Matches(msg, t.Left):
		e.pos = max(e.pos-1, 0)
	case key.Matches(msg, t.Right):
		e.pos = min(e.pos+1, len(e.r))
	case key.Matches(msg, t.Home):
		e.pos = 0
	case key.Matches(msg, t.End):
		e.pos = len(e.r)
	case key.Matches(msg, t.Backspace):
		if e.pos > 0 {
			e.r = append(e.r[:e.pos-1], e.r[e.pos:]...)
			e.pos--
		}
	case key.Matches(msg, t.Delete):
		if e.pos < len(e.r) {
			e.r = append(e.r[:e.pos], e.r[e.pos+1:]...)
		}
	case key.Matches(msg, t.KillBefore):
		e.r, e.pos = e.r[e.pos:], 0
	case key.Matches(msg, t.KillAfter):
		e.r = e.r[:e.pos]
	case key.Matches(msg, t.KillWord):
		i := e.pos
		for i > 0 && unicode.IsSpace(e.r[i-1]) {
			i--
		}
		for i > 0 && !unicode.IsSpace(e.r[i-1]) {
			i--
		}
		e.r, e.pos = append(e.r[:i], e.r[e.pos:]...), i
	case key.Matches(msg, t.WordLeft):
		for e.pos > 0 && unicode.IsSpace(e.r[e.pos-1]) {
			e.pos--
		}
		for e.pos > 0 && !unicode.IsSpace(e.r[e.pos-1]) {
			e.pos--
		}
	case key.Matches(msg, t.WordRight):
		for e.pos < len(e.r) && unicode.IsSpace(e.r[e.pos]) {
			e.pos++
		}
		for e.pos < len(e.r) && !unicode.IsSpace(e.r[e.pos]) {
			e.pos++
		}
	default:
		if msg.Text == "" || msg.Mod&(tea.ModCtrl|tea.ModAlt) != 0 {
			return false, false
		}
		e.Insert(msg.Text)
	}
	return string(e.r) != before, true
}

// View draws the text escaped in exactly w cells; when focused the cursor
// is drawn in cur and the text scrolls to keep it in view. An empty text
// shows safePlaceholder (the program's own words) in ph.
func (e *LineEdit) View(w int, focused bool, st, cur, ph lipgloss.Style, safePlaceholder string) string {
	placeholder := safePlaceholder
	if w <= 0 {
		return ""
	}
	if len(e.r) == 0 && !focused {
		return ph.Render(inert.Pad(inert.Truncate(placeholder, w, "…"), w))
	}
	if !focused {
		return st.Render(inert.FitPad(string(e.r), w))
	}
	if e.sel {
		// The selection is drawn as the cursor is (typing replaces it), from
		// its start: the value as it reads, all of it when it fits. The
		// value may be the server's (a default): Fit escapes it.
		text := inert.Fit(string(e.r), w)
		return cur.Render(text) + strings.Repeat(" ", max(w-ansi.StringWidth(text), 0))
	}
	pre := inert.Line(string(e.r[:e.pos]))
	at, post := " ", ""
	if e.pos < len(e.r) {
		at = inert.Line(string(e.r[e.pos]))
		post = inert.Line(string(e.r[e.pos+1:]))
	}
	room := w - ansi.StringWidth(at)
	if pw := ansi.StringWidth(pre); pw > room {
		pre = ansi.TruncateLeft(pre, pw-room, "")
	}
	rest := max(w-ansi.StringWidth(pre)-ansi.StringWidth(at), 0)
	post = ansi.Truncate(post, rest, "")
	if len(e.r) == 0 && placeholder != "" {
		return cur.Render(" ") + ph.Render(inert.Pad(inert.Truncate(placeholder, w-1, "…"), w-1))
	}
	line := st.Render(pre) + cur.Render(at) + st.Render(post)
	return line + strings.Repeat(" ", max(w-ansi.StringWidth(pre)-ansi.StringWidth(at)-ansi.StringWidth(post), 0))
}
