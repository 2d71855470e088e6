package model

import (
	"math"

	"github.com/mcptui/mcptui/internal/jsonscan"

	"github.com/mcptui/mcptui/internal/protocol"
)

// A line's reading — its envelope, its summary, a log line's level — does
// not depend on the session: FromConn does it where the line is read
// (conn's reading goroutine), so that the goroutine folding events into
// the session (the UI's) only files what was prepared. A Wire made
// otherwise (tests, replay) is read when it is applied, by the same
// functions.

// span is a value's place in its line, [start, end); end 0 when absent.
type span struct{ start, end int32 }

// spanOf is where v, a sub-slice of line (or nil), sits in it.
func spanOf(line, v []byte) span {
	if v == nil {
		return span{}
	}
	start := int32(cap(line) - cap(v))
	return span{start: start, end: start + int32(len(v))}
}

// in is the value the span marks in line.
func (s span) in(line []byte) []byte {
	if s.end == 0 {
		return nil
	}
	return line[s.start:s.end:s.end]
}

// prepared is a line read ahead of Apply.
type prepared struct {
	// size is the length of the line it was read from (0: not read).
	size                       int32
	logRank                    int32 // a log message's LevelRank
	kind                       Kind
	id, params, result, errObj span
	method                     string
	summary                    string
	// The members the live lint reads first (lint.Line.Head): jsonrpc
	// and method as they are on the line; idNull an "id":null (which the
	// envelope's id leaves out); scanned jsonscan.Fields' answer.
	jsonrpc, rawMethod span
	idNull, scanned    bool
	// valid: the line is one valid JSON object (jsonscan.FieldsValid), so
	// the lint need not check it again (lint.Line.Valid).
	valid bool
}

// prepare reads the line ahead, when it is an ordinary message.
func (w *Wire) prepare() {
	line := w.Line
	if w.Discarded || w.Lost || len(line) == 0 || len(line) > math.MaxInt32 || kind(line) == '[' {
		return
	}
	var v [6][]byte
	ok, valid := jsonscan.FieldsValid(line, v[:], "id", "method", "params", "result", "error", "jsonrpc")
	env := envelopeOf([5][]byte(v[:5]), ok)
	p := prepared{size: int32(len(line)), kind: env.kind, method: env.method,
		id: spanOf(line, env.id), params: spanOf(line, env.params), result: spanOf(line, env.result),
		jsonrpc: spanOf(line, v[5]), rawMethod: spanOf(line, v[1]), idNull: v[0] != nil && env.id == nil, scanned: ok, valid: valid}
	if env.kind == KindError {
		p.errObj = spanOf(line, v[4])
	}
	p.summary, p.logRank = summaryAndRank(env)
	w.prep = p
}

// prepared is the line's reading and its plain summary, read now unless
// FromConn read it.
func (w *Wire) prepared() (envelope, string, int32) {
	p := &w.prep
	if p.size == 0 || int(p.size) != len(w.Line) {
		env := parseEnvelope(w.Line)
		summary, rank := summaryAndRank(env)
		return env, summary, rank
	}
	env := envelope{kind: p.kind, method: p.method, id: p.id.in(w.Line), params: p.params.in(w.Line), result: p.result.in(w.Line)}
	if p.kind == KindError {
		env.err = parseError(p.errObj.in(w.Line))
	}
	return env, p.summary, p.logRank
}

// Held is the bytes the event holds beside itself: its line and what was
// read ahead of it (the summary), for a queue's memory bound.
func (w Wire) Held() int { return len(w.Line) + len(w.prep.summary) }

// summaryAndRank is a message's summary and its log level rank (0 for
// anything but a log message), whose params are read once for both.
func summaryAndRank(env envelope) (string, int32) {
	if env.kind == KindNotification && env.method == protocol.NotificationMessage {
		v := logMembers(env.params)
		return logSummary(v), int32(logRank(v[0]))
	}
	return summarize(env), 0
}

// rankOf is a message's log level rank alone (0 for anything but a log
// message).
func rankOf(env envelope) int32 {
	if env.kind == KindNotification && env.method == protocol.NotificationMessage {
		return int32(logRank(logMembers(env.params)[0]))
	}
	return 0
}

// lintHead is what the live lint reads first of the line (lint.Line.Head),
// when FromConn read it; ok is false when it did not. valid is
// lint.Line.Valid: FromConn's reading found the line one valid JSON object.
func (w *Wire) lintHead() (head [4][]byte, scanned, ok, valid bool) {
	p := &w.prep
	if p.size == 0 || int(p.size) != len(w.Line) {
		return head, false, false, false
	}
	head = [4][]byte{p.jsonrpc.in(w.Line), p.id.in(w.Line), p.rawMethod.in(w.Line), p.params.in(w.Line)}
	if p.idNull {
		head[1] = []byte("null")
	}
	return head, p.scanned, true, p.valid
}
