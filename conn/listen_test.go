package conn_test

// Rules 18-20: subscriptions (subscriptions/listen) on the shared connection.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// listen opens a subscription with filter, failing the test on an error.
func (h *harness) listen(filter any, opts ...conn.CallOption) *conn.Subscription {
	h.t.Helper()
	sub, err := h.c.Listen(context.Background(), filter, append([]conn.CallOption{conn.WithTimeout(waitTimeout)}, opts...)...)
	if err != nil {
		h.t.Fatalf("Listen: %v", err)
	}
	return sub
}

// event is a subscription notification line for subscription id.
func event(method string, id json.RawMessage, n int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":{"n":%d,"_meta":{"io.modelcontextprotocol/subscriptionId":%s}}}`, method, n, id)
}

// wantEvent checks an event's method and params.
func wantEvent(t *testing.T, got conn.Notification, method string, id json.RawMessage, n int) {
	t.Helper()
	want := fmt.Sprintf(`{"n":%d,"_meta":{"io.modelcontextprotocol/subscriptionId":%s}}`, n, id)
	if got.Method != method || string(got.Params) != want {
		t.Fatalf("event %s %s, want %s %s", got.Method, got.Params, method, want)
	}
}

// nextErr is the error Next returns, bounded by waitTimeout.
func nextErr(t *testing.T, sub *conn.Subscription) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	n, err := sub.Next(ctx)
	if err == nil {
		t.Fatalf("Next returned an event (%s %s), want the end", n.Method, n.Params)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next did not end within %v", waitTimeout)
	}
	return err
}

// cancellations are the notifications/cancelled lines the client sent.
func (h *harness) cancellations() []string {
	var out []string
	for _, e := range h.eventsOf(conn.Sent) {
		var m wire
		if json.Unmarshal(e.Line, &m) == nil && m.Method == "notifications/cancelled" {
			out = append(out, string(e.Line))
		}
	}
	return out
}

// Rule 18: Listen sends subscriptions/listen {"notifications": filter} and
// returns once acknowledged; ID is the request id and Accepted the
// acknowledgement's params.notifications.
func TestListenAcknowledged(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	filter := map[string]any{"toolsListChanged": true, "resourceSubscriptions": []string{"file:///a"}, "taskIds": []string{"t1"}}
	sub := h.listen(filter)
	req := h.sentRequest("subscriptions/listen")
	jsonEq(t, req.Params, `{"notifications":{"toolsListChanged":true,"resourceSubscriptions":["file:///a"],"taskIds":["t1"]}}`)
	if string(sub.ID()) != string(req.ID) {
		t.Fatalf("ID %s, want the request id %s", sub.ID(), req.ID)
	}
	jsonEq(t, sub.Accepted(), `{"toolsListChanged":true,"resourceSubscriptions":["file:///a"],"taskIds":["t1"]}`)
}

// Rule 18: Accepted may be a subset of the filter.
func TestListenAcceptedSubset(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	sub := h.listen(map[string]any{"toolsListChanged": true, "promptsListChanged": true, "fakeAck": map[string]bool{"toolsListChanged": true}})
	jsonEq(t, sub.Accepted(), `{"toolsListChanged":true}`)
}

// Rule 18: no acknowledgement in time is -32001 with a cancellation.
func TestListenAckTimeout(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{}, "-report")
	_, err := h.c.Listen(context.Background(), map[string]any{"toolsListChanged": true, "fakeAck": "none"}, conn.WithTimeout(30*time.Millisecond))
	e := wantErr(t, err, conn.CodeTimeout, "Request timed out")
	jsonEq(t, e.Data, `{"timeoutMs":30}`)
	h.waitGot(cancelLine(h.sentRequest("subscriptions/listen").ID, "Request timed out"))
}

