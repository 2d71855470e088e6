package conn_test

// Rules 15-17: the server exiting, a failed write, Close, CloseWithError,
// Dial's context, and Shutdown.

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/testkit/proctree"
)

// exitCode is the exit status carried by err, or -1.
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// signalOf is the signal that ended the process, per err.
func signalOf(err error) syscall.Signal {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return ws.Signal()
		}
	}
	return 0
}

// wantStickyError checks that later calls, notifications and listens all fail
// with the same error as want (same code, message and cause), and that Err
// returns it.
func wantStickyError(t *testing.T, h *harness, want *conn.Error) {
	t.Helper()
	closed(t, h.c.Done(), "Done")
	check := func(what string, err error) {
		t.Helper()
		var e *conn.Error
		if !errors.As(err, &e) || e.Code != want.Code || e.Message != want.Message || e.Cause != want.Cause {
			t.Errorf("%s: %v, want the same error as before: %v", what, err, want)
		}
	}
	check("Err", h.c.Err())
	_, err := h.call("echo", nil)
	check("a later Call", err)
	check("a later Notify", h.c.Notify(context.Background(), "n", nil))
	_, err = h.c.Listen(context.Background(), map[string]bool{"toolsListChanged": true})
	check("a later Listen", err)
}

// Rule 15: lines the server wrote before exiting are dispatched first (the
// response to the request that made it exit, and notifications), then every
// pending and later call, notify and listen fails with the same -32000 "The
// stdio server exited", with the exit status as Cause.
func TestServerExit(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	held := make(chan error, 1)
	go func() { _, err := h.call("hold/never", nil); held <- err }()
	h.sentRequest("hold/never")

	var data []string
	for i := range 200 {
		data = append(data, fmt.Sprintf(`{"jsonrpc":"2.0","method":"before/exit","params":{"i":%d}}`, i))
	}
	data = append(data, `{"jsonrpc":"2.0","id":$ID,"result":{"last":"words"}}`)
	res, err := h.call("exit/3", lines(data...))
	if err != nil {
		t.Fatalf("the response written just before the exit was not delivered: %v", err)
	}
	jsonEq(t, res, `{"last":"words"}`)
	if n := len(h.notes.all()); n != 200 {
		t.Fatalf("%d of the 200 notifications written before the exit were delivered", n)
	}

	e := wantErr(t, recv(t, held, "the pending call to fail"), conn.CodeConnection, "The stdio server exited")
	if exitCode(e.Cause) != 3 {
		t.Fatalf("Cause %v, want exit status 3 (*exec.ExitError)", e.Cause)
	}
	wantStickyError(t, h, e)

	evs := h.events.waitFor(t, "the Exited event", func(es []conn.Event) bool {
		return len(es) > 0 && es[len(es)-1].Kind == conn.Exited
	})
	if ex := evs[len(evs)-1]; exitCode(ex.Err) != 3 {
		t.Fatalf("Exited event err %v, want exit status 3", ex.Err)
	}
}

// Rule 15 on a busy machine: a server that wrote far more than the pipe
// holds and exited at once still has its answer delivered, however long
// the client takes to work through what was left in the pipe (here a slow
// notification handler makes that well over a second). Ending the drain
// after a fixed 250 ms from the exit failed the call with "server exited".
func TestServerExitAfterABacklog(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{OnNotification: func(conn.Notification) { time.Sleep(2 * time.Millisecond) }})
	var data []string
	for i := range 1000 {
		data = append(data, fmt.Sprintf(`{"jsonrpc":"2.0","method":"before/exit","params":{"i":%d,"pad":"%s"}}`, i, strings.Repeat("x", 40)))
	}
	data = append(data, `{"jsonrpc":"2.0","id":$ID,"result":{"last":"words"}}`)
	res, err := h.call("exit/3", lines(data...))
	if err != nil {
		t.Fatalf("the answer left in the pipe at the exit was not delivered: %v", err)
	}
	jsonEq(t, res, `{"last":"words"}`)
	if n := len(h.notes.all()); n != 1000 {
		t.Fatalf("%d of the 1000 notifications written before the exit were delivered", n)
	}
}

