package conn_test

// Rule 7: dispatch of each incoming line, first match wins.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// Rule 7: a line with id and method is a server request even when its id is
// the id of a pending call; the call is not disturbed.
func TestServerRequestWithPendingID(t *testing.T) {
	t.Parallel()
	got := make(chan *conn.Request, 1)
	h := start(t, conn.Options{OnServerRequest: func(ctx context.Context, req *conn.Request) (json.RawMessage, error) {
		got <- req
		return json.RawMessage(`{"handled":true}`), nil
	}})
	// The server asks with the id of the ask call itself, which is pending.
	res := h.mustCall("ask", map[string]string{"line": `{"jsonrpc":"2.0","id":$ID,"method":"client/thing","params":{"q":1}}`})
	req := recv(t, got, "the server request")
	id := h.sentRequest("ask").ID
	if string(req.ID) != string(id) || req.Method != "client/thing" || string(req.Params) != `{"q":1}` {
		t.Fatalf("handler got id %s method %q params %s; want id %s", req.ID, req.Method, req.Params, id)
	}
	jsonEq(t, res, fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"handled":true}}`, id))
}

// Rule 7: a notification tagged with an open subscription's id goes to the
// subscription even when it is a progress notification whose token is
// registered.
func TestSubscriptionBeforeProgress(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	sub, err := h.c.Listen(context.Background(), map[string]bool{"toolsListChanged": true}, conn.WithTimeout(waitTimeout))
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	var progressCalls atomic.Int32
	line := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":$ID,"progress":1,"_meta":{"io.modelcontextprotocol/subscriptionId":%s}}}`, sub.ID())
	h.mustCall("write", lines(line), conn.WithProgress(func(conn.Progress) error {
		progressCalls.Add(1)
		return nil
	}))
	if n := progressCalls.Load(); n != 0 {
		t.Fatalf("the progress function ran %d times for a subscription event", n)
	}
	ev := next(t, sub)
	if ev.Method != "notifications/progress" || !strings.Contains(string(ev.Params), `"io.modelcontextprotocol/subscriptionId":`+string(sub.ID())) {
		t.Fatalf("subscription event %s %s", ev.Method, ev.Params)
	}
}

// Rule 7: notifications/cancelled naming a running server request cancels
// its handler's context, and no answer is written; the cancellation is
// claimed (it does not reach OnNotification).
func TestServerCancelsServerRequest(t *testing.T) {
	t.Parallel()
	started, returned := make(chan struct{}), make(chan error, 1)
	h := start(t, conn.Options{OnServerRequest: func(ctx context.Context, req *conn.Request) (json.RawMessage, error) {
		close(started)
		select {
		case <-ctx.Done():
			returned <- ctx.Err()
		case <-time.After(waitTimeout):
			returned <- nil
		}
		return json.RawMessage(`{"answered":"after cancel"}`), nil
	}}, "-report")
	h.mustCall("write", lines(`{"jsonrpc":"2.0","id":"srv-1","method":"sampling/createMessage","params":{}}`))
	recv(t, started, "the handler to start")
	h.mustCall("write", lines(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"srv-1","reason":"changed my mind"}}`))
	if err := recv(t, returned, "the handler to return"); err == nil {
		t.Fatal("the handler's context was not cancelled")
	}
	// Give a wrongly written answer every chance to arrive first.
	h.ping()
	h.ping()
	for _, e := range h.eventsOf(conn.Sent) {
		var m wire
		if json.Unmarshal(e.Line, &m) == nil && string(m.ID) == `"srv-1"` {
			t.Errorf("an answer was written for the cancelled request: %s", e.Line)
		}
	}
	for _, l := range gotLines(h.notes.all()) {
		var m wire
		if json.Unmarshal([]byte(l), &m) == nil && string(m.ID) == `"srv-1"` {
			t.Errorf("the server received an answer for the cancelled request: %s", l)
		}
	}
	for _, n := range h.notes.all() {
		if n.Method == "notifications/cancelled" {
			t.Errorf("the claimed cancellation reached OnNotification: %s", n.Params)
		}
	}
}

// Rule 7: notifications nothing claims go to OnNotification, in order, with
// their params: other methods, progress for an unknown token or for a call
// made without WithProgress, a cancellation naming no running server
// request, a tag of no open subscription.
func TestUnclaimedNotificationsToOnNotification(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	notes := []string{
		`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hello"}}`,
		`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"someone-else","progress":1}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":$ID,"progress":2}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"srv-none"}}`,
		`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a","_meta":{"io.modelcontextprotocol/subscriptionId":987654}}}`,
	}
	h.mustCall("write", lines(notes...)) // no WithProgress: $ID's progress is not for this call
	got := h.notes.waitFor(t, "the notifications", func(ns []conn.Notification) bool { return len(ns) >= len(notes) })
	if len(got) != len(notes) {
		t.Fatalf("got %d notifications, want %d:\n%s", len(got), len(notes), dump(got))
	}
	id := h.sentRequest("write").ID
	for i, line := range notes {
		var want wire
		json.Unmarshal([]byte(strings.ReplaceAll(line, "$ID", string(id))), &want)
		if got[i].Method != want.Method || string(got[i].Params) != string(want.Params) {
			t.Errorf("notification %d: %s %s, want %s %s", i, got[i].Method, got[i].Params, want.Method, want.Params)
		}
	}
}

// Rule 7: without OnNotification, unclaimed notifications are dropped and the
// connection keeps going.
func TestUnclaimedNotificationsDropped(t *testing.T) {
	t.Parallel()
	c := dial(t, conn.Options{Stderr: &textWatch{}})
	defer c.Shutdown(waitTimeout)
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	if _, err := c.Call(ctx, "write", lines(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}`)); err != nil {
		t.Fatal(err)
	}
	res, err := c.Call(ctx, "echo", map[string]int{"still": 1})
	if err != nil {
		t.Fatal(err)
	}
	jsonEq(t, res, `{"still":1}`)
}

// next is sub.Next bounded by waitTimeout.
func next(t *testing.T, sub *conn.Subscription) conn.Notification {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	n, err := sub.Next(ctx)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return n
}
