package ui

import (
	"github.com/mcptui/mcptui/keymap"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// maxTail is the most stderr lines shown beside an exit.
const maxTail = 12

// connBlock describes the connection while it is not ready, for the top of
// the in-flight pane: what is being started, each step of the negotiation
// (the probe and its answer), or how the server ended, why, and the tail of
// its stderr. It is empty once the connection is ready, so a server that
// never comes up is never a blank screen.
func (m *Model) connBlock(w, h int) []string {
	c := m.sess.Conn()
	st := m.styles
	if c.Phase == model.PhaseReady || c.Gen == 0 || h <= 0 {
		return nil
	}
	var out []string
	add := func(s kit.Seg) {
		if len(out) < h {
			out = append(out, kit.Row(m.styles, w, false, s))
		}
	}
	// wrapped adds server text over up to maxLines rows, the rows after
	// the first indented to the prefix's width in cells.
	wrapped := func(prefix, text string, maxLines int, sty lipgloss.Style) {
		indent := ansi.StringWidth(prefix)
		for i, l := range wrap(text, w-indent, maxLines) {
			p := prefix
			if i > 0 {
				p = strings.Repeat(" ", indent)
			}
			add(kit.Txt(inert.Pad(p+l, w), sty))
		}
	}
	command := strings.Join(c.Command, " ")
	switch c.Phase {
	case model.PhaseStarting:
		add(kit.Srv(" ● starting "+command+" …", w, st.States[model.PhaseStarting]))
	case model.PhaseNegotiating:
		add(kit.Srv(" ● negotiating with "+command, w, st.States[model.PhaseNegotiating]))
	case model.PhaseExited:
		status := c.ExitStatus
		if status == "" {
			status = "exit status 0"
		}
		if f := shortFailure(c.Failure, c.Command); cleanExit(c) {
			// Exit status 0 and no failure: an end, not a crash (a
			// recording's last process, stopped at the quit).
			wrapped(" ", "● the server ended cleanly (exit 0)", 2, st.Muted)
		} else if versionMismatch(c.Failure) {
			// mcptui closed the connection: the server did not quit.
			wrapped(" ⚠ wrong protocol version: ", f, 4, st.Warn)
			wrapped("   ", joinSome(" · ", keymap.Hint(keymap.Described(m.keys.Global.Version, "reconnects at another version")), "the server then stopped: "+status), 2, st.Muted)
		} else if c.StoppedByUs {
			// A request of the start failed (an error answer, no answer
			// in time) while the server ran: mcptui stopped it (or, over
			// HTTP, closed the connection); the server did not quit.
			what, failure := "the start failed and mcptui stopped the server", f
			if c.URL() != "" {
				what = "the start failed and mcptui closed the connection"
			}
			if failure == "" {
				// The failure came before the exit: it is the status.
				failure = shortFailure(status, c.Command)
			} else if c.URL() == "" {
				what += " (" + status + ")"
			}
			wrapped(" ✗ ", what, 2, st.Error)
			wrapped("   ", failure, 2, st.Warn)
		} else {
			wrapped(" ✗ the server stopped: ", status, 4, st.Error)
			if f != "" {
				wrapped("   ", f, 2, st.Warn)
			}
		}
	}
	steps := c.Steps
	if c.Phase != model.PhaseExited {
		// Starting or negotiating: the newest steps that fit.
		if room := h - len(out); len(steps) > room {
			steps = steps[len(steps)-max(room, 0):]
		}
		for _, s := range steps {
			add(kit.Srv("   "+fmtClock(s.Time)+"  "+s.Text, w, st.Muted))
		}
		return out
	}
	// Stopped: the stderr tail comes first, then the last steps, then how
	// to go on.
	tail := m.sess.StderrTail(maxTail)
	room := h - len(out) - 1
	var tailRows []string
	switch {
	case len(tail) == 0:
		tailRows = []string{"   (nothing on stderr)"}
	case room >= 2:
		if len(tail) > room-1 {
			tail = tail[len(tail)-(room-1):]
		}
		tailRows = append(tailRows, "   stderr (last lines):")
		for _, l := range tail {
			tailRows = append(tailRows, "   │ "+l)
		}
	}
	if keep := room - len(tailRows); len(steps) > keep {
		steps = steps[len(steps)-max(keep, 0):]
	}
	for _, s := range steps {
		add(kit.Srv("   "+fmtClock(s.Time)+"  "+s.Text, w, st.Muted))
	}
	for i, l := range tailRows {
		sty := st.Text
		if i == 0 {
			sty = st.Muted
		}
		add(kit.Srv(l, w, sty))
	}
	add(kit.Own("   "+joinSome(" · ", keymap.Hint(keymap.Described(m.keys.Global.Restart, "restarts it")), "the traffic pane ("+m.keys.Global.Pane3.Help().Key+") shows what it wrote to stdout"), w, st.Accent))
	return out
}

// wrap escapes server text and wraps it to rows of w cells, at most
// maxLines of them (the last one cut with an ellipsis when there is more).
func wrap(text string, w, maxLines int) []string {
	if w <= 0 || maxLines <= 0 {
		return nil
	}
	esc := inert.Line(inert.Clip(text, 4096))
	lines := strings.Split(ansi.Wrap(esc, w, ""), "\n")
	if len(lines) > maxLines {
		lines = lines[:maxLines]
		lines[maxLines-1] = inert.Truncate(lines[maxLines-1], w-1, "") + inert.Ellipsis
	}
	return lines
}

// shortFailure drops what the rest of the screen already says from a
// connect error: the "mcp: connecting to <command>:" prefix and the
// JSON-RPC code of a connection error.
func shortFailure(f string, command []string) string {
	if len(command) > 0 {
		f = strings.TrimPrefix(f, "mcp: connecting to "+command[0]+": ")
	}
	return strings.Replace(f, "jsonrpc error -32000: ", "", 1)
}

// cleanExit reports whether the server ended with exit status 0 and no
// failure of the connection.
func cleanExit(c model.ConnState) bool {
	return c.Failure == "" && (c.ExitStatus == "" || c.ExitStatus == "exit status 0")
}

// versionMismatch reports whether a start failure is a version the server
// speaks but the client does not allow (a pinned or restricted --protocol):
// mcptui ended the connection, the server did not quit.
func versionMismatch(failure string) bool {
	return strings.Contains(failure, "The server speaks protocol") ||
		strings.Contains(failure, "supports none of the protocol versions") ||
		strings.Contains(failure, "negotiated protocol")
}
