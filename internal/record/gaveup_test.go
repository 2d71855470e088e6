package record

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// A Sent cancellation whose Err is a *conn.GaveUp is recorded with
// "gaveUp" (which timer fired, the durations, when), read back whole, and
// turned back into the GaveUp a replay gives the model; the line itself
// is kept byte for byte. Other sent lines carry none.
func TestRecordsWhyMcptuiGaveUp(t *testing.T) {
	var buf bytes.Buffer
	r := New(&buf, Header{Mode: "call"})
	t0 := time.Now()
	cancel := []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"Request timed out"}}`)
	g := &conn.GaveUp{Why: "max-total-timeout", Timeout: time.Second, ResetOnProgress: true, MaxTotal: 3 * time.Second,
		Extended: 30 * time.Second, After: 33 * time.Second, Progress: 4, LastProgress: 32500 * time.Millisecond}
	r.Observe(conn.Event{Time: t0, Kind: conn.Sent, Line: []byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}`), Size: 40})
	r.Observe(conn.Event{Time: t0, Kind: conn.Sent, Line: cancel, Size: len(cancel), Err: g})
	r.Observe(conn.Event{Time: t0, Kind: conn.Sent, Line: cancel, Size: len(cancel),
		Err: &conn.GaveUp{Why: "cancelled", Timeout: time.Second, After: time.Millisecond, Cause: errors.New("cancelled by the person (the cancel key)")}})
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"gaveUp":{"why":"max-total-timeout","timeout":"1s","resetTimeoutOnProgress":true,"maxTotalTimeout":"3s","extended":"30s","afterMs":33000,"progress":4,"lastProgressMs":32500}`) {
		t.Errorf("the recording:\n%s", buf.String())
	}
	rec, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	es := rec.Entries
	if len(es) < 3 || es[0].GaveUp != nil || es[1].GaveUp == nil || string(es[1].Content()) != string(cancel) {
		t.Fatalf("entries %+v", es)
	}
	back := es[1].GaveUp.Err()
	if back.Why != g.Why || back.Timeout != g.Timeout || back.MaxTotal != g.MaxTotal || back.Extended != g.Extended ||
		back.After != g.After || back.Progress != g.Progress || back.LastProgress != g.LastProgress || !back.ResetOnProgress {
		t.Errorf("read back %+v, want %+v", back, g)
	}
	if c := es[2].GaveUp; c == nil || c.Why != "cancelled" || c.Cause != "cancelled by the person (the cancel key)" {
		t.Errorf("the person's cancel: %+v", c)
	}
}
