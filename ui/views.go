package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/ui/kit"
)

// Where the log view (7) and the server view (8) sit among the panes: the
// log is the bottom row's third pane, beside subscriptions and stderr, and
// a strip under the catalog when the screen is tall enough, so that a
// server's log messages are in view while it is used; the server view
// takes the middle slot in place of traffic, as the catalog does.

// logStripMinBody is the body height from which the catalog keeps a strip
// of the log under it.
const logStripMinBody = 26

// rects places every pane: layout's, with the bottom row split three ways
// and the middle slot given to the server view when it holds it.
func (m *Model) rects() [paneCount]rect {
	r := layout(m.width, m.height, m.zoom, m.focus, m.catalogShown)
	if m.zoom {
		return r
	}
	if m.catalogShown {
		c := r[paneCatalog]
		if m.bodyHeight() >= logStripMinBody {
			strip := max(c.h/4, 5)
			r[paneCatalog].h = c.h - strip
			r[paneLog] = rect{c.x, c.y + c.h - strip, c.w, strip}
		}
		return r
	}
	if m.views.server {
		r[paneServer], r[paneTraffic] = r[paneTraffic], rect{}
	}
	sub, errs := r[paneSubs], r[paneStderr]
	w := sub.w + errs.w
	subW, errW := w/5, w*3/10
	switch {
	case m.httpServer():
		// The network view's columns want the room a stderr pane does
		// not: subscriptions are few over HTTP.
		subW, errW = w/6, w*9/20
	case w < 120:
		subW, errW = w/5, w*2/5
	}
	r[paneSubs] = rect{sub.x, sub.y, subW, sub.h}
	r[paneStderr] = rect{sub.x + subW, sub.y, errW, sub.h}
	r[paneLog] = rect{sub.x + subW + errW, sub.y, w - subW - errW, sub.h}
	return r
}

// bodyHeight is the rows between header and footer.
func (m *Model) bodyHeight() int { return bodyRect(m.width, m.height).h }

// logShown reports whether the log view is on the screen.
func (m *Model) logShown() bool { r := m.rects()[paneLog]; return r.w > 0 && r.h > 0 }

// joinPanes joins the drawn panes into the body: the top row, then the
// middle slot, then the bottom row (or the catalog and its log strip).
func (m *Model) joinPanes(draw func(pane) string) string {
	top := kit.JoinColumns(draw(paneInFlight), draw(panePending))
	if m.catalogShown {
		if strip := draw(paneLog); strip != "" {
			return kit.JoinRows(top, draw(paneCatalog), strip)
		}
		return kit.JoinRows(top, draw(paneCatalog))
	}
	middle := paneTraffic
	if m.views.server {
		middle = paneServer
	}
	bottom := kit.JoinColumns(draw(paneSubs), draw(paneStderr), draw(paneLog))
	return kit.JoinRows(top, draw(middle), bottom)
}

// focusOrder is the panes tab moves through, in screen order.
func (m *Model) focusOrder() []pane {
	if m.catalogShown {
		if m.logShown() {
			return []pane{paneInFlight, panePending, paneCatalog, paneLog}
		}
		return []pane{paneInFlight, panePending, paneCatalog}
	}
	middle := paneTraffic
	if m.views.server {
		middle = paneServer
	}
	return []pane{paneInFlight, panePending, middle, paneSubs, paneStderr, paneLog}
}

// viewsFocus keeps the middle slot in step with a newly focused pane:
// traffic takes it back from the server view, the server view takes it
// from traffic and the catalog, and the log leaves a catalog too short to
// keep it in view.
func (m *Model) viewsFocus(p pane) {
	switch p {
	case paneTraffic:
		m.views.server = false
	case paneServer:
		m.views.server, m.catalogShown = true, false
	case paneLog:
		if m.catalogShown && !m.logShown() {
			m.catalogShown = false
		}
	}
}

// viewsGlobalKey handles the global keys of the two views: 7 and 8 focus
// them, L picks the log level; it reports whether it took the key.
func (m *Model) viewsGlobalKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	g := m.keys.Global
	switch {
	case key.Matches(msg, g.Pane7):
		m.focusPane(paneLog)
	case key.Matches(msg, g.Pane8):
		m.focusPane(paneServer)
	case key.Matches(msg, g.LogLevel):
		m.openLevelPicker()
	default:
		return nil, false
	}
	return nil, true
}

// viewRows is the number of rows of the two views' lists.
func (m *Model) viewRows(p pane) (int, bool) {
	switch p {
	case paneLog:
		return len(m.logRows()), true
	case paneServer:
		return len(m.serverLines(max(m.rects()[paneServer].w-2, 1))), true
	}
	return 0, false
}
