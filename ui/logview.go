package ui

import (
	"context"
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/kit"
)

// The log view, pane 7: the server's notifications/message (model's log
// book), coloured by level, filtered by the least severe level shown,
// following the newest message unless the person scrolled up. L, from any
// pane, picks the level asked of the server (logLevelPicker).

// views is the state of the log view, the server view and the level
// picker.
type views struct {
	// logMin is the least severe level rank the log view shows (0: all).
	logMin    int
	logFollow bool
	// server says the server view holds the middle slot in place of
	// traffic.
	server bool
	// picker is the level picker while it is open.
	picker *levelPicker
	// serverDoc caches the server view's drawn document.
	serverDoc serverDoc
	// notesSeen is the newest model note handed to the catalog.
	notesSeen uint64
}

// logRows are the log book's indexes the view shows.
func (m *Model) logRows() []int { return m.sess.Logs().Select(m.views.logMin) }

// logTitle is pane 7's title: its count (of how many, when filtered) and
// the level asked of the server.
func (m *Model) logTitle() string {
	b := m.sess.Logs()
	t := fmt.Sprintf("7 Log (%d)", b.Len())
	if m.views.logMin > 0 {
		t = fmt.Sprintf("7 Log (%d of %d, %s+)", len(m.logRows()), b.Len(), mcp.LogLevels[m.views.logMin])
	}
	c := m.sess.Conn()
	switch {
	case c.LogLevel != "":
		t += " · level " + inert.Fit(c.LogLevel, 12)
	case c.LogLevelErr != "":
		t += " · no level"
	}
	if n := b.Dropped(); n > 0 {
		t += fmt.Sprintf(" · %d dropped", n)
	}
	return t
}

// drawLog draws the visible log messages.
func (m *Model) drawLog(w, h int) []string {
	st := m.styles
	b := m.sess.Logs()
	rows := m.logRows()
	l := &m.lists[paneLog]
	if m.views.logFollow {
		l.cursor = max(len(rows)-1, 0)
	}
	l.clamp(len(rows))
	l.offset = kit.Window(l.offset, l.cursor, len(rows), h)
	if len(rows) == 0 {
		msg := "  no log messages yet"
		switch c := m.sess.Conn(); {
		case b.Len() > 0:
			msg = fmt.Sprintf("  nothing at %s or above: < shows more", mcp.LogLevels[m.views.logMin])
		case c.LogLevelErr != "":
			msg = "  " + inert.Line(c.LogLevelErr) // may quote the server's error message
		case c.LogLevel != "":
			msg += " (" + joinSome("; ", "level "+c.LogLevel, keymap.Hint(keymap.Described(m.keys.Global.LogLevel, "changes it"))) + ")"
		}
		return []string{kit.Row(st, w, false, kit.Own(msg, w, st.Muted))}
	}
	timeW := 14
	if w < 60 {
		timeW = 0
	}
	var out []string
	i := l.offset
	defer func() { m.scrolls[paneLog] = kit.Scroll{Above: l.offset, Below: len(rows) - i} }()
	for ; i < len(rows) && len(out) < h; i++ {
		e := b.At(rows[i])
		sel := i == l.cursor && m.focus == paneLog && !m.views.logFollow
		lst := kit.LevelStyle(st, e.Level)
		logger := ""
		if e.Logger != "" {
			logger = e.Logger + ": "
		}
		segs := []kit.Seg{}
		if timeW > 0 {
			segs = append(segs, kit.Own(" "+fmtClock(e.Time)+" ", timeW, st.Muted))
		} else {
			segs = append(segs, kit.Txt(" ", st.Text))
		}
		textW := max(w-timeW-10, 1)
		segs = append(segs, kit.Srv(e.Level, 10, lst.Bold(true)), kit.SrvFree(logger, textW/3, st.Muted), kit.SrvFree(e.Text, textW, lst))
		out = append(out, kit.Row(st, w, sel, segs...))
	}
	return out
}

// logKey handles pane 7's own keys.
func (m *Model) logKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys.Log
	switch {
	case key.Matches(msg, k.MoreSevere):
		m.views.logMin = min(m.views.logMin+1, len(mcp.LogLevels)-1)
		m.say(false, "showing %s and more severe", mcp.LogLevels[m.views.logMin])
	case key.Matches(msg, k.LessSevere):
		m.views.logMin = max(m.views.logMin-1, 0)
		if m.views.logMin == 0 {
			m.say(false, "showing every level")
		} else {
			m.say(false, "showing %s and more severe", mcp.LogLevels[m.views.logMin])
		}
	case key.Matches(msg, k.Follow):
		m.views.logFollow = true
	case key.Matches(msg, k.Open):
		rows := m.logRows()
		if c := m.lists[paneLog].cursor; c < len(rows) {
			m.openSeq(m.sess.Logs().At(rows[c]).Seq)
		}
	}
	return nil
}

// levelPicker picks the log level asked of the server.
type levelPicker struct{ cursor int }

// openLevelPicker opens the picker on the level in effect.
func (m *Model) openLevelPicker() {
	p := &levelPicker{}
	if r := model.LevelRank(m.sess.Conn().LogLevel); r >= 0 {
		p.cursor = r
	}
	m.views.picker = p
	m.overlay = overlayLogLevel
}

// levelKey handles the picker's keys.
func (m *Model) levelKey(msg tea.KeyPressMsg) tea.Cmd {
	p := m.views.picker
	l := m.keys.List
	switch {
	case key.Matches(msg, m.keys.Overlay.Close):
		m.overlay, m.views.picker = overlayNone, nil
	case key.Matches(msg, l.Up):
		p.cursor = max(p.cursor-1, 0)
	case key.Matches(msg, l.Down):
		p.cursor = min(p.cursor+1, len(mcp.LogLevels)-1)
	case key.Matches(msg, m.keys.Overlay.Submit, m.keys.Log.SetLevel):
		m.overlay, m.views.picker = overlayNone, nil
		level := mcp.LogLevels[p.cursor]
		setter, ok := m.backend.(LogLeveler)
		if !ok {
			m.say(true, "this connection cannot set the log level")
			return nil
		}
		m.say(false, "asking the server for %s and above…", level)
		return m.do("log level "+level, func(ctx context.Context) error { return setter.SetLogLevel(ctx, level) })
	}
	return nil
}

// drawLevelPicker draws the picker's body.
func (m *Model) drawLevelPicker(w, h int) []string {
	st := m.styles
	c := m.sess.Conn()
	out := []string{kit.Row(st, w, false, kit.Own(" The least severe level the server should send:", w, st.Muted))}
	for i, l := range mcp.LogLevels {
		mark := "  "
		if l == c.LogLevel {
			mark = "• "
		}
		out = append(out, kit.Row(st, w, i == m.views.picker.cursor, kit.Txt("  "+mark, st.Accent), kit.Own(l, w-6, kit.LevelStyle(st, l))))
	}
	how := "logging/setLevel is sent"
	if mcp.Stateless(c.Protocol) {
		how = "2026-07-28: every request carries it in _meta"
	}
	out = append(out, kit.Blank(w), kit.Row(st, w, false, kit.Own(" "+how+" · enter sets it · esc cancels", w, st.Subtle)))
	return kit.Pad(out, w, h)
}
