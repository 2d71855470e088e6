package conn_test

// Rules 11-12: progress, the progress function's failures, and timer resets.

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// goroutineID is the id of the calling goroutine, from its stack header.
func goroutineID() string {
	b := make([]byte, 64)
	b = b[:runtime.Stack(b, false)]
	return strings.Fields(string(b))[1]
}

// Rule 11: WithProgress sets params._meta.progressToken to the request id
// (keeping the other params), and each progress reaches fn in order, in the
// calling goroutine, all before Call returns.
func TestProgressInOrderBeforeResult(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	caller := goroutineID()
	var got []conn.Progress
	res := h.mustCall("progress/5", map[string]int{"x": 1}, conn.WithProgress(func(p conn.Progress) error {
		if g := goroutineID(); g != caller {
			t.Errorf("progress function ran in goroutine %s, not the caller's %s", g, caller)
		}
		got = append(got, p)
		return nil
	}))
	req := h.sentRequest("progress/5")
	id := string(req.ID)
	jsonEq(t, req.Params, fmt.Sprintf(`{"x":1,"_meta":{"progressToken":%s}}`, id))
	jsonEq(t, res, fmt.Sprintf(`{"x":1,"_meta":{"progressToken":%s}}`, id))
	if len(got) != 5 {
		t.Fatalf("when Call returned the progress function had run %d times, want 5", len(got))
	}
	for i, p := range got {
		n := i + 1
		params := fmt.Sprintf(`{"progressToken":%s,"progress":%d,"total":5,"message":"step %d"}`, id, n, n)
		if p.Progress != float64(n) || p.Total != 5 || p.Message != fmt.Sprintf("step %d", n) || string(p.Params) != params {
			t.Errorf("progress #%d: %+v (params %s), want progress %d total 5 params %s", i, p, p.Params, n, params)
		}
	}
}

