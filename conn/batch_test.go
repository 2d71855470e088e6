package conn_test

import (
	"strings"
	"testing"

	"github.com/mcptui/mcptui/conn"
)

// AcceptBatches (MCP 2025-03-26): a JSON array line is unpacked into its
// messages, handled in order; the Observer sees the batch once, as one
// Received line, and an element that is not a message on its own as
// Discarded.
func TestBatchUnpackedInOrder(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{AcceptBatches: true})
	batch := `[{"jsonrpc":"2.0","method":"first/note","params":{"n":1}},` +
		`42,` +
		`{"jsonrpc":"2.0","id":$ID,"result":{"from":"batch"}},` +
		`{"jsonrpc":"2.0","method":"second/note","params":{"n":2}}]`
	res := h.mustCall("writeonly", lines(batch))
	jsonEq(t, res, `{"from":"batch"}`)
	ns := h.notes.waitFor(t, "both notifications", func(ns []conn.Notification) bool { return len(ns) >= 2 })
	if ns[0].Method != "first/note" || ns[1].Method != "second/note" {
		t.Fatalf("notifications %v, want first/note then second/note", ns)
	}
	var batchLines, elems int
	for _, e := range h.eventsOf(conn.Received) {
		if strings.HasPrefix(string(e.Line), "[") {
			batchLines++
		}
		if strings.Contains(string(e.Line), `"from":"batch"`) && !strings.HasPrefix(string(e.Line), "[") {
			elems++
		}
	}
	if batchLines != 1 || elems != 0 {
		t.Fatalf("the Observer saw %d batch lines and %d parts on their own, want 1 and 0:\n%s", batchLines, elems, dump(h.events.all()))
	}
	d := discarded(h.events.all())
	if len(d) != 1 || string(d[0].Line) != "42" || !strings.Contains(d[0].Err.Error(), "element 2 of a batch") {
		t.Fatalf("discarded %s, want the element 42 with its position", dump(d))
	}
}

// An empty batch is invalid JSON-RPC: discarded, the connection goes on;
// SetAcceptBatches(false) restores the seed's rule.
func TestBatchEmptyAndSwitchedOff(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{AcceptBatches: true})
	jsonEq(t, h.mustCall("write", lines(`[]`)), `{}`)
	h.ping()
	h.c.SetAcceptBatches(false)
	jsonEq(t, h.mustCall("write", lines(`[{"jsonrpc":"2.0","method":"in/a/batch"}]`)), `{}`)
	h.ping()
	d := discarded(h.events.all())
	if len(d) != 2 || string(d[0].Line) != "[]" || !strings.Contains(d[1].Err.Error(), "batches are not supported") {
		t.Fatalf("discarded %s, want [] and then the batch refused", dump(d))
	}
	if n := h.notes.all(); len(n) != 0 {
		t.Fatalf("a discarded batch reached OnNotification: %v", n)
	}
}
