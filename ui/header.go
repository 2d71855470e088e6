package ui

import (
	tea "charm.land/bubbletea/v2"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
)

// header is two lines: who and what state, with the counters on the right;
// then the status line (an exit and its stderr, the last action's result,
// or what was evicted).
func (m *Model) header(w int) string {
	st := m.styles
	n := m.sess.Counters()
	pendingSt := st.Muted
	if n.Pending > 0 {
		pendingSt = st.Pending
	}
	errSt := st.Muted
	if n.Errors > 0 {
		errSt = st.Error
	}
	right := m.lintCounter() + st.Muted.Render(fmt.Sprintf("in flight %d", n.InFlight)) + "  " +
		pendingSt.Render(fmt.Sprintf("pending %d", n.Pending)) + "  " +
		errSt.Render(fmt.Sprintf("errors %d", n.Errors)) + " "
	left := m.headerLeft(w - ansi.StringWidth(right) - 2) // two cells apart
	return spread(left, right, w) + "\n" + m.statusLine(w)
}

// headerLeft is the header's left side in at most room cells: mcptui, the
// server (its name and version, or the command before it has one), the
// protocol, the pid or URL, the state and the versions offered. The state
// is never cut; what gives way, in order, is the offered list, the pid or
// URL, the protocol, the negotiation step, then the name.
func (m *Model) headerLeft(room int) string {
	c := m.sess.Conn()
	st := m.styles
	phase := "● " + c.Phase.String()
	if c.Gen > 1 {
		phase += fmt.Sprintf(" (restart %d)", c.Gen-1)
	}
	step := ""
	if c.Phase == model.PhaseNegotiating && c.Step != "" {
		step = inert.Fit(c.Step, 30)
	}
	var protocol, where, offered string
	if c.Protocol != "" {
		protocol = inert.Fit(c.Protocol, 12)
	}
	switch url := c.URL(); {
	case url != "":
		where = c.TransportLabel() + " " + inert.Fit(url, 48)
	case c.PID != 0:
		where = fmt.Sprintf("pid %d", c.PID)
	}
	if len(c.Offered) > 1 || len(c.Offered) == 1 && c.Offered[0] != c.Protocol {
		// What the server said it speaks, when that says more than the
		// version in use (server/discover's list, 2024-10-07). V
		// reconnects at another.
		offered = "offered " + inert.Fit(strings.Join(c.Offered, " "), 70)
	}
	server := func(room int) string { return "" }
	serverWant := 0
	switch {
	case c.ServerName != "":
		server = func(room int) string { return st.Bold.Render(nameAndVersion(c.ServerName, c.ServerVersion, room)) }
		serverWant = ansi.StringWidth(inert.Fit(c.ServerName, 200)) + 1 + ansi.StringWidth(inert.Fit(c.ServerVersion, 200))
	case len(c.Command) > 0 && c.URL() == "":
		cmd := strings.Join(c.Command, " ")
		server = func(room int) string { return st.Text.Render(inert.Fit(cmd, min(room, 40))) }
		serverWant = ansi.StringWidth(inert.Fit(cmd, 40))
	}
	const sep = 3 // " │ "
	width := func(parts ...string) int {
		n := 1 + ansi.StringWidth("mcptui")
		for _, p := range parts {
			if p != "" {
				n += sep + ansi.StringWidth(p)
			}
		}
		return n
	}
	stateOf := func(step string) string {
		if step == "" {
			return phase
		}
		return phase + ": " + step
	}
	// Give way one piece at a time until the server's name has the room
	// it wants (up to 20 cells of it: beyond, it is the name that gives).
	drops := []*string{&offered, &where, &protocol, &step}
	for _, d := range drops {
		free := room - width(protocol, where, stateOf(step), offered)
		if serverWant > 0 {
			free -= sep
		}
		if free >= min(serverWant, 20) {
			break
		}
		*d = ""
	}
	free := room - width(protocol, where, stateOf(step), offered)
	parts := []string{st.HeaderName.Render("mcptui")}
	if serverWant > 0 && free-sep >= 4 {
		parts = append(parts, server(free-sep))
	}
	if protocol != "" {
		parts = append(parts, st.Muted.Render(protocol))
	}
	if where != "" {
		parts = append(parts, st.Muted.Render(where))
	}
	parts = append(parts, st.States[c.Phase].Bold(true).Render(stateOf(step)))
	if offered != "" {
		parts = append(parts, st.Muted.Render(offered))
	}
	return " " + strings.Join(parts, st.Subtle.Render(" │ "))
}

// nameAndVersion is a server's name and version in at most room cells:
// the version cut to a third of the room (16 cells at most), the name to
// the rest; below 15 cells the name alone.
func nameAndVersion(name, version string, room int) string {
	if version == "" {
		return inert.Fit(name, room)
	}
	if n, v := inert.Fit(name, room), inert.Fit(version, room); ansi.StringWidth(n)+1+ansi.StringWidth(v) <= room {
		return n + " " + v // both whole (as escaped: what is measured is what is drawn)
	}
	if room < 15 {
		return inert.Fit(name, room) // too narrow for both: the name
	}
	ver := inert.Fit(version, min(16, room/3))
	return inert.Fit(name, room-1-ansi.StringWidth(ver)) + " " + ver
}

