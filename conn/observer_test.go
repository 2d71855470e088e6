package conn_test

// Rule 21: the Observer sees every line sent, received and discarded, and the
// exit, in wire order.

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/mcptui/mcptui/conn"
)

// Rule 21: incoming lines are reported in the order the server wrote them,
// received or discarded, each with its exact bytes and size; sent lines are
// reported with theirs; the exit comes last, once.
func TestObserverSeesEverything(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	written := []string{
		`{"jsonrpc":"2.0","method":"first","params":{}}`,
		`garbage`,
		`{"jsonrpc":"2.0","id":777777,"result":{}}`,
		`{"jsonrpc":"2.0","method":"second"}`,
		`{"jsonrpc":"2.0","id":$ID,"result":{"done":true}}`,
	}
	h.mustCall("writeonly", lines(written...))
	id := h.sentRequest("writeonly").ID
	h.call("exit/2", nil)
	evs := h.events.waitFor(t, "the Exited event", func(es []conn.Event) bool {
		return len(es) > 0 && es[len(es)-1].Kind == conn.Exited
	})

	var incoming []conn.Event
	exits := 0
	for _, e := range evs {
		switch e.Kind {
		case conn.Received, conn.Discarded:
			incoming = append(incoming, e)
		case conn.Sent:
			if e.Size != len(e.Line) || !json.Valid(e.Line) {
				t.Errorf("Sent event size %d for line %q", e.Size, e.Line)
			}
		case conn.Exited:
			exits++
			if exitCode(e.Err) != 2 {
				t.Errorf("Exited err %v, want exit status 2", e.Err)
			}
		default:
			t.Errorf("event of kind %v", e.Kind)
		}
		if e.Time.IsZero() {
			t.Errorf("%v event without a time", e.Kind)
		}
	}
	if exits != 1 {
		t.Fatalf("%d Exited events, want 1", exits)
	}
	// The echo of ping and the exit request's are the only other lines.
	if len(incoming) != len(written) {
		t.Fatalf("incoming events:\n%s\nwant %d", dump(incoming), len(written))
	}
	kinds := []conn.EventKind{conn.Received, conn.Discarded, conn.Discarded, conn.Received, conn.Received}
	for i, e := range incoming {
		want := string(replaceID([]byte(written[i]), id))
		if e.Kind != kinds[i] || string(e.Line) != want || e.Size != len(want) {
			t.Errorf("incoming #%d: %v %q size %d, want %v %q size %d", i, e.Kind, e.Line, e.Size, kinds[i], want, len(want))
		}
		if (e.Kind == conn.Discarded) != (e.Err != nil) {
			t.Errorf("incoming #%d: %v with err %v", i, e.Kind, e.Err)
		}
	}
	var sent []string
	for _, e := range h.eventsOf(conn.Sent) {
		sent = append(sent, string(e.Line))
	}
	wantSent := []string{
		fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"writeonly","params":{"data":%q}}`, id, lines(written...)["data"]),
	}
	if len(sent) != 2 || sent[0] != wantSent[0] {
		t.Fatalf("sent lines %q, want %q then the exit request", sent, wantSent)
	}
}

// replaceID replaces $ID in line with id.
func replaceID(line []byte, id json.RawMessage) []byte {
	var out []byte
	for i := 0; i < len(line); i++ {
		if i+3 <= len(line) && string(line[i:i+3]) == "$ID" {
			out = append(out, id...)
			i += 2
			continue
		}
		out = append(out, line[i])
	}
	return out
}

// Rule 21: the Observer is called in wire order: a request is reported sent
// before its response is reported received, however many calls are in
// flight.
func TestObserverSentBeforeReceived(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 100 {
				if _, err := h.call("echo", map[string]int{"g": g, "i": i}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	sentAt := map[string]int{}
	received := 0
	for i, e := range h.events.all() {
		var m wire
		if json.Unmarshal(e.Line, &m) != nil || m.ID == nil {
			continue
		}
		switch e.Kind {
		case conn.Sent:
			sentAt[string(m.ID)] = i
		case conn.Received:
			received++
			at, ok := sentAt[string(m.ID)]
			if !ok {
				t.Fatalf("the response to %s was reported (event %d) before its request was reported sent", m.ID, i)
			}
			if at > i {
				t.Fatalf("unreachable: %d > %d", at, i)
			}
		}
	}
	if received != 800 {
		t.Fatalf("%d responses reported, want 800", received)
	}
}
