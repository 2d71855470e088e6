// Package export turns an mcptui recording into documents other tools and
// people read: an HTTP Archive (HAR 1.2), one JSON document of the
// session's exchanges, and a Markdown post-mortem of one call. (The
// OpenTelemetry export is internal/telemetry's.) Every text that leaves
// goes through internal/record's redaction (RedactText, RedactArgs,
// RedactURL): a token in a tool's arguments, a server's stderr or a log
// message is replaced by [redacted], whatever the recording kept.
package export

import (
	"sort"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/protocol"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/wiremsg"
)

// Message is one JSON-RPC line of the session.
type Message struct {
	Time       time.Time
	FromServer bool
	// Raw is the line as it was on the wire (not yet redacted).
	Raw  []byte
	Size int
	Msg  wiremsg.Msg
}

// Exchange is one request and what answered it.
type Exchange struct {
	// FromServer says the server asked (sampling, elicitation, roots,
	// ping).
	FromServer bool
	Request    *Message
	// Response is nil when no answer came.
	Response *Message
	// Progress are the notifications/progress naming its token.
	Progress []*Message
	// Cancel is the notifications/cancelled naming it, if any.
	Cancel *Message
	// GaveUp says why mcptui cancelled it, when the recording says (a
	// recording made since it did): which timer fired, or what stopped
	// the wait.
	GaveUp *record.GaveUp
}

// Start is when the request went.
func (x *Exchange) Start() time.Time { return x.Request.Time }

// End is when the answer came, else the cancellation, else end.
func (x *Exchange) End(end time.Time) time.Time {
	switch {
	case x.Response != nil:
		return x.Response.Time
	case x.Cancel != nil:
		return x.Cancel.Time
	}
	return end
}

// Line is a stderr line or a note.
type Line struct {
	Time time.Time
	Text string
}

// Session is a recording read for export.
type Session struct {
	Header record.Entry
	// Ready is the "ready" entry (server, protocol, pid), nil if none.
	Ready *record.Entry
	// Exchanges are the requests both ways, in the order they went.
	Exchanges []*Exchange
	// Notifications are every notification both ways, progress and
	// cancellation included, in order.
	Notifications []*Message
	// Orphans are responses that matched no request.
	Orphans []*Message
	Stderr  []Line
	Notes   []Line
	// Exchanges over HTTP (a server reached by URL, recorded with the
	// "http" entries), in order.
	HTTPExchanges []*HTTPExchange
	// Exit is the server's exit status, "" when the recording has none;
	// Exits are when each process ended.
	Exit  string
	Exits []time.Time
	// Findings are the live lint's findings on the session's lines, in
	// order (Lint, or the inspector's own when it writes a post-mortem).
	Findings []Finding
	// Linted says the lines were judged (Findings is then all there is).
	Linted bool
	// msgs are the messages by the index of their entry in the recording.
	msgs     map[int]*Message
	Failed   string
	Complete bool
	End      time.Time
}

// HTTPExchange is one recorded HTTP exchange: its "http" entry and its
// "http-end" entry (nil when the body's end was not recorded).
type HTTPExchange struct {
	Entry *record.Entry
	End   *record.Entry
}

// HTTP reports whether the server was reached over HTTP (the recording's
// command is a URL).
func (s *Session) HTTP() bool { return strings.Contains(s.Header.Command, "://") }

