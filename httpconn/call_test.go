package httpconn_test

// The call rules httpconn shares with conn (internal/rpccall): progress,
// timer resets, the maximum total timeout, a failing progress function,
// WithoutCancellation, extensions. conn's own tests (conn/progress_test.go,
// conn/control_test.go) hold the same rules over stdio.

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/jsonscan"
)

// progressServer answers each request with an SSE stream of progress for
// its token, a notification each time the test calls next (so that the gaps
// are round trips, not timer ticks a busy machine could stretch), until
// duration has passed (forever when 0), then the result. Notifications
// (a cancellation, say) are recorded.
type progressServer struct {
	url      string
	next     chan struct{}
	ended    chan struct{} // closed when a stream ends without its result
	mu       sync.Mutex
	notified []string
}

func startProgress(t *testing.T, duration time.Duration) *progressServer {
	t.Helper()
	ps := &progressServer{next: make(chan struct{}, 1), ended: make(chan struct{})}
	var once sync.Once
	ps.url = scripted(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		if isNotification(body) {
			ps.mu.Lock()
			ps.notified = append(ps.notified, string(body))
			ps.mu.Unlock()
			w.WriteHeader(http.StatusAccepted)
			return
		}
		token := jsonscan.Member(jsonscan.Member(jsonscan.Member(body, "params"), "_meta"), "progressToken")
		sse(w)
		begin := time.Now()
		for n := 1; duration == 0 || time.Since(begin) < duration; n++ {
			if token != nil {
				fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":%s,\"progress\":%d}}\n\n", token, n)
				w.(http.Flusher).Flush()
			}
			select {
			case <-ps.next:
			case <-r.Context().Done():
				once.Do(func() { close(ps.ended) })
				return
			}
		}
		fmt.Fprintf(w, "data: %s\n\n", response(body, `{"done":true}`))
	})
	return ps
}

// step lets the server send its next progress.
func (ps *progressServer) step(conn.Progress) error {
	select {
	case ps.next <- struct{}{}:
	default:
	}
	return nil
}

func (ps *progressServer) cancellations() []string {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	var out []string
	for _, n := range ps.notified {
		if strings.Contains(n, `"notifications/cancelled"`) {
			out = append(out, n)
		}
	}
	return out
}

func wantTimeout(t *testing.T, err error, message, data string) {
	t.Helper()
	var e *conn.Error
	if !errors.As(err, &e) || e.Code != conn.CodeTimeout || e.Message != message || string(e.Data) != data {
		t.Fatalf("got %v, want -32001 %q with data %s", err, message, data)
	}
}

// WithResetTimeoutOnProgress: each progress restarts the timer, so a call
// answered well after its timeout, with progress in between, succeeds;
// without it the same call times out.
func TestHTTPResetTimeoutOnProgress(t *testing.T) {
	const timeout = time.Second
	t.Run("reset", func(t *testing.T) {
		t.Parallel()
		ps := startProgress(t, 1500*time.Millisecond)
		c, _ := dial(t, ps.url, httpconn.Options{})
		var n atomic.Int64
		begin := time.Now()
		res, err := c.Call(t.Context(), "tools/call", nil, conn.WithTimeout(timeout), conn.WithResetTimeoutOnProgress(),
			conn.WithProgress(func(p conn.Progress) error { n.Add(1); return ps.step(p) }))
		if err != nil || string(res) != `{"done":true}` {
			t.Fatalf("got %s, %v; want the result", res, err)
		}
		if elapsed := time.Since(begin); elapsed < timeout || n.Load() < 2 {
			t.Fatalf("answered after %v with %d progress; want after the %v timeout, with 2 or more", elapsed, n.Load(), timeout)
		}
	})
	t.Run("no reset", func(t *testing.T) {
		t.Parallel()
		ps := startProgress(t, 1500*time.Millisecond)
		c, _ := dial(t, ps.url, httpconn.Options{})
		_, err := c.Call(t.Context(), "tools/call", nil, conn.WithTimeout(timeout), conn.WithProgress(ps.step))
		wantTimeout(t, err, "Request timed out", `{"timeoutMs":1000}`)
	})
}