// spread puts left and right on one line of w cells, cutting left first.
func spread(left, right string, w int) string {
	rw := ansi.StringWidth(right)
	if rw >= w {
		return ansi.Truncate(right, w, "")
	}
	left = ansi.Truncate(left, w-rw-1, "…")
	gap := w - rw - ansi.StringWidth(left)
	return left + strings.Repeat(" ", gap) + right
}

// statusLine says the most important thing that is not a pane.
func (m *Model) statusLine(w int) string {
	st := m.styles
	c := m.sess.Conn()
	var s string
	switch {
	case c.Authorizing.Text != "":
		// Before any notice: the request that needed it left one ("sent
		// tools/call…"), and the person may have a browser to attend to.
		s = m.authorizingStatus(c.Authorizing, w)
	case m.notice != "":
		sty := st.Info
		if m.noticeErr {
			sty = st.Error
		}
		s = sty.Render(" " + inert.Fit(m.notice, w-2))
	case m.alert != "":
		s = st.Error.Render(" " + inert.Fit(m.alert, w-2))
	case c.Phase == model.PhaseExited && versionMismatch(c.Failure):
		s = st.Warn.Render(" "+inert.Fit(shortFailure(c.Failure, c.Command), w-36)) + st.Muted.Render("  "+keymap.Hint(m.keys.Global.Version, keymap.Described(m.keys.Global.Restart, "restarts")))
	case c.Phase == model.PhaseExited:
		msg, msgSt := "exited", st.Error
		if c.ExitStatus != "" {
			msg += ": " + c.ExitStatus
		}
		if cleanExit(c) {
			msg, msgSt = "exited cleanly (exit status 0)", st.Muted
		}
		if tail := m.sess.StderrTail(1); len(tail) > 0 {
			msg += " · stderr: " + tail[0]
		}
		s = msgSt.Render(" "+inert.Fit(msg, w-20)) + st.Muted.Render("  "+keymap.Hint(keymap.Described(m.keys.Global.Restart, "restarts")))
	default:
		var bits []string
		if n := m.sess.History().Evicted(); n > 0 {
			bits = append(bits, fmt.Sprintf("%d older lines evicted", n))
		}
		if n := m.sess.Counters().Lost; n > 0 {
			bits = append(bits, fmt.Sprintf("%d lines lost under load", n))
		}
		s = st.Muted.Render(" " + strings.Join(bits, " · "))
	}
	return inert.Pad(ansi.Truncate(s, w, ""), w)
}

// context is where the keyboard is now: the top overlay's, else the
// focused pane's.
func (m *Model) context() keymap.Context {
	if o := m.top(); o != nil {
		return o.Context(m)
	}
	return m.paneContext()
}

// paneContext is the focused pane's context (its text field's while one
// is open).
func (m *Model) paneContext() keymap.Context {
	if m.traffic.editing {
		return keymap.FilterInput
	}
	if m.focus == paneCatalog && m.rich.catalog != nil && m.rich.catalog.OwnsKey(tea.KeyPressMsg{}) {
		return keymap.CatalogInput
	}
	if m.focus == paneStderr && m.httpServer() {
		return keymap.NetworkPane
	}
	return [...]keymap.Context{keymap.InFlightPane, keymap.PendingPane, keymap.TrafficPane, keymap.SubscriptionsPane,
		keymap.StderrPane, keymap.CatalogPane, keymap.LogPane, keymap.ServerPane}[m.focus]
}

// footer shows the keys that work here: the context's own, as many as fit,
// and at the right end the global ones (help and quit always, at any
// width).
func (m *Model) footer(w int) string {
	if s, ok := m.stoppingFooter(w); ok {
		return s
	}
	top := m.top()
	if f, ok := top.(overlayFooter); ok {
		return f.footer(m, w)
	}
	c := m.context()
	h := m.help
	h.SetWidth(0)
	tb := m.keys.Tail(c)
	if w < 100 && len(tb) > 2 {
		// Narrow: zoom makes room for the pane's own keys.
		tb = slices.DeleteFunc(tb, func(b key.Binding) bool { return b.Help() == m.keys.Global.Zoom.Help() })
	}
	tail := h.ShortHelpView(tb)
	room := w - 2 - ansi.StringWidth(tail) - 3
	var local string
	here := m.keys.Local(c)
	if ks := m.footerKeys(top); ks != nil {
		here = ks // the composer's arguments form's keys
	}
	for _, b := range here {
		if !b.Enabled() {
			continue // a read-only inspector's sending key
		}
		next := h.ShortHelpView([]key.Binding{b})
		if local != "" {
			next = local + h.ShortSeparator + next
		}
		if ansi.StringWidth(next) > room {
			break
		}
		local = next
	}
	line := " " + local
	gap := max(w-1-ansi.StringWidth(line)-ansi.StringWidth(tail), 1)
	line += strings.Repeat(" ", gap) + tail
	return lipgloss.NewStyle().MaxWidth(w).Render(inert.Pad(line, w))
}
