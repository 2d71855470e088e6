package ui

import (
	"context"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// levelPicker picks the log level asked of the server.
type levelPicker struct{ cursor int }

// openLevelPicker opens the picker on the level in effect.
func (m *Model) openLevelPicker() {
	p := &levelPicker{}
	if r := model.LevelRank(m.sess.Conn().LogLevel); r >= 0 {
		p.cursor = r
	}
	m.show(p)
}

// key handles the picker's keys.
func (p *levelPicker) key(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	l := m.keys.List
	switch {
	case key.Matches(msg, m.keys.Overlay.Close):
		m.closeOverlay(p)
	case key.Matches(msg, l.Up):
		p.cursor = max(p.cursor-1, 0)
	case key.Matches(msg, l.Down):
		p.cursor = min(p.cursor+1, len(mcp.LogLevels)-1)
	case key.Matches(msg, m.keys.Overlay.Submit, m.keys.Log.SetLevel):
		m.closeOverlay(p)
		level := mcp.LogLevels[p.cursor]
		setter, ok := m.backend.(backend.LogLeveler)
		if !ok {
			m.say(true, "this connection cannot set the log level")
			return nil
		}
		m.say(false, "asking the server for %s and above…", level)
		return m.do("log level "+level, func(ctx context.Context) error { return setter.SetLogLevel(ctx, level) })
	}
	return nil
}

// View draws the picker's body.
func (p *levelPicker) View(m *Model, w, h int) []string {
	st := m.styles
	c := m.sess.Conn()
	out := []string{kit.Row(st, w, false, kit.Own(" The least severe level the server should send:", w, st.Muted))}
	for i, l := range mcp.LogLevels {
		mark := "  "
		if l == c.LogLevel {
			mark = "• "
		}
		out = append(out, kit.Row(st, w, i == p.cursor, kit.Txt("  "+mark, st.Accent), kit.Own(l, w-6, kit.LevelStyle(st, l))))
	}
	how := "logging/setLevel is sent"
	if mcp.Stateless(c.Protocol) {
		how = "2026-07-28: every request carries it in _meta"
	}
	out = append(out, kit.Blank(w), kit.Row(st, w, false, kit.Own(" "+how+" · enter sets it · esc cancels", w, st.Subtle)))
	return kit.Pad(out, w, h)
}

// Update drives the picker by its keys.
func (p *levelPicker) Update(m *Model, msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return p.key(m, k)
	}
	return nil
}

// Title names the picker.
func (p *levelPicker) Title(*Model) string { return "Log level" }

// Context is a dialog's.
func (p *levelPicker) Context(*Model) keymap.Context { return keymap.DialogOverlay }

// Keys are the picker's own: enter sets the level, the arrows move, esc
// closes.
func (p *levelPicker) Keys(m *Model) []key.Binding {
	return []key.Binding{m.keys.Log.SetLevel, m.keys.List.Up, m.keys.List.Down, m.keys.Overlay.Close}
}

// footerKeys are its own too (a dialog's are a form's: send, next field).
func (p *levelPicker) footerKeys(m *Model) []key.Binding { return p.Keys(m) }