// Rule 18: an error response before the acknowledgement is that error; a
// result before it is -32000; no cancellation follows either.
func TestListenEndedBeforeAck(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	_, err := h.c.Listen(context.Background(), map[string]any{"fakeAck": "none",
		"fakeBefore": `{"jsonrpc":"2.0","id":$ID,"error":{"code":-32602,"message":"Unknown filter","data":{"key":"x"}}}` + "\n"})
	e := wantErr(t, err, -32602, "Unknown filter")
	jsonEq(t, e.Data, `{"key":"x"}`)

	_, err = h.c.Listen(context.Background(), map[string]any{"fakeAck": "none",
		"fakeBefore": `{"jsonrpc":"2.0","id":$ID,"result":{}}` + "\n"})
	var ce *conn.Error
	if !errors.As(err, &ce) || ce.Code != conn.CodeConnection {
		t.Fatalf("result before the acknowledgement: %v, want -32000", err)
	}
	h.ping()
	if c := h.cancellations(); len(c) != 0 {
		t.Fatalf("cancellations sent: %v", c)
	}
}

// Rule 18 (snodo A.33): an acknowledgement without a notifications object is
// -32000 and the request is cancelled ("Invalid acknowledgement").
func TestListenInvalidAck(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{}, "-report")
	_, err := h.c.Listen(context.Background(), map[string]any{"fakeAck": 42})
	wantErr(t, err, conn.CodeConnection, "The server sent an invalid subscription acknowledgement")
	h.waitGot(cancelLine(h.sentRequest("subscriptions/listen").ID, "Invalid acknowledgement"))
}

// Rule 19: events tagged with the id are queued for Next in order, with
// _meta kept, including events sent before the acknowledgement; a terminal
// result ends the stream after them with io.EOF.
func TestSubscriptionEvents(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	sub := h.listen(map[string]any{"toolsListChanged": true,
		"fakeBefore": event("notifications/tools/list_changed", json.RawMessage("$ID"), 1) + "\n",
		"fakeAfter":  event("notifications/resources/updated", json.RawMessage("$ID"), 2) + "\n",
	})
	id := sub.ID()
	h.mustCall("write", lines(
		event("notifications/tasks", id, 3),
		fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, id),
		event("notifications/tasks", id, 4), // after the end: not an event
	))
	wantEvent(t, next(t, sub), "notifications/tools/list_changed", id, 1)
	wantEvent(t, next(t, sub), "notifications/resources/updated", id, 2)
	wantEvent(t, next(t, sub), "notifications/tasks", id, 3)
	for range 2 {
		if err := nextErr(t, sub); err != io.EOF {
			t.Fatalf("after a result Next returned %v, want io.EOF", err)
		}
	}
	if n := h.notes.all(); len(n) != 1 || n[0].Method != "notifications/tasks" {
		t.Fatalf("OnNotification got %s, want only the event after the end", dump(n))
	}
}