// Rule 11: Total is 0 when the notification has none; fractional progress is
// kept.
func TestProgressWithoutTotal(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	var got []conn.Progress
	h.mustCall("write", lines(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":$ID,"progress":0.25}}`),
		conn.WithProgress(func(p conn.Progress) error { got = append(got, p); return nil }))
	if len(got) != 1 || got[0].Progress != 0.25 || got[0].Total != 0 || got[0].Message != "" {
		t.Fatalf("progress %+v", got)
	}
}

// Rule 11 (and snodo A.19): once the call is over its token is forgotten; a
// later progress with it goes to OnNotification, not to fn.
func TestProgressAfterResultNotDelivered(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	calls := 0
	h.mustCall("progress/1", nil, conn.WithProgress(func(conn.Progress) error { calls++; return nil }))
	id := h.sentRequest("progress/1").ID
	h.mustCall("write", lines(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%s,"progress":9}}`, id)))
	h.notes.waitFor(t, "the stale progress at OnNotification", func(ns []conn.Notification) bool {
		return len(ns) == 1 && ns[0].Method == "notifications/progress"
	})
	if calls != 1 {
		t.Fatalf("progress function ran %d times, want 1", calls)
	}
}

// Rule 11: fn returning an error cancels the request on the server ("The
// client stopped waiting") and Call returns that error.
func TestProgressFuncError(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{}, "-report")
	boom := errors.New("boom")
	_, err := h.call("progresspark/1", nil, conn.WithProgress(func(conn.Progress) error { return boom }))
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want the progress function's", err)
	}
	h.waitGot(cancelLine(h.sentRequest("progresspark/1").ID, "The client stopped waiting"))
	h.ping()
}

// Rule 11: fn panicking cancels the request on the server and the panic
// goes on up the caller's stack, with its value.
func TestProgressFuncPanic(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{}, "-report")
	type token struct{ s string }
	value := &token{"progress panic"}
	func() {
		defer func() {
			if r := recover(); r != value {
				t.Fatalf("recovered %v, want the progress function's panic value", r)
			}
		}()
		h.call("progresspark/1", nil, conn.WithProgress(func(conn.Progress) error { panic(value) }))
		t.Fatal("Call returned instead of panicking")
	}()
	h.waitGot(cancelLine(h.sentRequest("progresspark/1").ID, "The client stopped waiting"))
	h.ping()
}

// Rule 12: with WithResetTimeoutOnProgress each progress restarts the timer,
// so a call answered well after its timeout, with progress in between,
// succeeds; without it the same call times out. (The progress interval is a
// small fraction of the timeout, so that a loaded machine cannot make a gap
// look like silence.)
// step lets progressfor send the progress after p (errors are the test's
// end racing the notification, and do not matter).
func (h *harness) step(p conn.Progress) {
	_ = h.c.Notify(context.Background(), "fake/release", map[string]string{"key": fmt.Sprintf("step%v", p.Progress)})
}

func TestResetTimeoutOnProgress(t *testing.T) {
	t.Parallel()
	const timeout = time.Second
	// Progress for 1.5 s, each notification sent once the client has seen
	// the one before: the gaps are round trips, not timer ticks, so a busy
	// machine cannot stretch one past the timeout.
	const method = "progressfor/1500"
	t.Run("reset", func(t *testing.T) {
		t.Parallel()
		h := start(t, conn.Options{})
		var n atomic.Int64
		begin := time.Now()
		h.mustCall(method, nil, conn.WithTimeout(timeout), conn.WithResetTimeoutOnProgress(),
			conn.WithProgress(func(p conn.Progress) error {
				n.Add(1)
				go h.step(p)
				return nil
			}))
		if elapsed := time.Since(begin); elapsed < timeout || n.Load() < 2 {
			t.Fatalf("answered after %v with %d progress; want after the %v timeout, with 2 or more", elapsed, n.Load(), timeout)
		}
	})
	t.Run("no reset", func(t *testing.T) {
		t.Parallel()
		h := start(t, conn.Options{})
		_, err := h.call(method, nil, conn.WithTimeout(timeout), conn.WithProgress(func(p conn.Progress) error {
			go h.step(p)
			return nil
		}))
		e := wantErr(t, err, conn.CodeTimeout, "Request timed out")
		jsonEq(t, e.Data, `{"timeoutMs":1000}`)
	})
}

// Rule 12: resets never push the deadline past start + WithMaxTotalTimeout;
// expiry at that cap is -32001 "Maximum total timeout exceeded" with data
// {"maxTotalTimeoutMs": N}, and the server is sent a cancellation. The
// server sends progress for a minute, each once the client saw the one
// before (round trips, far inside the 1 s timeout even on a busy machine),
// so only the 1.5 s cap can end the call.
func TestMaxTotalTimeout(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{}, "-report")
	const maxTotal = 1500 * time.Millisecond
	const method = "progressfor/60000"
	begin := time.Now()
	var progress atomic.Int64
	_, err := h.call(method, nil,
		conn.WithTimeout(time.Second), conn.WithResetTimeoutOnProgress(), conn.WithMaxTotalTimeout(maxTotal),
		conn.WithProgress(func(p conn.Progress) error { progress.Add(1); go h.step(p); return nil }))
	elapsed := time.Since(begin)
	e := wantErr(t, err, conn.CodeTimeout, "Maximum total timeout exceeded")
	jsonEq(t, e.Data, `{"maxTotalTimeoutMs":1500}`)
	if elapsed < maxTotal || progress.Load() < 2 {
		t.Fatalf("expired after %v with %d progress; want after %v", elapsed, progress.Load(), maxTotal)
	}
	h.waitGot(cancelLine(h.sentRequest(method).ID, "Request timed out"))
}

// Rule 12: WithResetTimeoutOnProgress without WithProgress is an error, and
// nothing is sent.
func TestResetWithoutProgressIsError(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	if _, err := h.call("echo", nil, conn.WithResetTimeoutOnProgress()); err == nil {
		t.Fatal("no error")
	}
	if s := h.eventsOf(conn.Sent); len(s) != 0 {
		t.Fatalf("sent %s", dump(s))
	}
	h.ping()
}
