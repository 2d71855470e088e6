package conn_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// gaveUpOf is the Err of the Sent notifications/cancelled for the request
// of method, as a *conn.GaveUp (nil when it is not one).
func gaveUpOf(t *testing.T, h *harness, method string) *conn.GaveUp {
	t.Helper()
	line := cancelLine(h.sentRequest(method).ID, "")
	prefix := line[:strings.Index(line, `"reason"`)]
	var found *conn.Event
	h.events.waitFor(t, "the cancellation sent", func(es []conn.Event) bool {
		for i := range es {
			if es[i].Kind == conn.Sent && strings.HasPrefix(string(es[i].Line), prefix) {
				found = &es[i]
				return true
			}
		}
		return false
	})
	var g *conn.GaveUp
	if !errors.As(found.Err, &g) {
		t.Fatalf("the cancellation's Sent event has Err %v, want a *conn.GaveUp", found.Err)
	}
	return g
}

// The notifications/cancelled sent for a call the timer ended carries,
// as its Sent event's Err, which timer fired, its duration and when.
func TestCancellationSaysTheTimeoutFired(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	_, err := h.call("park", nil, conn.WithTimeout(40*time.Millisecond))
	wantErr(t, err, conn.CodeTimeout, "Request timed out")
	g := gaveUpOf(t, h, "park")
	if g.Why != "timeout" || g.Timeout != 40*time.Millisecond || g.After < 40*time.Millisecond || g.ResetOnProgress || g.Cause != nil {
		t.Errorf("gave up: %+v", g)
	}
	if !strings.Contains(g.Error(), "the per-request timeout (40ms) fired after") {
		t.Errorf("its words: %s", g.Error())
	}
}

// The cap on the restarts by progress is told apart from the timeout.
func TestCancellationSaysTheMaxTotalTimeoutFired(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	const method = "progressfor/60000"
	_, err := h.call(method, nil,
		conn.WithTimeout(time.Second), conn.WithResetTimeoutOnProgress(), conn.WithMaxTotalTimeout(700*time.Millisecond),
		conn.WithProgress(func(p conn.Progress) error { go h.step(p); return nil }))
	wantErr(t, err, conn.CodeTimeout, "Maximum total timeout exceeded")
	g := gaveUpOf(t, h, method)
	if g.Why != "max-total-timeout" || g.MaxTotal != 700*time.Millisecond || g.Timeout != time.Second || !g.ResetOnProgress || g.Progress < 1 || g.After < 700*time.Millisecond {
		t.Errorf("gave up: %+v", g)
	}
}

// A context cancelled with a cause: the cancellation carries the cause.
func TestCancellationCarriesTheContextCause(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("the person pressed the cancel key")
	done := make(chan error, 1)
	go func() {
		_, err := h.c.Call(ctx, "park", nil)
		done <- err
	}()
	h.events.waitFor(t, "the request sent", func(es []conn.Event) bool {
		for _, e := range es {
			if e.Kind == conn.Sent && strings.Contains(string(e.Line), `"park"`) {
				return true
			}
		}
		return false
	})
	cancel(cause)
	if err := <-done; !errors.Is(err, cause) {
		t.Fatalf("Call: %v", err)
	}
	g := gaveUpOf(t, h, "park")
	if g.Why != "cancelled" || !errors.Is(g, cause) {
		t.Errorf("gave up: %+v", g)
	}
}

// A caller's own deadline (mcptui check's call timeout) is told apart
// from a cancellation, and its cause named.
func TestCancellationSaysTheCallersDeadlinePassed(t *testing.T) {
	t.Parallel()
	h := start(t, conn.Options{})
	cause := fmt.Errorf("the check's call timeout (50ms): %w", context.DeadlineExceeded)
	ctx, cancel := context.WithTimeoutCause(context.Background(), 50*time.Millisecond, cause)
	defer cancel()
	if _, err := h.c.Call(ctx, "park", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Call: %v", err)
	}
	g := gaveUpOf(t, h, "park")
	// After counts from the request's start, which came after the
	// deadline's: it may be a little under 50ms (seen at 49.9ms).
	if g.Why != "deadline" || !errors.Is(g, cause) || g.After <= 0 {
		t.Errorf("gave up: %+v", g)
	}
}
