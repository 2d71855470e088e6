package conn_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// waitTimeout bounds every wait for a condition. It is generous on purpose:
// a correct implementation meets the condition in milliseconds, and only a
// failing test ever waits this long.
const waitTimeout = 20 * time.Second

// watch is an append-only log that tests can wait on.
type watch[T any] struct {
	mu      sync.Mutex
	items   []T
	changed chan struct{}
}

// add appends x and wakes the waiters.
func (w *watch[T]) add(x T) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.items = append(w.items, x)
	if w.changed != nil {
		close(w.changed)
		w.changed = nil
	}
}

// all returns a copy of the log.
func (w *watch[T]) all() []T {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]T(nil), w.items...)
}

// waitFor waits until cond holds for the log and returns the log; after
// waitTimeout it fails the test, saying what it waited for.
func (w *watch[T]) waitFor(t testing.TB, what string, cond func([]T) bool) []T {
	t.Helper()
	deadline := time.NewTimer(waitTimeout)
	defer deadline.Stop()
	for {
		w.mu.Lock()
		items := append([]T(nil), w.items...)
		if cond(items) {
			w.mu.Unlock()
			return items
		}
		if w.changed == nil {
			w.changed = make(chan struct{})
		}
		changed := w.changed
		w.mu.Unlock()
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("timed out after %v waiting for %s; have %d entries:\n%s", waitTimeout, what, len(items), dump(items))
		}
	}
}

// dump formats a log for a failure message.
func dump[T any](items []T) string {
	var b strings.Builder
	for i, x := range items {
		if i == 40 {
			fmt.Fprintf(&b, "  ... %d more\n", len(items)-i)
			break
		}
		if e, ok := any(x).(conn.Event); ok {
			fmt.Fprintf(&b, "  %v size=%d err=%v line=%.300s\n", e.Kind, e.Size, e.Err, e.Line)
			continue
		}
		if n, ok := any(x).(conn.Notification); ok {
			fmt.Fprintf(&b, "  %s %.300s\n", n.Method, n.Params)
			continue
		}
		fmt.Fprintf(&b, "  %.300v\n", x)
	}
	return b.String()
}

// textWatch is an io.Writer (for Options.Stderr) that tests can wait on.
type textWatch struct{ w watch[string] }

// Write records p.
func (tw *textWatch) Write(p []byte) (int, error) {
	tw.w.add(string(p))
	return len(p), nil
}

// String is everything written so far.
func (tw *textWatch) String() string { return strings.Join(tw.w.all(), "") }

// waitFor waits until the text written so far contains s.
func (tw *textWatch) waitFor(t testing.TB, s string) string {
	t.Helper()
	parts := tw.w.waitFor(t, fmt.Sprintf("stderr containing %q", s), func(parts []string) bool {
		return strings.Contains(strings.Join(parts, ""), s)
	})
	return strings.Join(parts, "")
}

// harness is one connection to a fake server, with everything it reports
// recorded: Observer events, unclaimed notifications and stderr.
type harness struct {
	t      testing.TB
	c      *conn.Conn
	events *watch[conn.Event]
	notes  *watch[conn.Notification]
	stderr *textWatch
	// grace is what the cleanup passes to Shutdown: short for servers that
	// are known not to exit at EOF.
	grace time.Duration
}

// start dials the fake server with args as its flags. It records what the
// Observer, OnNotification and Stderr see (calling the ones opts already has
// too, except Stderr, which it only sets when opts has none), and shuts the
// server down when the test ends.
func start(t testing.TB, opts conn.Options, args ...string) *harness {
	t.Helper()
	h := &harness{
		t:      t,
		events: &watch[conn.Event]{},
		notes:  &watch[conn.Notification]{},
		stderr: &textWatch{},
		grace:  5 * time.Second,
	}
	userObserver, userNote := opts.Observer, opts.OnNotification
	opts.Observer = func(e conn.Event) {
		if e.Line != nil {
			e.Line = bytes.Clone(e.Line)
		}
		h.events.add(e)
		if userObserver != nil {
			userObserver(e)
		}
	}
	opts.OnNotification = func(n conn.Notification) {
		n.Params = bytes.Clone(n.Params)
		h.notes.add(n)
		if userNote != nil {
			userNote(n)
		}
	}
	if opts.Stderr == nil {
		opts.Stderr = h.stderr
	}
	h.c = dial(t, opts, args...)
	t.Cleanup(func() { h.shutdown() })
	return h
}

