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
	c := m.sess.Conn()
	st := m.styles
	parts := []string{st.HeaderName.Render("mcptui")}
	nameAt := -1
	if c.ServerName != "" {
		nameAt = len(parts)
		parts = append(parts, "") // sized below, to the room the rest leaves
	} else if len(c.Command) > 0 && c.URL() == "" {
		parts = append(parts, st.Text.Render(inert.Fit(strings.Join(c.Command, " "), 40)))
	}
	if c.Protocol != "" {
		parts = append(parts, st.Muted.Render(inert.Fit(c.Protocol, 12)))
	}
	switch url := c.URL(); {
	case url != "":
		parts = append(parts, st.Muted.Render("HTTP "+inert.Fit(url, 48)))
	case c.PID != 0:
		parts = append(parts, st.Muted.Render(fmt.Sprintf("pid %d", c.PID)))
	}
	where := len(parts) - 1 // the pid or URL: left out first when narrow
	state := "● " + c.Phase.String()
	if c.Phase == model.PhaseNegotiating && c.Step != "" {
		state += ": " + inert.Fit(c.Step, 30)
	}
	if c.Gen > 1 {
		state += fmt.Sprintf(" (restart %d)", c.Gen-1)
	}
	parts = append(parts, st.States[c.Phase].Bold(true).Render(state))
	essential := len(parts)
	if len(c.Offered) > 1 || len(c.Offered) == 1 && c.Offered[0] != c.Protocol {
		// What the server said it speaks, when that says more than the
		// version in use (server/discover's list, 2024-10-07); last, so a
		// narrow header cuts it first. V reconnects at another.
		parts = append(parts, st.Muted.Render("offered "+inert.Fit(strings.Join(c.Offered, " "), 70)))
	}
	sep := st.Subtle.Render(" │ ")

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
	if nameAt >= 0 {
		// The name as long as the header has room for, the state kept.
		others := ansi.StringWidth(" " + strings.Join(parts[:essential], sep))
		room := w - ansi.StringWidth(right) - 1 - others
		if room < 20 && where > nameAt {
			// Narrow: the name and the state matter more than the pid.
			room += ansi.StringWidth(parts[where] + sep)
			parts = append(parts[:where], parts[where+1:]...)
			essential--
		}
		room = max(room, 8)
		ver := ""
		if c.ServerVersion != "" {
			ver = " " + inert.Fit(c.ServerVersion, max(16, w/8))
		}
		parts[nameAt] = st.Bold.Render(inert.Fit(c.ServerName, max(room-ansi.StringWidth(ver), 4)) + ver)
	}
	left := " " + strings.Join(parts, sep)
	if ansi.StringWidth(left) > w-ansi.StringWidth(right)-1 {
		// What the server offered is cut first, and whole, so the state
		// before it is never cut.
		left = " " + strings.Join(parts[:essential], sep)
	}
	line1 := spread(left, right, w)
	return line1 + "\n" + m.statusLine(w)
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
		msg := "exited"
		if c.ExitStatus != "" {
			msg += ": " + c.ExitStatus
		}
		if tail := m.sess.StderrTail(1); len(tail) > 0 {
			msg += " · stderr: " + tail[0]
		}
		s = st.Error.Render(" "+inert.Fit(msg, w-20)) + st.Muted.Render("  "+keymap.Hint(keymap.Described(m.keys.Global.Restart, "restarts")))
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

// context is where the keyboard is now.
func (m *Model) context() keymap.Context {
	switch m.overlay {
	case overlayViewer:
		return keymap.ViewerOverlay
	case overlayEditor:
		return keymap.EditorOverlay
	case overlayReject:
		return keymap.DialogOverlay
	case overlayComposer:
		return keymap.ComposerOverlay
	case overlayListen:
		return keymap.ListenOverlay
	case overlayVersion, overlayLogLevel:
		return keymap.DialogOverlay
	case overlayAnswer:
		return keymap.AnswerOverlay
	case overlayPolicies:
		return keymap.PoliciesOverlay
	}
	if m.traffic.editing {
		return keymap.FilterInput
	}
	if m.focus == paneCatalog && m.rich.explorer != nil && m.rich.explorer.OwnsKey(tea.KeyPressMsg{}) {
		return keymap.CatalogInput
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
	if s, ok := m.richFooter(w); ok {
		return s
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
	for _, b := range m.keys.Local(c) {
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