// Resets never push the deadline past start + WithMaxTotalTimeout; expiry
// there is -32001 "Maximum total timeout exceeded", and the server is sent
// a cancellation.
func TestHTTPMaxTotalTimeout(t *testing.T) {
	t.Parallel()
	ps := startProgress(t, 0)
	c, _ := dial(t, ps.url, httpconn.Options{})
	const maxTotal = 1500 * time.Millisecond
	begin := time.Now()
	_, err := c.Call(t.Context(), "tools/call", nil, conn.WithTimeout(time.Second), conn.WithResetTimeoutOnProgress(),
		conn.WithMaxTotalTimeout(maxTotal), conn.WithProgress(ps.step))
	wantTimeout(t, err, "Maximum total timeout exceeded", `{"maxTotalTimeoutMs":1500}`)
	if elapsed := time.Since(begin); elapsed < maxTotal {
		t.Fatalf("expired after %v, before the %v cap", elapsed, maxTotal)
	}
	waitFor(t, "the cancellation", func() bool {
		cs := ps.cancellations()
		return len(cs) == 1 && strings.Contains(cs[0], `"reason":"Request timed out"`)
	})
}

// A progress function that fails or panics cancels the request ("The
// client stopped waiting"); Call returns the error, or the panic goes on up
// the caller's stack.
func TestHTTPProgressFuncFails(t *testing.T) {
	t.Run("error", func(t *testing.T) {
		t.Parallel()
		ps := startProgress(t, 0)
		c, _ := dial(t, ps.url, httpconn.Options{})
		boom := errors.New("boom")
		_, err := c.Call(t.Context(), "tools/call", nil, conn.WithProgress(func(conn.Progress) error { return boom }))
		if !errors.Is(err, boom) {
			t.Fatalf("error %v, want the progress function's", err)
		}
		waitFor(t, "the cancellation", func() bool {
			cs := ps.cancellations()
			return len(cs) == 1 && strings.Contains(cs[0], `"reason":"The client stopped waiting"`)
		})
	})
	t.Run("panic", func(t *testing.T) {
		t.Parallel()
		ps := startProgress(t, 0)
		c, _ := dial(t, ps.url, httpconn.Options{})
		value := &struct{ s string }{"progress panic"}
		func() {
			defer func() {
				if r := recover(); r != value {
					t.Fatalf("recovered %v, want the progress function's panic value", r)
				}
			}()
			_, _ = c.Call(t.Context(), "tools/call", nil, conn.WithProgress(func(conn.Progress) error { panic(value) }))
			t.Fatal("Call returned instead of panicking")
		}()
		waitFor(t, "the cancellation", func() bool { return len(ps.cancellations()) == 1 })
	})
}

// WithoutCancellation (initialize's): a timeout gives up on the request and
// ends its stream without notifications/cancelled, which MCP forbids for
// initialize.
func TestHTTPWithoutCancellation(t *testing.T) {
	t.Parallel()
	ps := startProgress(t, 0)
	c, _ := dial(t, ps.url, httpconn.Options{})
	_, err := c.Call(t.Context(), "initialize", nil, conn.WithTimeout(200*time.Millisecond), conn.WithoutCancellation())
	wantTimeout(t, err, "Request timed out", `{"timeoutMs":200}`)
	select {
	case <-ps.ended: // closed after a cancellation would have been sent
	case <-time.After(30 * time.Second):
		t.Fatal("the request's stream was never closed")
	}
	if cs := ps.cancellations(); len(cs) != 0 {
		t.Fatalf("sent %v; initialize must never be cancelled", cs)
	}
}

// A CallControl shows the call's id and deadline, and Extend moves the
// deadline (progress keeps coming, so only the timer can end the call).
func TestHTTPCallControlExtends(t *testing.T) {
	t.Parallel()
	ps := startProgress(t, 0)
	c, _ := dial(t, ps.url, httpconn.Options{})
	ctl := &conn.CallControl{}
	const timeout = 500 * time.Millisecond
	const extra = 700 * time.Millisecond
	done := make(chan error, 1)
	begin := time.Now()
	go func() {
		_, err := c.Call(t.Context(), "tools/call", nil, conn.WithTimeout(timeout), conn.WithControl(ctl), conn.WithProgress(func(conn.Progress) error { return nil }))
		done <- err
	}()
	<-ctl.Started()
	first, ok := ctl.Deadline()
	if !ok || ctl.ID() == 0 {
		t.Fatalf("control: id %d, deadline %v %v", ctl.ID(), first, ok)
	}
	ctl.Extend(extra)
	waitFor(t, "the deadline moved", func() bool {
		d, ok := ctl.Deadline()
		return ok && !d.Before(first.Add(extra)) || !ok
	})
	err := <-done
	wantTimeout(t, err, "Request timed out", `{"timeoutMs":500}`)
	if elapsed := time.Since(begin); elapsed < timeout+extra {
		t.Fatalf("timed out after %v, before the extended %v", elapsed, timeout+extra)
	}
}
