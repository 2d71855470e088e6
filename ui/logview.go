package ui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/protocol"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/ui/kit"
)

// The log view, pane 7: the server's notifications/message (model's log
// book), coloured by level, filtered by the least severe level shown,
// following the newest message unless the person scrolled up. L, from any
// pane, picks the level asked of the server (levelPicker, loglevel.go).

// views is the state of the log view and the server view.
type views struct {
	// logMin is the least severe level rank the log view shows (0: all).
	logMin    int
	logFollow bool
	// server says the server view holds the middle slot in place of
	// traffic.
	server bool
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
		t = fmt.Sprintf("7 Log (%d of %d, %s+)", len(m.logRows()), b.Len(), protocol.LogLevels()[m.views.logMin])
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
			msg = fmt.Sprintf("  nothing at %s or above: < shows more", protocol.LogLevels()[m.views.logMin])
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
		m.views.logMin = min(m.views.logMin+1, len(protocol.LogLevels())-1)
		m.say(false, "showing %s and more severe", protocol.LogLevels()[m.views.logMin])
	case key.Matches(msg, k.LessSevere):
		m.views.logMin = max(m.views.logMin-1, 0)
		if m.views.logMin == 0 {
			m.say(false, "showing every level")
		} else {
			m.say(false, "showing %s and more severe", protocol.LogLevels()[m.views.logMin])
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
