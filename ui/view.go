package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/ui/kit"
)

// View draws the screen: header, panes (or an overlay), footer.
func (m *Model) View() tea.View {
	if v, ok := m.frames.cached(); ok {
		return v
	}
	v := m.view()
	if m.opts.FrameGap > 0 {
		m.frames.built(v, time.Now())
	}
	return v
}

// view builds the screen.
func (m *Model) view() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "mcptui"
	if m.opts.Title != "" {
		v.WindowTitle = "mcptui — " + inert.Fit(m.opts.Title, 60)
	}
	return v
}

// render is the screen's content.
func (m *Model) render() string {
	w, h := m.width, m.height
	if w < 20 || h < 8 {
		return "mcptui: the terminal is too small"
	}
	var b strings.Builder
	b.WriteString(m.header(w))
	b.WriteString("\n")
	body := bodyRect(w, h)
	if o := m.top(); o != nil {
		b.WriteString(m.drawOverlay(o, body.w, body.h))
	} else {
		b.WriteString(m.drawPanes(w, h))
	}
	b.WriteString("\n")
	b.WriteString(m.footer(w))
	return b.String()
}

// drawPanes lays the panes out and joins them.
func (m *Model) drawPanes(w, h int) string {
	rs := m.rects()
	draw := func(p pane) string {
		r := rs[p]
		if r.w == 0 || r.h == 0 {
			return ""
		}
		alert := p == panePending && m.sess.Counters().Pending > 0
		m.scrolls[p] = kit.Scroll{}
		body := m.paneBody(p, r.w-2, r.inner())
		return kit.ScrollBox(m.styles, r.w, r.h, m.paneTitle(p), p == m.focus, alert, body, m.scrolls[p])
	}
	if m.zoom {
		return draw(m.focus)
	}
	return m.joinPanes(draw)
}

// paneBody draws the body lines of a pane.
func (m *Model) paneBody(p pane, w, h int) []string {
	switch p {
	case paneInFlight:
		return m.drawInFlight(w, h)
	case panePending:
		return m.drawPending(w, h)
	case paneTraffic:
		return m.drawTraffic(w, h)
	case paneSubs:
		return m.drawSubs(w, h)
	case paneCatalog:
		return m.drawCatalog(w, h)
	case paneLog:
		return m.drawLog(w, h)
	case paneServer:
		return m.drawServer(w, h)
	}
	if m.networkShown() {
		return m.drawNetwork(w, h)
	}
	return m.drawStderr(w, h)
}

// paneTitle names a pane, with its number key and counts.
func (m *Model) paneTitle(p pane) string {
	s := m.sess
	switch p {
	case paneInFlight:
		done := len(s.Recent())
		if done == 0 {
			return fmt.Sprintf("1 Requests (%d in flight)", s.Counters().InFlight)
		}
		return fmt.Sprintf("1 Requests (%d in flight · %d done)", s.Counters().InFlight, done)
	case panePending:
		if n := s.Counters().Pending; n > 0 {
			if m.opts.ReadOnly {
				// They wait for the host, not for the person watching.
				return fmt.Sprintf("2 Server asks ● %d waiting", n)
			}
			return fmt.Sprintf("2 Server asks ● %d waiting for you", n)
		}
		return "2 Server asks (0 waiting)"
	case paneTraffic:
		h := s.History()
		t := fmt.Sprintf("3 Traffic (%d)", h.Len())
		if m.traffic.filtering() {
			t = fmt.Sprintf("3 Traffic (%d of %d) filter: %s", m.traffic.len(h), h.Len(), inert.Fit(m.traffic.text, 30))
		}
		if n := h.Evicted(); n > 0 {
			t += fmt.Sprintf(" · %d evicted", n)
		}
		if m.traffic.follow {
			t += " · following"
		}
		return t
	case paneSubs:
		return fmt.Sprintf("4 Subscriptions (%d open)", m.openSubscriptions())
	case paneLog:
		return m.logTitle()
	case paneServer:
		return m.serverTitle()
	case paneCatalog:
		t := "6 Catalog"
		if c := s.Conn(); c.ServerName != "" {
			t += " — " + inert.Fit(c.ServerName, 40)
		}
		return t
	}
	if m.httpServer() {
		// An HTTP server has no stderr: its exchanges are listed here.
		return m.networkTitle()
	}
	return fmt.Sprintf("5 Stderr (%d)", s.StderrLog().Len())
}
