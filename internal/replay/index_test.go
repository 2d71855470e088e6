package replay

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/model"
)

// sameEvents checks that the index of the recording at file holds the
// events Events makes of it, in the same order, and its sends.
func sameEvents(t *testing.T, file string, maxLine int) {
	t.Helper()
	rec, err := record.OpenLimited(file, maxLine)
	if err != nil {
		t.Fatal(err)
	}
	want := Events(rec)
	x, err := IndexFile(file, maxLine)
	if err != nil {
		t.Fatal(err)
	}
	if x.Len() != len(want) {
		t.Fatalf("%s: the index has %d events, Events %d", file, x.Len(), len(want))
	}
	r, err := x.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.Events(0, x.Len())
	if err != nil {
		t.Fatal(err)
	}
	var sends []int
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("%s: event %d is %#v, Events has %#v", file, i, got[i], want[i])
		}
		if w, ok := want[i].(model.Wire); ok && w.Dir == model.Out {
			sends = append(sends, i)
		}
	}
	if !reflect.DeepEqual(x.Sends, sends) {
		t.Errorf("%s: sends %v, want %v", file, x.Sends, sends)
	}
	// Read out of order (a jump back seeks).
	for _, i := range []int{len(want) - 1, 0, len(want) / 2, len(want)/2 - 1} {
		ev, err := r.Event(i)
		if err != nil || !reflect.DeepEqual(ev, want[i]) {
			t.Fatalf("%s: event %d read alone is %#v (%v), want %#v", file, i, ev, err, want[i])
		}
	}
}

// The index of a recording holds the events Events makes of it, in its
// order: on real recordings of both protocol families.
func TestIndexHoldsTheEventsOfEvents(t *testing.T) {
	t.Parallel()
	for _, pin := range [][]string{nil, {"--protocol", "2025-11-25"}} {
		_, file := recordScript(t, t.TempDir(), "rec.jsonl", append(pin, testServer("demo")...)...)
		sameEvents(t, file, 0)
	}
}

// ... and on a hand-made one with entries out of time order (sorted, the
// ties kept in file order), a line over the limit (kept without its
// bytes), stderr, a wire-only handshake, and the exit of a process the
// negotiation abandoned (left out).
func TestIndexHoldsTheEventsOfEventsOfAnOddRecording(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("y", 300<<10)
	rec := `{"type":"header","format":"mcptui-recording","version":1,"t":"2026-01-01T00:00:00Z","ms":0,"command":"srv","args":["a"],"secrets":false,"settings":{}}
{"type":"sent","t":"2026-01-01T00:00:01Z","ms":1,"size":60,"msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}}
{"type":"stderr","t":"2026-01-01T00:00:00.5Z","ms":1,"text":"early"}
{"type":"received","t":"2026-01-01T00:00:02Z","ms":2,"size":40,"msg":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","serverInfo":{"name":"s","version":"1"}}}}
{"type":"received","t":"2026-01-01T00:00:02Z","ms":2,"size":40,"msg":{"jsonrpc":"2.0","id":7,"method":"roots/list"}}
{"type":"received","t":"2026-01-01T00:00:03Z","ms":3,"size":40,"text":"` + big + `"}
{"type":"sent","t":"2026-01-01T00:00:02Z","ms":2,"size":40,"msg":{"jsonrpc":"2.0","id":7,"result":{"roots":[]}}}
{"type":"exit","t":"2026-01-01T00:00:04Z","ms":4,"status":"exit status 1"}
{"type":"end","t":"2026-01-01T00:00:05Z","ms":5}
`
	file := filepath.Join(t.TempDir(), "odd.jsonl")
	if err := os.WriteFile(file, []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	sameEvents(t, file, 64<<10)
	sameEvents(t, file, 0)
}