// Rule 15, however long the reader is held up: the server writes its
// notifications and its answer and exits at once, while the client's
// notification handler holds the reader up on the first line until the
// server was reaped and well past that. The answer is still delivered, with
// or without a child of the server holding stdout open (then what the pipe
// held at the exit is what must be dispatched). Ending the drain a fixed
// 250 ms after the reader last made progress (or 5 s after the exit)
// dropped it: the call failed "server exited".
func TestServerExitWhileTheReaderIsHeldUp(t *testing.T) {
	t.Parallel()
	for _, role := range []string{"", proctree.Holder} {
		name := role
		if name == "" {
			name = "alone"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var (
				h    *harness
				pid  = make(chan int, 1)
				once sync.Once
			)
			// holdUp blocks the reader until the server's direct child is
			// reaped and then until the Exited event came or 2 s passed:
			// Exited is reported only once the drain ended, which must not
			// happen while lines written before the exit wait.
			holdUp := func(conn.Notification) {
				once.Do(func() {
					p := <-pid
					deadline := time.Now().Add(waitTimeout)
					for syscall.Kill(p, 0) == nil {
						if time.Now().After(deadline) {
							t.Errorf("the server (pid %d) still runs after %v", p, waitTimeout)
							return
						}
						time.Sleep(5 * time.Millisecond)
					}
					quiet := time.Now().Add(2 * time.Second)
					for time.Now().Before(quiet) {
						if es := h.events.all(); len(es) > 0 && es[len(es)-1].Kind == conn.Exited {
							return
						}
						time.Sleep(5 * time.Millisecond)
					}
				})
			}
			if role == "" {
				h = start(t, conn.Options{OnNotification: holdUp})
			} else {
				h, _ = startTreeWith(t, role, &stages{}, holdUp)
			}
			pid <- h.c.PID()
			var data []string
			for i := range 100 {
				data = append(data, fmt.Sprintf(`{"jsonrpc":"2.0","method":"before/exit","params":{"i":%d}}`, i))
			}
			data = append(data, `{"jsonrpc":"2.0","id":$ID,"result":{"last":"words"}}`)
			res, err := h.call("exit/3", lines(data...))
			if err != nil {
				t.Fatalf("the answer written before the exit was not delivered: %v", err)
			}
			jsonEq(t, res, `{"last":"words"}`)
			if n := len(h.notes.all()); n != 100 {
				t.Fatalf("%d of the 100 notifications written before the exit were delivered", n)
			}
		})
	}
}

// Rule 15: a server that exits in the middle of a request fails it with
// -32000 "The stdio server exited", also with status 0.
func TestServerExitMidRequest(t *testing.T) {
	t.Parallel()
	for _, status := range []int{0, 7} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			h := start(t, conn.Options{})
			_, err := h.call(fmt.Sprintf("exit/%d", status), nil)
			e := wantErr(t, err, conn.CodeConnection, "The stdio server exited")
			if e.Cause == nil || (status != 0 && exitCode(e.Cause) != status) {
				t.Fatalf("Cause %v, want exit status %d", e.Cause, status)
			}
			wantStickyError(t, h, e)
		})
	}
}

// Rule 15: a server that exits at once fails the first call: normally as
// exited (status 5); if the write noticed the broken pipe first, as not
// accepting input (snodo accepts either too).
func TestServerExitsAtStart(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{}, "-exit=5")
	_, err := h.call("echo", nil)
	var e *conn.Error
	if !errors.As(err, &e) || e.Code != conn.CodeConnection {
		t.Fatalf("error %v, want -32000", err)
	}
	switch e.Message {
	case "The stdio server exited":
		if exitCode(e.Cause) != 5 {
			t.Fatalf("Cause %v, want exit status 5", e.Cause)
		}
	case "The stdio server is not accepting input":
		if !errors.Is(err, syscall.EPIPE) {
			t.Fatalf("Cause %v, want EPIPE", e.Cause)
		}
	default:
		t.Fatalf("error %v", err)
	}
	wantStickyError(t, h, e)
}

// Rule 15: a failed write (the server closed its stdin; EPIPE) stops the
// connection: -32000 with the write error as Cause, for that call and every
// later one, and Err returns it.
func TestWriteFailureStops(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	h.grace = 20 * time.Millisecond // the server never sees EOF
	sub := h.listen(map[string]bool{"toolsListChanged": true})
	h.mustCall("closestdin", nil)
	_, err := h.call("echo", nil)
	e := wantErr(t, err, conn.CodeConnection, "The stdio server is not accepting input")
	if !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("Cause %v, want EPIPE", e.Cause)
	}
	wantStickyError(t, h, e)
	// The seed: open subscriptions end with the -32000 error too.
	var got *conn.Error
	if err := nextErr(t, sub); !errors.As(err, &got) || got.Message != e.Message || got.Cause != e.Cause {
		t.Fatalf("the subscription ended with %v, want %v", err, e)
	}
}

// Rule 16: Close fails pending and later calls with -32000 "The stdio
// connection is closed" and is idempotent; the server sees EOF and exits.
func TestClose(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	held := make(chan error, 1)
	go func() { _, err := h.call("hold/never", nil); held <- err }()
	h.sentRequest("hold/never")
	if err := h.c.Err(); err != nil {
		t.Fatalf("Err before Close: %v", err)
	}
	if err := h.c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	e := wantErr(t, recv(t, held, "the pending call to fail"), conn.CodeConnection, "The stdio connection is closed")
	if e.Cause != nil {
		t.Fatalf("Cause %v, want none", e.Cause)
	}
	wantStickyError(t, h, e)
	if err := h.c.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := h.c.CloseWithError(errors.New("late reason")); err != nil {
		t.Fatalf("CloseWithError after Close: %v", err)
	}
	wantStickyError(t, h, e)
	h.events.waitFor(t, "the server to exit at EOF", func(es []conn.Event) bool {
		return len(es) > 0 && es[len(es)-1].Kind == conn.Exited && exitCode(es[len(es)-1].Err) <= 0
	})
}

