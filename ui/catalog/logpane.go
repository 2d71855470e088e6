package catalog

import (
	"encoding/json"
	"time"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/kit"
)

// The Log tab: the catalog's own events (list changes, subscriptions,
// tasks, Apps). The server's log messages are not kept here: they are the
// model's one book (model.LogBook). In the inspector that book is pane
// 7's, and the tab lists only the events (its header says so); a catalog
// that runs alone keeps a model of its own (Model.own) and lists its
// book's messages among the events, each event placed by how many
// messages had come when it happened. The level shown is always the
// model's (one level per session).

// ServerLog is the one record of the server's log: its messages and the
// level asked of it (one per session). *model.Session implements it.
type ServerLog interface {
	Logs() *model.LogBook
	Conn() model.ConnState
}

// maxLogs bounds the catalog's events.
const maxLogs = 2000

// logEntry is one of the catalog's events.
type logEntry struct {
	at    time.Time
	level string
	text  string
	data  json.RawMessage
	sub   *sub
	// after is how many server log messages had come (LogBook.Total)
	// when the event happened.
	after int
}

// logRow is a row of the tab: an event (ev) or the book's message msg;
// the other is -1.
type logRow struct{ ev, msg int }

// logPane is the tab's events and its cursor over the rows.
type logPane struct {
	log ServerLog
	// messages lists the book's messages among the events (the catalog
	// runs alone: no pane 7 shows them).
	messages bool
	events   []logEntry
	dropped  int
	cursor   int
	offset   int
	follow   bool
}

func newLogPane(log ServerLog, messages bool) *logPane {
	return &logPane{log: log, messages: messages, follow: true}
}

func (p *logPane) add(e logEntry) {
	e.after = p.log.Logs().Total()
	p.events = append(p.events, e)
	if len(p.events) > maxLogs {
		n := len(p.events) - maxLogs
		p.events = append(p.events[:0:0], p.events[n:]...)
		p.dropped += n
		p.cursor = max(p.cursor-n, 0)
	}
}

// rows are the events and the book's kept messages in the order they
// came.
func (p *logPane) rows() []logRow {
	if !p.messages {
		out := make([]logRow, len(p.events))
		for j := range out {
			out[j] = logRow{ev: j, msg: -1}
		}
		return out
	}
	b := p.log.Logs()
	first := b.Total() - b.Len()
	out := make([]logRow, 0, b.Len()+len(p.events))
	j := 0
	for i := range b.Len() {
		for ; j < len(p.events) && p.events[j].after <= first+i; j++ {
			out = append(out, logRow{ev: j, msg: -1})
		}
		out = append(out, logRow{ev: -1, msg: i})
	}
	for ; j < len(p.events); j++ {
		out = append(out, logRow{ev: j, msg: -1})
	}
	return out
}

// count is the number of rows.
func (p *logPane) count() int {
	if !p.messages {
		return len(p.events)
	}
	return len(p.events) + p.log.Logs().Len()
}

// move moves the cursor over n rows; at the end it follows new ones.
func (p *logPane) move(delta, n int) {
	p.cursor = max(min(p.cursor+delta, n-1), 0)
	p.follow = p.cursor == n-1
}

// view draws the log pane.
func (p *logPane) view(st *themes.Styles, w, h int) []string {
	book := p.log.Logs()
	head := " the catalog's events (the server's log is pane 7 of the inspector)"
	if level := p.log.Conn().LogLevel; level != "" {
		head += " · level " + inert.Fit(level, 12) // as pane 7 draws it (a recording's, maybe)
	} else {
		head += " · level not set (L sets it)"
	}
	if p.dropped > 0 || (p.messages && book.Dropped() > 0) {
		head += " · oldest dropped"
	}
	out := []string{kit.Row(st, w, false, kit.Own(head, w, st.Muted))}
	bodyH := max(h-1, 0)
	rows := p.rows()
	if len(rows) == 0 {
		out = append(out, kit.Row(st, w, false, kit.Own("  nothing yet: log messages and list changes show here", w, st.Muted)))
		return kit.Pad(out, w, h)
	}
	if p.follow {
		p.cursor = len(rows) - 1
	}
	p.cursor = min(p.cursor, len(rows)-1)
	p.offset = kit.Window(p.offset, p.cursor, len(rows), bodyH)
	for i := p.offset; i < len(rows) && len(out) < h; i++ {
		var at time.Time
		var level, logger, what, tag string
		if r := rows[i]; r.ev >= 0 {
			e := p.events[r.ev]
			at, level, what, tag = e.at, e.level, e.text, "event"
		} else {
			e := book.At(r.msg)
			at, level, what, tag = e.Time, e.Level, e.Text, "log"
			if e.Logger != "" {
				logger = e.Logger + ": "
			}
		}
		lst := kit.LevelStyle(st, level)
		out = append(out, kit.Row(st, w, i == p.cursor,
			kit.Own(" "+at.Format("15:04:05.000")+" ", 14, st.Muted), kit.Own(tag, 6, st.Subtle),
			kit.Srv(level, 10, lst.Bold(true)), kit.SrvFree(logger, w/4, st.Muted), kit.SrvFree(what, max(w-30, 1), lst)))
	}
	return kit.Pad(out, w, h)
}

// logMessage keeps a notifications/message the catalog is handed, when it
// keeps the server's log itself; a host's model has it from the wire
// already.
func (m *Model) logMessage(at time.Time, n mcp.Notification) {
	if m.own == nil {
		return
	}
	if _, err := mcp.DecodeLogMessage(n); err != nil {
		m.logs.add(logEntry{at: at, level: "warning", text: "a log message that does not decode: " + err.Error(), data: n.Params})
		return
	}
	line, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params"`
	}{"2.0", n.Method, n.Params})
	if err != nil {
		return
	}
	m.own.Apply(model.Wire{Stamp: model.Stamp{Time: at}, Dir: model.In, Line: line, Size: len(line)})
}
