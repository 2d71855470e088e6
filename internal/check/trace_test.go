package check

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/mcptui/mcptui/conn"
)

// traceRecorder is an Options.Trace that keeps, for each connection it
// was asked for, the lines the connection sent and whether it exited;
// each connection's RequestMeta hands out a traceparent naming it.
type traceRecorder struct {
	mu    sync.Mutex
	conns []*tracedConn
}

type tracedConn struct {
	n      int
	mu     sync.Mutex
	sent   []string
	exited bool
	metas  int
}

func (c *tracedConn) traceparent() string {
	return fmt.Sprintf("00-0af7651916cd43dd8448eb211c80319c-%016x-01", c.n+1)
}

func (tr *traceRecorder) trace() Tracing {
	tr.mu.Lock()
	c := &tracedConn{n: len(tr.conns)}
	tr.conns = append(tr.conns, c)
	tr.mu.Unlock()
	return Tracing{
		Observe: func(ev conn.Event) {
			c.mu.Lock()
			defer c.mu.Unlock()
			switch ev.Kind {
			case conn.Sent:
				c.sent = append(c.sent, string(ev.Line))
			case conn.Exited:
				c.exited = true
			}
		},
		Stderr: func(w io.Writer) io.Writer { return w },
		RequestMeta: func(string) json.RawMessage {
			c.mu.Lock()
			c.metas++
			c.mu.Unlock()
			b, _ := json.Marshal(map[string]string{"traceparent": c.traceparent()})
			return b
		},
	}
}

// sentWith is the lines c sent that name method.
func (c *tracedConn) sentWith(method string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, l := range c.sent {
		if strings.Contains(l, `"method":"`+method+`"`) {
			out = append(out, l)
		}
	}
	return out
}

// TestTraceEveryConnectionAndRestart: with Options.Trace set, each
// connection the check opens is traced on its own and its requests carry
// their span's W3C traceparent in params._meta; the main connection
// started again after a probe killed its server (alive) is traced too,
// the requests of the rules after the restart under the new connection
// (they went untraced, the new connection's lines unseen by any tracer).
func TestTraceEveryConnectionAndRestart(t *testing.T) {
	t.Parallel()
	tr := &traceRecorder{}
	e := hostileCheckWith(t, "crash-on-cursor", func(o *Options) { o.Trace = tr.trace })
	wantStatus(t, e, "prompts.get", Passed, "")
	if len(e.Notes) != 1 || !strings.Contains(e.Notes[0], "started again") {
		t.Fatalf("notes %q, want the restart said", e.Notes)
	}
	tr.mu.Lock()
	conns := append([]*tracedConn(nil), tr.conns...)
	tr.mu.Unlock()
	// The connection the crash ended, and the one started after it.
	crashed, restarted := -1, -1
	for i, c := range conns {
		c.mu.Lock()
		exited, metas := c.exited, c.metas
		c.mu.Unlock()
		cursor := false
		for _, l := range c.sentWith("prompts/list") {
			cursor = cursor || strings.Contains(l, `"cursor"`)
		}
		if crashed < 0 && exited && cursor && metas > 0 {
			crashed = i
		} else if crashed >= 0 && metas > 0 && len(c.sentWith("prompts/get")) > 0 {
			restarted = i
			break
		}
	}
	if crashed < 0 || restarted < 0 {
		t.Fatalf("of %d traced connections, the crashed main one is %d and the restarted one %d", len(conns), crashed, restarted)
	}
	for _, i := range []int{crashed, restarted} {
		c := conns[i]
		for _, method := range []string{"prompts/list", "prompts/get"} {
			for _, l := range c.sentWith(method) {
				if !strings.Contains(l, `"traceparent":"`+c.traceparent()+`"`) {
					t.Errorf("connection %d sent %s without its traceparent %s: %s", i, method, c.traceparent(), l)
				}
			}
		}
	}
}
