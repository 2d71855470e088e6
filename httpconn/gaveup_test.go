package httpconn_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
)

// Over HTTP as over stdio, the notifications/cancelled POSTed for a call
// the cap on its progress restarts ended carries, as its Sent event's Err,
// which timer fired and its durations.
func TestHTTPCancellationSaysWhichTimerFired(t *testing.T) {
	t.Parallel()
	ps := startProgress(t, 0)
	c, x := dial(t, ps.url, httpconn.Options{})
	_, err := c.Call(t.Context(), "tools/call", nil, conn.WithTimeout(time.Second), conn.WithResetTimeoutOnProgress(),
		conn.WithMaxTotalTimeout(700*time.Millisecond), conn.WithProgress(ps.step))
	wantTimeout(t, err, "Maximum total timeout exceeded", `{"maxTotalTimeoutMs":700}`)
	var g *conn.GaveUp
	waitFor(t, "the cancellation's Sent event", func() bool {
		for _, e := range x.events() {
			if e.Kind == conn.Sent && strings.Contains(string(e.Line), "notifications/cancelled") {
				if !errors.As(e.Err, &g) {
					t.Fatalf("the cancellation's Err is %v, want a *conn.GaveUp", e.Err)
				}
				return true
			}
		}
		return false
	})
	if g.Why != "max-total-timeout" || g.MaxTotal != 700*time.Millisecond || g.Timeout != time.Second || g.Progress < 1 {
		t.Errorf("gave up: %+v", g)
	}
}