// dial dials the fake server with opts as they are, and no cleanup: the
// caller shuts it down.
func dial(t testing.TB, opts conn.Options, args ...string) *conn.Conn {
	t.Helper()
	c, err := conn.Dial(context.Background(), fakeExe, args, opts)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	return c
}

// shutdown stops the server with Shutdown(h.grace), failing the test if that
// does not return.
func (h *harness) shutdown() {
	done := make(chan struct{})
	go func() {
		h.c.Shutdown(h.grace)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2*h.grace + waitTimeout):
		h.t.Errorf("Shutdown(%v) did not return", h.grace)
	}
}

// call calls method, bounded by waitTimeout so that a broken connection fails
// the test instead of hanging it.
func (h *harness) call(method string, params any, opts ...conn.CallOption) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(context.Background(), waitTimeout)
	defer cancel()
	return h.c.Call(ctx, method, params, opts...)
}

// mustCall calls method and fails the test on an error.
func (h *harness) mustCall(method string, params any, opts ...conn.CallOption) json.RawMessage {
	h.t.Helper()
	res, err := h.call(method, params, opts...)
	if err != nil {
		h.t.Fatalf("Call(%q): %v", method, err)
	}
	return res
}

// ping makes one round trip, proving the connection still answers.
func (h *harness) ping() {
	h.t.Helper()
	res := h.mustCall("echo", map[string]string{"ping": "pong"})
	jsonEq(h.t, res, `{"ping":"pong"}`)
}

// sentRequest waits for the request with method to be sent and returns it.
func (h *harness) sentRequest(method string) wire {
	h.t.Helper()
	var found wire
	h.events.waitFor(h.t, "a Sent "+method, func(es []conn.Event) bool {
		for _, e := range es {
			if e.Kind != conn.Sent {
				continue
			}
			var m wire
			if json.Unmarshal(e.Line, &m) == nil && m.Method == method && m.ID != nil {
				found = m
				return true
			}
		}
		return false
	})
	return found
}

// events of kind in the log.
func (h *harness) eventsOf(kind conn.EventKind) []conn.Event {
	var out []conn.Event
	for _, e := range h.events.all() {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// gotLines are the lines the fake server (run with -report) says it received
// from the client, other than requests.
func gotLines(notes []conn.Notification) []string {
	var lines []string
	for _, n := range notes {
		if n.Method != "fake/got" {
			continue
		}
		var p struct{ Line string }
		json.Unmarshal(n.Params, &p)
		lines = append(lines, p.Line)
	}
	return lines
}

// waitGot waits until the fake server (run with -report) received exactly
// line from the client.
func (h *harness) waitGot(line string) {
	h.t.Helper()
	h.notes.waitFor(h.t, "the server to receive "+line, func(ns []conn.Notification) bool {
		for _, l := range gotLines(ns) {
			if l == line {
				return true
			}
		}
		return false
	})
}

// cancelLine is the exact cancellation line the client must send.
func cancelLine(id json.RawMessage, reason string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%s,"reason":%q}}`, id, reason)
}

// release lets the fake server answer the request it holds under key.
func (h *harness) release(key string) {
	h.t.Helper()
	if err := h.c.Notify(context.Background(), "fake/release", map[string]string{"key": key}); err != nil {
		h.t.Fatalf("release %s: %v", key, err)
	}
}

// lines is params for write, writeonly and exit: the lines, each followed by
// a newline.
func lines(ls ...string) map[string]string {
	return map[string]string{"data": strings.Join(ls, "\n") + "\n"}
}

// wantErr checks that err is an *conn.Error with code and message and
// returns it.
func wantErr(t testing.TB, err error, code int, message string) *conn.Error {
	t.Helper()
	var e *conn.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T), want *conn.Error %d %q", err, err, code, message)
	}
	if e.Code != code || e.Message != message {
		t.Fatalf("error %d %q, want %d %q (%v)", e.Code, e.Message, code, message, err)
	}
	return e
}

// jsonEq fails the test unless got and want are the same JSON value.
func jsonEq(t testing.TB, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got invalid JSON %q: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want %q: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("got JSON %s\nwant      %s", got, want)
	}
}

// recv waits for a value from ch, failing the test after waitTimeout.
func recv[T any](t testing.TB, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(waitTimeout):
		t.Fatalf("timed out after %v waiting for %s", waitTimeout, what)
		panic("unreachable")
	}
}

// closed waits until ch is closed, failing the test after waitTimeout.
func closed(t testing.TB, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(waitTimeout):
		t.Fatalf("timed out after %v waiting for %s", waitTimeout, what)
	}
}
