package catalog

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/kit"
)

// maxLogs bounds the log pane.
const maxLogs = 2000

// logKind tells a server log message from a catalog event.
type logKind int

const (
	logMessage logKind = iota
	logEvent
)

// logEntry is one line of the log pane.
type logEntry struct {
	at     time.Time
	kind   logKind
	level  string
	logger string
	text   string
	data   json.RawMessage
	sub    *sub
}

// logPane is the bounded list of log messages and events.
type logPane struct {
	entries []logEntry
	dropped int
	cursor  int
	offset  int
	follow  bool
}

func newLogPane() *logPane { return &logPane{follow: true} }

func (p *logPane) add(e logEntry) {
	p.entries = append(p.entries, e)
	if len(p.entries) > maxLogs {
		n := len(p.entries) - maxLogs
		p.entries = slices.Delete(p.entries, 0, n)
		p.dropped += n
		p.cursor = max(p.cursor-n, 0)
	}
	if p.follow {
		p.cursor = len(p.entries) - 1
	}
}

// move moves the cursor; at the end it follows new entries.
func (p *logPane) move(delta int) {
	p.cursor = max(min(p.cursor+delta, len(p.entries)-1), 0)
	p.follow = p.cursor == len(p.entries)-1
}

// levelStyle colours a syslog level (the log view's colours).
func levelStyle(st *themes.Styles, level string) lipgloss.Style { return kit.LevelStyle(st, level) }

// messageText is a log message's data as one line: a string as it is,
// anything else as compact JSON.
func messageText(data json.RawMessage) string {
	var s string
	if json.Unmarshal(data, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(data))
}

// view draws the log pane.
func (p *logPane) view(st *themes.Styles, w, h int, level string) []string {
	head := " the catalog's events (the server's log is pane 7 of the inspector)"
	if level != "" {
		head += " · level " + level
	} else {
		head += " · level not set (L sets it)"
	}
	if p.dropped > 0 {
		head += " · oldest dropped"
	}
	out := []string{kit.Row(st, w, false, kit.Own(head, w, st.Muted))}
	bodyH := max(h-1, 0)
	if len(p.entries) == 0 {
		out = append(out, kit.Row(st, w, false, kit.Own("  nothing yet: log messages and list changes show here", w, st.Muted)))
		return kit.Pad(out, w, h)
	}
	p.offset = kit.Window(p.offset, p.cursor, len(p.entries), bodyH)
	for i := p.offset; i < len(p.entries) && len(out) < h; i++ {
		e := p.entries[i]
		lst := levelStyle(st, e.level)
		what := e.text
		if e.kind == logMessage {
			what = messageText(e.data)
		}
		logger := ""
		if e.logger != "" {
			logger = e.logger + ": "
		}
		tag := "log"
		if e.kind == logEvent {
			tag = "event"
		}
		out = append(out, kit.Row(st, w, i == p.cursor,
			kit.Own(" "+e.at.Format("15:04:05.000")+" ", 14, st.Muted), kit.Own(tag, 6, st.Subtle),
			kit.Srv(e.level, 10, lst.Bold(true)), kit.SrvFree(logger, w/4, st.Muted), kit.SrvFree(what, max(w-30, 1), lst)))
	}
	return kit.Pad(out, w, h)
}

// logLevels are the levels a person can pick.
var logLevels = mcp.LogLevels
