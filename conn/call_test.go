package conn_test

// Rules 8-10 and 13: calls, ids, concurrency, timeouts, the caller's context,
// and Notify.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// A call returns the server's result; an error response comes back as an
// *Error with its code, message and data.
func TestCallResultAndErrorResponse(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	jsonEq(t, h.mustCall("echo", map[string]any{"a": 1, "b": []string{"x"}}), `{"a":1,"b":["x"]}`)
	if res := h.mustCall("echo", json.RawMessage(`{"raw" : true}`)); string(res) != `{"raw":true}` && string(res) != `{"raw" : true}` {
		t.Fatalf("raw params echoed as %s", res)
	}

	_, err := h.call("writeonly", lines(`{"jsonrpc":"2.0","id":$ID,"error":{"code":-32602,"message":"Bad params","data":{"field":"x"}}}`))
	e := wantErr(t, err, -32602, "Bad params")
	jsonEq(t, e.Data, `{"field":"x"}`)

	_, err = h.call("no/such/method", nil)
	wantErr(t, err, -32601, "Method not found: no/such/method")
}

// WithMeta merges its members into params._meta; the progress token set by
// WithProgress wins over one given there.
func TestWithMeta(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	h.mustCall("echo", map[string]any{"a": 1, "_meta": map[string]string{"keep": "me", "traceparent": "old"}},
		conn.WithMeta(json.RawMessage(`{"traceparent":"00-abc-01","progressToken":"mine"}`)),
		conn.WithProgress(func(conn.Progress) error { return nil }))
	req := h.sentRequest("echo")
	jsonEq(t, req.Params, fmt.Sprintf(`{"a":1,"_meta":{"keep":"me","traceparent":"00-abc-01","progressToken":%s}}`, req.ID))
}

// Rule 8: ids are positive integers, unique per connection; many goroutines
// share one Conn, and responses arriving in any order reach their callers.
func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	const goroutines, calls = 24, 10
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range calls {
				method := fmt.Sprintf("delay/%d", rand.IntN(6))
				want := fmt.Sprintf(`{"g":%d,"i":%d}`, g, i)
				res, err := h.call(method, json.RawMessage(want))
				if err != nil {
					t.Errorf("%d/%d: %v", g, i, err)
					return
				}
				if string(res) != want {
					t.Errorf("%d/%d: got %s, want %s", g, i, res, want)
				}
			}
		})
	}
	wg.Wait()
	seen := map[int64]bool{}
	for _, e := range h.eventsOf(conn.Sent) {
		var m wire
		if err := json.Unmarshal(e.Line, &m); err != nil || m.ID == nil {
			continue
		}
		id, err := strconv.ParseInt(string(m.ID), 10, 64)
		if err != nil || id <= 0 {
			t.Fatalf("id %s is not a positive integer", m.ID)
		}
		if seen[id] {
			t.Fatalf("id %d used twice", id)
		}
		seen[id] = true
	}
	if len(seen) != goroutines*calls {
		t.Fatalf("%d requests sent, want %d", len(seen), goroutines*calls)
	}
}

// Rule 8: a response that arrives before the response to an earlier request
// is matched by id; the earlier call keeps waiting for its own.
func TestOutOfOrderResponses(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	type outcome struct {
		res json.RawMessage
		err error
	}
	first, second := make(chan outcome, 1), make(chan outcome, 1)
	go func() { res, err := h.call("hold/first", map[string]int{"n": 1}); first <- outcome{res, err} }()
	h.sentRequest("hold/first")
	go func() { res, err := h.call("hold/second", map[string]int{"n": 2}); second <- outcome{res, err} }()
	h.sentRequest("hold/second")

	h.release("second")
	o := recv(t, second, "the second call")
	if o.err != nil {
		t.Fatal(o.err)
	}
	jsonEq(t, o.res, `{"n":2}`)
	select {
	case o := <-first:
		t.Fatalf("the first call returned before its response: %s %v", o.res, o.err)
	default:
	}
	h.release("first")
	o = recv(t, first, "the first call")
	if o.err != nil {
		t.Fatal(o.err)
	}
	jsonEq(t, o.res, `{"n":1}`)
}

// Rule 9: a timeout is -32001 "Request timed out" with data {"timeoutMs": N},
// and the server is sent the exact cancellation.
func TestCallTimeout(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{}, "-report")
	begin := time.Now()
	_, err := h.call("park", nil, conn.WithTimeout(30*time.Millisecond))
	if elapsed := time.Since(begin); elapsed < 30*time.Millisecond {
		t.Fatalf("timed out after %v, before the 30ms timeout", elapsed)
	}
	e := wantErr(t, err, conn.CodeTimeout, "Request timed out")
	jsonEq(t, e.Data, `{"timeoutMs":30}`)
	h.waitGot(cancelLine(h.sentRequest("park").ID, "Request timed out"))
	h.ping()
}