// Build reads rec's lines into exchanges. Lines a tap's breakpoint
// withheld (they never went on) are left out.
func Build(rec *record.Recording) *Session {
	s := &Session{Header: rec.Header, Complete: rec.Complete, End: rec.Header.Time, msgs: map[int]*Message{}}
	type key struct {
		fromServer bool
		id         string
	}
	open := map[key]*Exchange{}
	tokens := map[key]*Exchange{}
	httpByID := map[uint64]*HTTPExchange{}
	for i := range rec.Entries {
		e := &rec.Entries[i]
		if e.Time.After(s.End) {
			s.End = e.Time
		}
		switch e.Type {
		case record.TypeReady:
			s.Ready = e
		case record.TypeStderr:
			s.Stderr = append(s.Stderr, Line{e.Time, string(e.Content())})
		case record.TypeNote:
			s.Notes = append(s.Notes, Line{e.Time, string(e.Content())})
		case record.TypeExit:
			if e.Status != nil {
				s.Exit = *e.Status
			}
			s.Exits = append(s.Exits, e.Time)
		case record.TypeFailed:
			s.Failed = e.Error
		case record.TypeHTTP:
			h := &HTTPExchange{Entry: e}
			s.HTTPExchanges = append(s.HTTPExchanges, h)
			httpByID[e.Exchange] = h
		case record.TypeHTTPEnd:
			if h := httpByID[e.Exchange]; h != nil && h.End == nil {
				h.End = e
			}
		case record.TypeSent, record.TypeReceived:
			if e.Withheld {
				continue
			}
			raw := e.Content()
			m, ok := wiremsg.Parse(raw)
			if !ok {
				continue
			}
			msg := &Message{Time: e.Time, FromServer: e.Type == record.TypeReceived, Raw: raw, Size: e.Size, Msg: m}
			s.msgs[i] = msg
			switch m.Kind {
			case wiremsg.Request:
				x := &Exchange{FromServer: msg.FromServer, Request: msg}
				s.Exchanges = append(s.Exchanges, x)
				open[key{msg.FromServer, m.ID}] = x
				if m.ProgressToken != "" {
					tokens[key{msg.FromServer, m.ProgressToken}] = x
				}
			case wiremsg.Response:
				k := key{!msg.FromServer, m.ID}
				if x := open[k]; x != nil {
					x.Response = msg
					delete(open, k)
				} else {
					s.Orphans = append(s.Orphans, msg)
				}
			case wiremsg.Notification:
				s.Notifications = append(s.Notifications, msg)
				switch m.Method {
				case protocol.NotificationProgress:
					if x := tokens[key{!msg.FromServer, m.ProgressToken}]; x != nil {
						x.Progress = append(x.Progress, msg)
					}
				case protocol.NotificationCancelled:
					if x := open[key{msg.FromServer, m.CancelledID}]; x != nil && x.Cancel == nil {
						x.Cancel = msg
						if !msg.FromServer {
							x.GaveUp = e.GaveUp
						}
					}
				}
			}
		}
	}
	return s
}

// Find is the exchange whose request id is id (its JSON text, or a
// string id's value); a client request is preferred to a server's with
// the same id, and the last of equal ids (ids may be re-used).
func (s *Session) Find(id string) *Exchange {
	var client, server *Exchange
	for _, x := range s.Exchanges {
		m := x.Request.Msg
		if m.ID != id && m.IDString != id {
			continue
		}
		if x.FromServer {
			server = x
		} else {
			client = x
		}
	}
	if client != nil {
		return client
	}
	return server
}

// During is what happened while x was in flight, from its request to its
// answer (or the end): the notifications (its own progress and
// cancellation, log messages, list changes), the server's questions, the
// stderr lines and the notes, each list in order.
func (s *Session) During(x *Exchange) (notes []*Message, questions []*Exchange, stderr, notesText []Line) {
	from, to := x.Start(), x.End(s.End)
	in := func(t time.Time) bool { return !t.Before(from) && !t.After(to) }
	for _, n := range s.Notifications {
		if in(n.Time) {
			notes = append(notes, n)
		}
	}
	for _, q := range s.Exchanges {
		if q != x && q.FromServer != x.FromServer && in(q.Start()) {
			questions = append(questions, q)
		}
	}
	for _, l := range s.Stderr {
		if in(l.Time) {
			stderr = append(stderr, l)
		}
	}
	for _, l := range s.Notes {
		if in(l.Time) {
			notesText = append(notesText, l)
		}
	}
	return notes, questions, stderr, notesText
}

// After are the stderr lines read after x's answer and before anything
// else went on the wire (the next request, a notification): the server's
// stderr is a pipe of its own, and lines it wrote while answering can be
// read just after the answer.
func (s *Session) After(x *Exchange) []Line {
	from := x.End(s.End)
	next := s.End
	for _, y := range s.Exchanges {
		if t := y.Start(); t.After(from) && t.Before(next) {
			next = t
		}
	}
	for _, n := range s.Notifications {
		if n.Time.After(from) && n.Time.Before(next) {
			next = n.Time
		}
	}
	var out []Line
	for _, l := range s.Stderr {
		if l.Time.After(from) && l.Time.Before(next) {
			out = append(out, l)
		}
	}
	return out
}

// ms is d in milliseconds, to the microsecond.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// redact is the one redaction of exported text.
func redact(s string) string { return record.RedactText(s) }

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
