package dialog

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
	"github.com/mcptui/mcptui/ui/overlay"
)

// Version picks the protocol version to reconnect at: negotiation
// among all, or one pinned. Hosts (desktop chat apps, coding agents) often
// negotiate an older version than mcptui's newest; a server author tests
// the one their host uses. It is an overlay of the root model H (V).
type Version[H Host] struct {
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

// OpenVersion opens the picker over m on the versions allowed now, or
// says why it cannot.
func OpenVersion[H Host](m H) {
	r, ok := m.Backend().(backend.Reconnector)
	if !ok {
		m.Say(true, "this connection cannot reconnect at another version")
		return
	}
	d := &Version[H]{}
	for i, c := range versionChoices() {
		if slices.Equal(c, r.Versions()) {
			d.cursor = i
		}
	}
	m.Show(d)
}

// key drives the picker: up/down, enter reconnects, esc closes.
func (d *Version[H]) key(m H, msg tea.KeyPressMsg) tea.Cmd {
	choices := versionChoices()
	switch {
	case key.Matches(msg, m.Keys().Overlay.Close):
		m.CloseOverlay(d)
	case key.Matches(msg, m.Keys().List.Up):
		d.cursor = max(d.cursor-1, 0)
	case key.Matches(msg, m.Keys().List.Down):
		d.cursor = min(d.cursor+1, len(choices)-1)
	case key.Matches(msg, m.Keys().List.Top):
		d.cursor = 0
	case key.Matches(msg, m.Keys().List.Bottom):
		d.cursor = len(choices) - 1
	case key.Matches(msg, m.Keys().Composer.Choose, m.Keys().Overlay.Submit):
		m.CloseOverlay(d)
		r, ok := m.Backend().(backend.Reconnector)
		if !ok {
			return nil
		}
		versions := choices[d.cursor]
		what := "reconnected, negotiating among all versions"
		if versions != nil {
			what = "reconnected pinned to " + versions[0]
		}
		m.Say(false, "reconnecting…")
		return func() tea.Msg { return overlay.Done{What: what, Err: r.RestartAt(context.Background(), versions)} }
	}
	return nil
}

// View draws the picker's body.
func (d *Version[H]) View(m H, w, h int) []string {
	st := m.Styles()
	c := m.Session().Conn()
	out := []string{kit.Row(m.Styles(), w, false, kit.Own(" Reconnect at (the history stays, like r):", w, st.Bold))}
	for i, choice := range versionChoices() {
		label := "negotiate: the newest both speak"
		if choice != nil {
			label = "pin " + choice[0] + versionNote(choice[0])
			if slices.Contains(c.Offered, choice[0]) {
				label += "  · the server offered it"
			}
		}
		out = append(out, kit.Row(m.Styles(), w, i == d.cursor, kit.Own("   "+label, w, st.Text)))
	}
	if len(c.Offered) > 0 {
		out = append(out, kit.Row(m.Styles(), w, false), kit.Row(m.Styles(), w, false, kit.Own(" The server offered: ", 21, st.Muted), kit.Srv(strings.Join(c.Offered, ", "), max(w-21, 0), st.Text)))
	}
	out = append(out, kit.Row(m.Styles(), w, false, kit.Own(" "+keymap.Hint(versionKeys(m)...), w, st.Muted)))
	for len(out) < h {
		out = append(out, kit.Row(m.Styles(), w, false))
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
func versionKeys(m overlay.Host) []key.Binding {
	return []key.Binding{keymap.Described(m.Keys().Composer.Choose, "reconnects"), m.Keys().Overlay.Close}
}

// Update drives the picker by its keys.
func (d *Version[H]) Update(m H, msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return d.key(m, k)
	}
	return nil
}

// Title names the picker.
func (d *Version[H]) Title(H) string { return "Protocol version" }

// Context is a dialog's.
func (d *Version[H]) Context(H) keymap.Context { return keymap.DialogOverlay }

// Keys are the picker's own.
func (d *Version[H]) Keys(m H) []key.Binding { return versionKeys(m) }

// FooterKeys are its own too (a dialog's are a form's: send, next field).
func (d *Version[H]) FooterKeys(m H) []key.Binding { return versionKeys(m) }
