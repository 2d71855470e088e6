package ui

import (
	"context"
	"github.com/mcptui/mcptui/keymap"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/ui/kit"
)

// versionPicker picks the protocol version to reconnect at: negotiation
// among all, or one pinned. Hosts (desktop chat apps, coding agents) often
// negotiate an older version than mcptui's newest; a server author tests
// the one their host uses.
type versionPicker struct {
	cursor int
}

// versionChoices are the picker's rows: nil (negotiate) then each version.
func versionChoices() [][]string {
	out := [][]string{nil}
	for _, v := range mcp.DefaultVersions {
		out = append(out, []string{v})
	}
	return out
}

// openVersion opens the picker on the versions allowed now.
func (m *Model) openVersion() {
	r, ok := m.backend.(backend.Reconnector)
	if !ok {
		m.say(true, "this connection cannot reconnect at another version")
		return
	}
	d := &versionPicker{}
	for i, c := range versionChoices() {
		if slices.Equal(c, r.Versions()) {
			d.cursor = i
		}
	}
	m.show(d)
}

// key drives the picker: up/down, enter reconnects, esc closes.
func (d *versionPicker) key(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	choices := versionChoices()
	switch {
	case key.Matches(msg, m.keys.Overlay.Close):
		m.closeOverlay(d)
	case key.Matches(msg, m.keys.List.Up):
		d.cursor = max(d.cursor-1, 0)
	case key.Matches(msg, m.keys.List.Down):
		d.cursor = min(d.cursor+1, len(choices)-1)
	case key.Matches(msg, m.keys.List.Top):
		d.cursor = 0
	case key.Matches(msg, m.keys.List.Bottom):
		d.cursor = len(choices) - 1
	case key.Matches(msg, m.keys.Composer.Choose, m.keys.Overlay.Submit):
		m.closeOverlay(d)
		r, ok := m.backend.(backend.Reconnector)
		if !ok {
			return nil
		}
		versions := choices[d.cursor]
		what := "reconnected, negotiating among all versions"
		if versions != nil {
			what = "reconnected pinned to " + versions[0]
		}
		m.say(false, "reconnecting…")
		return m.do(what, func(ctx context.Context) error { return r.RestartAt(ctx, versions) })
	}
	return nil
}

// View draws the picker's body.
func (d *versionPicker) View(m *Model, w, h int) []string {
	st := m.styles
	c := m.sess.Conn()
	out := []string{kit.Row(m.styles, w, false, kit.Own(" Reconnect at (the history stays, like r):", w, st.Bold))}
	for i, choice := range versionChoices() {
		label := "negotiate: the newest both speak"
		if choice != nil {
			label = "pin " + choice[0] + versionNote(choice[0])
			if slices.Contains(c.Offered, choice[0]) {
				label += "  · the server offered it"
			}
		}
		out = append(out, kit.Row(m.styles, w, i == d.cursor, kit.Own("   "+label, w, st.Text)))
	}
	if len(c.Offered) > 0 {
		out = append(out, kit.Row(m.styles, w, false), kit.Row(m.styles, w, false, kit.Own(" The server offered: ", 21, st.Muted), kit.Srv(strings.Join(c.Offered, ", "), max(w-21, 0), st.Text)))
	}
	out = append(out, kit.Row(m.styles, w, false, kit.Own(" "+keymap.Hint(m.versionKeys()...), w, st.Muted)))
	for len(out) < h {
		out = append(out, kit.Row(m.styles, w, false))
	}
	return out[:min(len(out), h)]
}

// versionNote says which hosts a version is typical of, briefly.
func versionNote(v string) string {
	switch v {
	case mcp.Version20260728:
		return " (stateless: no initialize)"
	case mcp.Version20250326:
		return " (JSON-RPC batches)"
	case mcp.Version20241105:
		return " (the first revision)"
	}
	return ""
}

// versionKeys are the keys of the version picker.
func (m *Model) versionKeys() []key.Binding {
	return []key.Binding{keymap.Described(m.keys.Composer.Choose, "reconnects"), m.keys.Overlay.Close}
}

// Update drives the picker by its keys.
func (d *versionPicker) Update(m *Model, msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return d.key(m, k)
	}
	return nil
}

// Title names the picker.
func (d *versionPicker) Title(*Model) string { return "Protocol version" }

// Context is a dialog's.
func (d *versionPicker) Context(*Model) keymap.Context { return keymap.DialogOverlay }

// Keys are the picker's own.
func (d *versionPicker) Keys(m *Model) []key.Binding { return m.versionKeys() }

// FooterKeys are its own too (a dialog's are a form's: send, next field).
func (d *versionPicker) FooterKeys(m *Model) []key.Binding { return m.versionKeys() }