// Rule 16: CloseWithError(r) is Close with r as the Cause.
func TestCloseWithError(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	held := make(chan error, 1)
	go func() { _, err := h.call("hold/never", nil); held <- err }()
	h.sentRequest("hold/never")
	reason := errors.New("the user quit")
	h.c.CloseWithError(reason)
	err := recv(t, held, "the pending call to fail")
	e := wantErr(t, err, conn.CodeConnection, "The stdio connection is closed")
	if !errors.Is(err, reason) {
		t.Fatalf("Cause %v, want the reason", e.Cause)
	}
	wantStickyError(t, h, e)
}

// Rule 16: Close closes stdin and nothing else: a server that ignores EOF is
// still running long after it saw EOF.
func TestCloseNeverSignals(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{}, "-ignore-eof")
	h.grace = 20 * time.Millisecond
	h.ping()
	h.c.Close()
	h.stderr.waitFor(t, "eof\n")
	// The server writes a heartbeat every 10 ms after EOF: 10 of them mean
	// it outlived the Close by 100 ms at least.
	h.stderr.waitFor(t, "alive 10\n")
	if err := syscall.Kill(h.c.PID(), 0); err != nil {
		t.Fatalf("the server is gone after Close: %v", err)
	}
	for _, e := range h.eventsOf(conn.Exited) {
		t.Fatalf("the server exited after Close: %v", e.Err)
	}
}

// Rule 16: Dial's context done is Close.
func TestDialContextCancelCloses(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	c, err := conn.Dial(ctx, fakeExe, nil, conn.Options{Stderr: &textWatch{}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Shutdown(waitTimeout)
	held := make(chan error, 1)
	go func() {
		_, err := c.Call(context.Background(), "hold/never", nil, conn.WithTimeout(waitTimeout))
		held <- err
	}()
	if _, err := c.Call(context.Background(), "echo", nil, conn.WithTimeout(waitTimeout)); err != nil {
		t.Fatal(err)
	}
	cancel()
	wantErr(t, recv(t, held, "the pending call to fail"), conn.CodeConnection, "The stdio connection is closed")
	closed(t, c.Done(), "Done")
	wantErr(t, c.Err(), conn.CodeConnection, "The stdio connection is closed")
}

// Rule 16: Dial with a context that is already done starts nothing.
func TestDialContextAlreadyDone(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c, err := conn.Dial(ctx, fakeExe, nil, conn.Options{})
	if err == nil {
		c.Shutdown(time.Second)
		t.Fatal("Dial with a done context succeeded")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want one that is context.Canceled", err)
	}
}

// Rule 17: Shutdown closes stdin, waits up to grace, sends SIGTERM, waits up
// to grace, sends SIGKILL; it returns how the server ended.
func TestShutdown(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		args   []string
		grace  time.Duration
		signal syscall.Signal
	}{
		{"exits at EOF", nil, waitTimeout, 0},
		{"ignores EOF", []string{"-ignore-eof"}, 50 * time.Millisecond, syscall.SIGTERM},
		{"ignores EOF and SIGTERM", []string{"-ignore-eof", "-ignore-sigterm"}, 50 * time.Millisecond, syscall.SIGKILL},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := start(t, conn.Options{}, tc.args...)
			h.ping() // the server is up, its signal handling in place
			begin := time.Now()
			err := h.c.Shutdown(tc.grace)
			elapsed := time.Since(begin)
			if tc.signal == 0 && err != nil {
				t.Fatalf("Shutdown: %v, want nil for a clean exit at EOF", err)
			}
			if got := signalOf(err); got != tc.signal {
				t.Fatalf("Shutdown: %v, want an exit by signal %d", err, tc.signal)
			}
			owed := map[syscall.Signal]time.Duration{syscall.SIGTERM: tc.grace, syscall.SIGKILL: 2 * tc.grace}[tc.signal]
			if elapsed < owed {
				t.Fatalf("Shutdown took %v, less than the grace it owed the server (%v)", elapsed, owed)
			}
			if err := syscall.Kill(h.c.PID(), 0); err == nil {
				t.Fatal("the server is still running after Shutdown")
			}
			evs := h.events.waitFor(t, "the Exited event", func(es []conn.Event) bool {
				return len(es) > 0 && es[len(es)-1].Kind == conn.Exited
			})
			if got := signalOf(evs[len(evs)-1].Err); got != tc.signal {
				t.Fatalf("Exited event err %v, want an exit by signal %d", evs[len(evs)-1].Err, tc.signal)
			}
		})
	}
}