// Rule 9: after a timeout the id is forgotten: the late response is dropped
// (reported as Discarded) and reaches nobody.
func TestLateResponseDropped(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	_, err := h.call("late", map[string]string{"too": "late"}, conn.WithTimeout(20*time.Millisecond))
	wantErr(t, err, conn.CodeTimeout, "Request timed out")
	want := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"too":"late"}}`, h.sentRequest("late").ID)
	h.events.waitFor(t, "the late response to be discarded", func(es []conn.Event) bool {
		for _, e := range discarded(es) {
			if string(e.Line) == want && e.Size == len(want) && e.Err != nil {
				return true
			}
		}
		return false
	})
	h.ping()
	if n := h.notes.all(); len(n) != 0 {
		t.Fatalf("the late response reached OnNotification: %v", n)
	}
}

// Rule 9: WithTimeout(d) with d <= 0 sets no timer.
func TestNoTimeout(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	for _, d := range []time.Duration{0, -time.Second} {
		// The answer comes later than any mistaken tiny timer would allow.
		jsonEq(t, h.mustCall("delay/30", map[string]int{"ok": 1}, conn.WithTimeout(d)), `{"ok":1}`)
	}
}

// Rule 10: when the caller's context ends first, Call returns at once with an
// error that is the context's, and the server is sent a cancellation with
// reason "The client stopped waiting".
func TestCallContextDone(t *testing.T) {
	t.Parallel()
	t.Run("canceled", func(t *testing.T) {
		t.Parallel()
		h := start(t, conn.Options{}, "-report")
		ctx, cancel := context.WithCancel(context.Background())
		errc := make(chan error, 1)
		go func() { _, err := h.c.Call(ctx, "park", nil); errc <- err }()
		id := h.sentRequest("park").ID
		cancel()
		err := recv(t, errc, "Call to return after cancel")
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want one that is context.Canceled", err)
		}
		h.waitGot(cancelLine(id, "The client stopped waiting"))
		h.ping()
	})
	t.Run("deadline", func(t *testing.T) {
		t.Parallel()
		h := start(t, conn.Options{}, "-report")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
		defer cancel()
		_, err := h.c.Call(ctx, "park", nil)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("error %v, want one that is context.DeadlineExceeded", err)
		}
		h.waitGot(cancelLine(h.sentRequest("park").ID, "The client stopped waiting"))
	})
	t.Run("already canceled", func(t *testing.T) {
		t.Parallel()
		h := start(t, conn.Options{})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := h.c.Call(ctx, "park", nil); !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want one that is context.Canceled", err)
		}
		h.ping()
	})
}

// Rules 10 and 13: a caller whose line cannot go through (the server stopped
// reading and the pipe is full) still returns at once when its context ends.
func TestContextDoneWhileWriteBlocked(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	h.grace = 20 * time.Millisecond // the server never sees EOF
	h.mustCall("stopreading", nil)
	// Far more than the pipe holds: the writer blocks on this line.
	big := map[string]string{"pad": strings.Repeat("a", 1<<20)}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := h.c.Notify(ctx, "note/big", big); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Notify: error %v, want one that is context.DeadlineExceeded", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := h.c.Call(ctx, "echo", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Call: error %v, want one that is context.DeadlineExceeded", err)
	}
}

// Rule 13: Notify returns once the line is written: the Observer has seen it
// sent by then, and the server receives exactly that line.
func TestNotify(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{}, "-report")
	if err := h.c.Notify(context.Background(), "notes/hello", map[string]string{"k": "v"}); err != nil {
		t.Fatal(err)
	}
	const want = `{"jsonrpc":"2.0","method":"notes/hello","params":{"k":"v"}}`
	sent := h.eventsOf(conn.Sent)
	if len(sent) != 1 || string(sent[0].Line) != want || sent[0].Size != len(want) {
		t.Fatalf("when Notify returned the Observer had seen %s, want one Sent %s", dump(sent), want)
	}
	h.waitGot(want)
}

// WithoutCancellation (for initialize, which MCP forbids cancelling): a
// timeout or an ended context gives up on the request but sends no
// notifications/cancelled.
func TestCallWithoutCancellation(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{}, "-report")
	_, err := h.call("park", nil, conn.WithTimeout(30*time.Millisecond), conn.WithoutCancellation())
	wantErr(t, err, conn.CodeTimeout, "Request timed out")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		h.sentRequest("park/2")
		cancel()
	}()
	if _, err := h.c.Call(ctx, "park/2", nil, conn.WithoutCancellation()); err == nil {
		t.Fatal("a call whose context ended returned no error")
	}
	h.ping() // written after anything the two calls could have sent
	for _, l := range gotLines(h.notes.all()) {
		if strings.Contains(l, "notifications/cancelled") {
			t.Fatalf("the server was sent %s", l)
		}
	}
}
