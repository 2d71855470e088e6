package kit

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/mcptui/mcptui/internal/protocol"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/themes"
)

// LevelStyle colours a syslog level of notifications/message: debug muted,
// info and notice in the informative colours, warning as a warning, error
// and above as errors; anything else as plain text.
func LevelStyle(st *themes.Styles, level string) lipgloss.Style {
	switch level {
	case "debug":
		return st.Muted
	case "info":
		return st.Info
	case "notice":
		return st.Accent
	case "warning":
		return st.Warn
	case "error", "critical", "alert", "emergency":
		return st.Error
	}
	return st.Text
}

// LevelPicker picks the log level asked of the server: the one picker of
// the inspector (L, from any pane) and of the catalog (its own L when it
// runs alone). The server keeps one level per session, so the picker
// holds only its cursor; the level in effect is read from the model
// (model.ConnState.LogLevel) each time it is drawn.
type LevelPicker struct{ cursor int }

// NewLevelPicker opens the picker on the level in effect ("" none: the
// cursor starts on the least severe).
func NewLevelPicker(current string) *LevelPicker {
	return &LevelPicker{cursor: max(protocol.LevelRank(current), 0)}
}

// LevelPickerTitle names the picker.
const LevelPickerTitle = "Log level"

// Key handles one of the picker's keys: the arrows move, enter (or the
// overlay's submit key) picks, esc closes. It reports the level picked
// ("" none) and whether the picker is done.
func (p *LevelPicker) Key(msg tea.KeyPressMsg, km *keymap.KeyMap) (level string, done bool) {
	levels := protocol.LogLevels()
	switch {
	case key.Matches(msg, km.Overlay.Close):
		return "", true
	case key.Matches(msg, km.List.Up):
		p.cursor = max(p.cursor-1, 0)
	case key.Matches(msg, km.List.Down):
		p.cursor = min(p.cursor+1, len(levels)-1)
	case key.Matches(msg, km.Overlay.Submit, km.Log.SetLevel):
		return levels[p.cursor], true
	}
	return "", false
}

// LevelPickerKeys are the picker's own keys, for its footer and the help.
func LevelPickerKeys(km *keymap.KeyMap) []key.Binding {
	return []key.Binding{km.Log.SetLevel, km.List.Up, km.List.Down, km.Overlay.Close}
}

// View draws the picker's body in w×h: the levels, the one in effect
// (current) marked, and how the level reaches a server of protocol.
func (p *LevelPicker) View(st *themes.Styles, km *keymap.KeyMap, w, h int, current, protocolVersion string) []string {
	out := []string{Row(st, w, false, Own(" The least severe level the server should send:", w, st.Muted))}
	for i, l := range protocol.LogLevels() {
		mark := "  "
		if l == current {
			mark = "• "
		}
		out = append(out, Row(st, w, i == p.cursor, Txt("  "+mark, st.Accent), Own(l, w-6, LevelStyle(st, l))))
	}
	how := "logging/setLevel is sent"
	if protocol.Stateless(protocolVersion) {
		how = "2026-07-28: every request carries it in _meta"
	}
	hint := keymap.Hint(keymap.Described(km.Log.SetLevel, "sets it"), keymap.Described(km.Overlay.Close, "cancels"))
	out = append(out, Blank(w), Row(st, w, false, Own(" "+how+" · "+hint, w, st.Subtle)))
	return Pad(out, w, h)
}

// LevelPickerHeight is the number of rows the picker's body draws.
func LevelPickerHeight() int { return len(protocol.LogLevels()) + 3 }
