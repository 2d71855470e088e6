package model

import (
	"bytes"
	"encoding/json"
	"slices"
	"time"

	"github.com/mcptui/mcptui/internal/protocol"
)

// The server's log: every notifications/message that came in, kept in a
// bounded book for the log view (pane 7), beside the traffic line it came
// on; and the log level the client asked for.

// LevelRank is a level's place among the log levels (0 for debug), or -1
// for a level the specification does not name.
func LevelRank(level string) int { return protocol.LevelRank(level) }

// DefaultLogEntries is how many log messages the book indexes at most.
const DefaultLogEntries = 5000

// logTextBytes cuts a message's text: the whole message is its traffic
// line.
const logTextBytes = 4 << 10

// LogEntry is one log message from the server.
type LogEntry struct {
	Time time.Time
	Gen  int
	// Seq is the traffic entry the message came on.
	Seq uint64
	// Level and Logger are as sent (server text: escape before drawing);
	// Rank is Level's LevelRank.
	Level, Logger string
	Rank          int
	// Text is the data on one line: a string as it is, anything else as
	// its JSON, cut at 4 KiB (server text).
	Text string
}

// logRef indexes one log message in the history: its entry, which of the
// entry's log messages it is (a 2025-03-26 batch may hold several), and
// its level's rank. The history holds the bytes, so the book costs a few
// bytes a message and forgets a message when its line is evicted.
type logRef struct {
	seq  uint64
	nth  int32
	rank int32
}

// LogBook is the server's log messages, oldest first: an index into the
// traffic history, at most DefaultLogEntries long.
type LogBook struct {
	history *History
	max     int
	refs    []logRef
	head    int
	dropped int
	total   int
}

func newLogBook(h *History, n int) *LogBook {
	if n <= 0 {
		n = DefaultLogEntries
	}
	return &LogBook{history: h, max: n}
}

// Len is the number of messages kept.
func (b *LogBook) Len() int { return len(b.refs) - b.head }

// Total is how many messages came in all; Dropped how many of them are
// no longer kept (over the bound, or evicted with their traffic line).
func (b *LogBook) Total() int   { return b.total }
func (b *LogBook) Dropped() int { return b.dropped }

// Rank is the level rank of the i-th kept message, oldest first.
func (b *LogBook) Rank(i int) int { return int(b.refs[b.head+i].rank) }

// At reads the i-th kept message, oldest first, from its traffic line.
func (b *LogBook) At(i int) LogEntry {
	r := b.refs[b.head+i]
	e := b.history.BySeq(r.seq)
	if e == nil {
		return LogEntry{Seq: r.seq, Rank: int(r.rank), Text: "(evicted with its traffic line)"}
	}
	out := LogEntry{Time: e.Time, Gen: e.Gen, Seq: r.seq, Rank: int(r.rank)}
	params := logParams(e.Raw, int(r.nth))
	v, _ := members(params, "level", "logger", "data")
	out.Level, _ = str(v[0])
	out.Logger, _ = str(v[1])
	out.Level, out.Logger = clip(out.Level), clip(out.Logger)
	text, ok := str(v[2])
	if !ok {
		raw := bytes.TrimSpace(v[2])
		if len(raw) > logTextBytes {
			raw = raw[:logTextBytes]
		}
		if bytes.ContainsAny(raw, "\r\n\t") {
			raw = bytes.Join(bytes.Fields(raw), []byte(" "))
		}
		text = string(raw)
	}
	if len(text) > logTextBytes {
		text = text[:logTextBytes]
	}
	out.Text = text
	return out
}

// Data is the i-th kept message's data as the server sent it (a copy;
// nil when its traffic line was evicted).
func (b *LogBook) Data(i int) json.RawMessage {
	r := b.refs[b.head+i]
	e := b.history.BySeq(r.seq)
	if e == nil {
		return nil
	}
	return bytes.Clone(member(logParams(e.Raw, int(r.nth)), "data"))
}

// logParams are the params of the nth log message of a traffic line (a
// message, or a batch of them).
func logParams(raw []byte, nth int) []byte {
	if kind(raw) != '[' {
		return member(raw, "params")
	}
	var params []byte
	eachElement(raw, func(el []byte) bool {
		if m, _ := str(member(el, "method")); m == protocol.NotificationMessage {
			if nth == 0 {
				params = member(el, "params")
				return false
			}
			nth--
		}
		return true
	})
	return params
}

// Select lists the indexes (for At) of the kept messages at least as
// severe as the level of rank minRank, oldest first; minRank <= 0 keeps
// every message, a level no one knows included.
func (b *LogBook) Select(minRank int) []int {
	out := make([]int, 0, b.Len())
	for i := range b.Len() {
		if minRank <= 0 || b.Rank(i) >= minRank {
			out = append(out, i)
		}
	}
	return out
}

// prune forgets the messages whose traffic line was evicted.
func (b *LogBook) prune() {
	first := b.history.FirstSeq()
	for b.Len() > 0 && b.refs[b.head].seq < first {
		b.refs[b.head] = logRef{}
		b.head++
		b.dropped++
	}
	if b.head > 64 && b.head > len(b.refs)/2 {
		b.refs = slices.Delete(b.refs, 0, b.head)
		b.head = 0
	}
}

func (b *LogBook) add(r logRef) {
	b.total++
	if n := b.Len(); n > 0 && b.refs[len(b.refs)-1].seq == r.seq {
		r.nth = b.refs[len(b.refs)-1].nth + 1
	}
	b.refs = append(b.refs, r)
	if b.Len() > b.max {
		b.head++
		b.dropped++
	}
	b.prune()
}

// logMessage indexes a notifications/message the server sent, on the
// traffic entry seq.
func (s *Session) logMessage(rank int32, seq uint64) {
	s.logs.add(logRef{seq: seq, rank: rank})
}

// logRank is the LevelRank of a log message's level member (logMembers):
// every line of a log flood comes here.
func logRank(level []byte) int {
	if inner, ok := plainString(level); ok {
		return LevelRank(string(inner))
	}
	s, _ := str(level)
	return LevelRank(s)
}

// Logs is the server's log messages.
func (s *Session) Logs() *LogBook { return s.logs }

// LogLevelSet is the log level the client asked the server for: with
// logging/setLevel, or (2026-07-28) on every request's _meta. Err says why
// it could not be set ("" when it was).
type LogLevelSet struct {
	Stamp
	Level string
	Err   string
}
