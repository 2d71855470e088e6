package model

import (
	"bytes"
	"testing"

	"github.com/mcptui/mcptui/conn"
)

// BenchmarkLiveLargeResult is the live path of a 15 MiB tools/call result
// from conn to the session: FromConn's reading (on conn's goroutine), the
// live lint ahead of Apply, and Apply filing it (the UI's goroutine).
func BenchmarkLiveLargeResult(b *testing.B) {
	text := bytes.Repeat([]byte(`line 0000001: the quick brown fox jumps over the lazy dog\n`), 15<<20/59)
	req := []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"large","arguments":{"bytes":15728640}}}`)
	resp := []byte(`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"` + string(text) + `"}],"resultType":"complete"}}`)
	b.SetBytes(int64(len(resp)))
	b.ReportAllocs()
	for b.Loop() {
		s := New(Config{})
		pre := NewPrelinter()
		evs := []Event{
			Started{Stamp: Stamp{Time: t0}, Command: []string{"./server"}, PID: 42},
			FromConn(conn.Event{Time: t0, Kind: conn.Sent, Line: req, Size: len(req)}),
			FromConn(conn.Event{Time: t0, Kind: conn.Received, Line: resp, Size: len(resp)}),
		}
		pre.Lint(evs)
		for _, ev := range Judged(evs) {
			s.Apply(ev)
		}
	}
}
