package model

import (
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// BenchmarkFloodLine measures what one line of a log flood costs off the
// UI goroutine once conn has read it: FromConn's reading (envelope,
// summary, level) and the live lint's judgement of it.
func BenchmarkFloodLine(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"tick tock, a log line of ordinary length"}}`)
	p := NewPrelinter()
	evs := make([]Event, 1)
	b.ReportAllocs()
	for b.Loop() {
		evs[0] = FromConn(conn.Event{Time: time.Time{}, Kind: conn.Received, Line: line, Size: len(line)})
		p.Lint(evs)
	}
}
