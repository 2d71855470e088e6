package ui

import (
	"context"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/ui/dialog"
)

// key routes a key: the open overlay or text field first, then the global
// keys, then the focused pane.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	m.notice, m.noticeErr = "", false // a key press acknowledges the last notice
	top := m.top()
	if _, inHelp := top.(*helpOverlay); !inHelp && msg.Text == "" && key.Matches(msg, m.keys.Global.Help) {
		// The help key that cannot be typed (f1) works everywhere, forms
		// and editors too; esc comes back to where it was.
		m.openHelp()
		return nil
	}
	if top != nil {
		return top.Update(m, msg)
	}
	if m.traffic.editing {
		return m.filterKey(msg)
	}
	if m.catalogOwns(msg) {
		return m.catalogKey(msg)
	}
	if m.refuse(msg) {
		return nil
	}
	if cmd, ok := m.viewsGlobalKey(msg); ok {
		return cmd
	}
	g := m.keys.Global
	switch {
	case key.Matches(msg, g.Quit):
		m.say(false, "shutting the server down…")
		return m.quit()
	case key.Matches(msg, g.Help):
		m.openHelp()
	case key.Matches(msg, g.NextPane):
		return m.cycleFocus(1)
	case key.Matches(msg, g.PrevPane):
		return m.cycleFocus(-1)
	case key.Matches(msg, g.Catalog, g.Pane6):
		return m.openCatalog()
	case key.Matches(msg, g.Compose):
		return m.openComposer()
	case key.Matches(msg, g.Zoom):
		m.zoom = !m.zoom
	case key.Matches(msg, g.Version):
		dialog.OpenVersion(m)
	case key.Matches(msg, g.Restart):
		b := m.backend
		m.say(false, "restarting the server…")
		return m.do("restarted the server", func(ctx context.Context) error { return b.Restart(ctx) })
	case key.Matches(msg, g.Pane1, g.Pane2, g.Pane3, g.Pane4, g.Pane5):
		for i, b := range []key.Binding{g.Pane1, g.Pane2, g.Pane3, g.Pane4, g.Pane5} {
			if key.Matches(msg, b) {
				m.focusPane(pane(i))
			}
		}
	case m.focus == paneCatalog:
		return m.catalogKey(msg)
	default:
		if m.moveKey(msg) {
			return nil
		}
		return m.paneKey(msg)
	}
	return nil
}

// focusPane focuses a pane other than the catalog: traffic, subscriptions
// and stderr take the catalog's room back; requests and questions share
// the screen with it.
func (m *Model) focusPane(p pane) {
	if p == paneTraffic || p == paneSubs || p == paneStderr {
		m.catalogShown = false
	}
	if p == paneInFlight && m.focus != paneInFlight {
		m.cursorToNewRequest()
	}
	m.viewsFocus(p)
	m.focus = p
}

// cycleFocus moves the focus to the next (or previous) pane on the screen:
// 1, 2, 3, 4, 5 with traffic in the middle; 1, 2, 6 with the catalog.
func (m *Model) cycleFocus(d int) tea.Cmd {
	order := m.focusOrder()
	i := 0
	for j, p := range order {
		if p == m.focus {
			i = j
		}
	}
	m.focus = order[(i+d+len(order))%len(order)]
	return nil
}

// quit shuts the server down, then ends the program.
func (m *Model) quit() tea.Cmd {
	b := m.backend
	return func() tea.Msg {
		if b != nil {
			_ = b.Shutdown(context.Background())
		}
		return tea.QuitMsg{}
	}
}

// rowsOf is the number of rows the focused pane lists.
func (m *Model) rowsOf(p pane) int {
	if n, ok := m.viewRows(p); ok {
		return n
	}
	switch p {
	case paneInFlight:
		return len(m.flightRows())
	case panePending:
		return len(m.sess.Questions())
	case paneTraffic:
		return m.traffic.len(m.sess.History())
	case paneSubs:
		return len(m.sess.Subscriptions())
	}
	if m.networkShown() {
		return m.sess.Network().Len()
	}
	return m.sess.StderrLog().Len()
}

// list is the selection state of a pane.
func (m *Model) list(p pane) *listState {
	if p == paneTraffic {
		return &m.traffic.list
	}
	if p == paneStderr && m.networkShown() {
		return &m.net.list
	}
	return &m.lists[p]
}

// moveKey handles the movement keys for the focused pane.
func (m *Model) moveKey(msg tea.KeyPressMsg) bool {
	l, n := m.list(m.focus), m.rowsOf(m.focus)
	page := max(m.rects()[m.focus].inner()-1, 1)
	k := m.keys.List
	delta := 0
	switch {
	case key.Matches(msg, k.Up):
		delta = -1
	case key.Matches(msg, k.Down):
		delta = 1
	case key.Matches(msg, k.PageUp):
		delta = -page
	case key.Matches(msg, k.PageDown):
		delta = page
	case key.Matches(msg, k.Top):
		delta = -n
	case key.Matches(msg, k.Bottom):
		delta = n
	default:
		return false
	}
	l.move(delta, n)
	m.followIfAtEnd(l, n)
	return true
}

// followIfAtEnd makes traffic and stderr follow the newest line when the
// cursor is on it, and stop following when it is not.
func (m *Model) followIfAtEnd(l *listState, n int) {
	atEnd := l.cursor >= n-1
	switch m.focus {
	case paneTraffic:
		m.traffic.follow = atEnd
	case paneStderr:
		if m.networkShown() {
			m.net.scrolled = !atEnd
		} else {
			m.stderrFollow = atEnd
		}
	case paneLog:
		m.views.logFollow = atEnd
	}
}

// paneKey handles the focused pane's own keys.
func (m *Model) paneKey(msg tea.KeyPressMsg) tea.Cmd {
	switch m.focus {
	case paneInFlight:
		return m.inFlightKey(msg)
	case panePending:
		return m.pendingKey(msg)
	case paneTraffic:
		return m.trafficKey(msg)
	case paneSubs:
		return m.subsKey(msg)
	case paneLog:
		return m.logKey(msg)
	case paneServer:
		return m.serverKey(msg)
	case paneStderr:
		if m.httpServer() {
			return m.networkKey(msg)
		}
	}
	return nil
}