// Rule 19: a terminal error ends the stream with that error after the queued
// events.
func TestSubscriptionEndsWithError(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	sub := h.listen(map[string]bool{"toolsListChanged": true})
	id := sub.ID()
	h.mustCall("write", lines(
		event("notifications/tools/list_changed", id, 1),
		fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32050,"message":"Source went away"}}`, id),
	))
	wantEvent(t, next(t, sub), "notifications/tools/list_changed", id, 1)
	wantErr(t, nextErr(t, sub), -32050, "Source went away")
}

// Rule 19: the queue is bounded (WithMaxBuffer, default 100): the oldest
// events are dropped and the count is visible.
func TestSubscriptionBufferDropsOldest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ maxBuffer, limit int }{{3, 3}, {0, 100}} {
		t.Run(fmt.Sprint(tc.maxBuffer), func(t *testing.T) {
			t.Parallel()
			h := start(t, conn.Options{})
			var opts []conn.CallOption
			if tc.maxBuffer > 0 {
				opts = append(opts, conn.WithMaxBuffer(tc.maxBuffer))
			}
			sub := h.listen(map[string]bool{"toolsListChanged": true}, opts...)
			id := sub.ID()
			var evs []string
			for i := 1; i <= tc.limit+2; i++ {
				evs = append(evs, event("e", id, i))
			}
			h.mustCall("write", lines(evs...))
			if d := sub.Dropped(); d != 2 {
				t.Fatalf("Dropped %d, want 2", d)
			}
			for i := 3; i <= tc.limit+2; i++ {
				wantEvent(t, next(t, sub), "e", id, i)
			}
		})
	}
}

// Rule 20: Close sends notifications/cancelled "Closed by the client" once,
// however often it is called; Next then ends.
func TestSubscriptionClose(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{}, "-report")
	sub := h.listen(map[string]bool{"toolsListChanged": true})
	for range 3 {
		if err := sub.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
	h.waitGot(cancelLine(sub.ID(), "Closed by the client"))
	nextErr(t, sub)
	h.ping()
	if c := h.cancellations(); len(c) != 1 {
		t.Fatalf("cancellations %v, want one", c)
	}
	// Later events for it are not its own any more.
	h.mustCall("write", lines(event("e", sub.ID(), 1)))
	h.notes.waitFor(t, "the stray event at OnNotification", func(ns []conn.Notification) bool {
		for _, n := range ns {
			if n.Method == "e" {
				return true
			}
		}
		return false
	})
}

// Rule 20: no cancellation for a subscription the server already ended.
func TestSubscriptionCloseAfterServerEnded(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	sub := h.listen(map[string]bool{"toolsListChanged": true})
	h.mustCall("write", lines(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, sub.ID())))
	sub.Close()
	h.ping()
	if c := h.cancellations(); len(c) != 0 {
		t.Fatalf("cancellations sent for an ended subscription: %v", c)
	}
}

// Rule 20: Listen's context done closes the subscription like Close.
func TestListenContextCancelCloses(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{}, "-report")
	ctx, cancel := context.WithCancel(context.Background())
	sub, err := h.c.Listen(ctx, map[string]bool{"toolsListChanged": true}, conn.WithTimeout(waitTimeout))
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	h.waitGot(cancelLine(sub.ID(), "Closed by the client"))
	nextErr(t, sub)
	h.ping()
	if c := h.cancellations(); len(c) != 1 {
		t.Fatalf("cancellations %v, want one", c)
	}
}

// Rule 20: when the server exits, Next returns the queued events, then the
// -32000 error.
func TestSubscriptionServerExit(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	sub := h.listen(map[string]bool{"toolsListChanged": true})
	id := sub.ID()
	h.call("exit/4", lines(event("e", id, 1), event("e", id, 2)))
	closed(t, h.c.Done(), "Done")
	wantEvent(t, next(t, sub), "e", id, 1)
	wantEvent(t, next(t, sub), "e", id, 2)
	e := wantErr(t, nextErr(t, sub), conn.CodeConnection, "The stdio server exited")
	if exitCode(e.Cause) != 4 {
		t.Fatalf("Cause %v, want exit status 4", e.Cause)
	}
}

// Rule 20: Conn.Close ends subscriptions at once: queued events are dropped
// and Next returns -32000 "The stdio connection is closed".
func TestSubscriptionConnClose(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	sub := h.listen(map[string]bool{"toolsListChanged": true})
	h.mustCall("write", lines(event("e", sub.ID(), 1), event("e", sub.ID(), 2)))
	h.c.Close()
	wantErr(t, nextErr(t, sub), conn.CodeConnection, "The stdio connection is closed")
}

// Rules 18-19: several subscriptions and ordinary calls share the connection;
// each subscription gets only its own events.
func TestSubscriptionsShareConnection(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	a := h.listen(map[string]bool{"toolsListChanged": true})
	b := h.listen(map[string]bool{"promptsListChanged": true})
	h.mustCall("write", lines(event("e", a.ID(), 1), event("e", b.ID(), 1), event("e", b.ID(), 2), event("e", a.ID(), 2)))
	h.ping()
	wantEvent(t, next(t, a), "e", a.ID(), 1)
	wantEvent(t, next(t, a), "e", a.ID(), 2)
	wantEvent(t, next(t, b), "e", b.ID(), 1)
	wantEvent(t, next(t, b), "e", b.ID(), 2)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if n, err := a.Next(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next with nothing queued: %s %v, want the context's error", n.Method, err)
	}
}
