package ui

import (
	"context"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/ui/kit"
)

// levelPicker is the log level picker (kit.LevelPicker, the catalog's
// too) as an overlay: it sets the level through the backend, and the
// model hears of the level in effect.
type levelPicker struct{ p *kit.LevelPicker }

// openLevelPicker opens the picker on the level in effect.
func (m *Model) openLevelPicker() {
	m.show(&levelPicker{p: kit.NewLevelPicker(m.sess.Conn().LogLevel)})
}

// key handles the picker's keys.
func (p *levelPicker) key(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	level, done := p.p.Key(msg, &m.keys)
	if !done {
		return nil
	}
	m.closeOverlay(p)
	if level == "" {
		return nil
	}
	setter, ok := m.backend.(backend.LogLeveler)
	if !ok {
		m.say(true, "this connection cannot set the log level")
		return nil
	}
	m.say(false, "asking the server for %s and above…", level)
	return m.do("log level "+level, func(ctx context.Context) error { return setter.SetLogLevel(ctx, level) })
}

// View draws the picker's body.
func (p *levelPicker) View(m *Model, w, h int) []string {
	c := m.sess.Conn()
	return p.p.View(m.styles, &m.keys, w, h, c.LogLevel, c.Protocol)
}

// Update drives the picker by its keys.
func (p *levelPicker) Update(m *Model, msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return p.key(m, k)
	}
	return nil
}

// Title names the picker.
func (p *levelPicker) Title(*Model) string { return kit.LevelPickerTitle }

// Context is a dialog's.
func (p *levelPicker) Context(*Model) keymap.Context { return keymap.DialogOverlay }

// Keys are the picker's own: enter sets the level, the arrows move, esc
// closes.
func (p *levelPicker) Keys(m *Model) []key.Binding { return kit.LevelPickerKeys(&m.keys) }

// FooterKeys are its own too (a dialog's are a form's: send, next field).
func (p *levelPicker) FooterKeys(m *Model) []key.Binding { return p.Keys(m) }
