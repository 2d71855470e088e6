//go:build unix

package conn_test

import (
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/testkit/proctree"
)

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
