package demo

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// waitLimit bounds every wait in these tests; nothing sleeps to synchronise.
const waitLimit = 20 * time.Second

// events collects values from other goroutines (client handlers, stderr)
// and lets a test wait until they satisfy a condition.
type events[T any] struct {
	mu      sync.Mutex
	items   []T
	changed chan struct{} // closed and replaced on every add
}

func newEvents[T any]() *events[T] { return &events[T]{changed: make(chan struct{})} }

func (e *events[T]) add(v T) {
	e.mu.Lock()
	e.items = append(e.items, v)
	close(e.changed)
	e.changed = make(chan struct{})
	e.mu.Unlock()
}

func (e *events[T]) snapshot() []T {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]T(nil), e.items...)
}

// waitFor blocks until ok holds for the collected values and returns them;
// it fails the test after waitLimit.
func (e *events[T]) waitFor(t testing.TB, what string, ok func([]T) bool) []T {
	t.Helper()
	deadline := time.NewTimer(waitLimit)
	defer deadline.Stop()
	for {
		e.mu.Lock()
		items, ch := append([]T(nil), e.items...), e.changed
		e.mu.Unlock()
		if ok(items) {
			return items
		}
		select {
		case <-ch:
		case <-deadline.C:
			t.Fatalf("timed out waiting for %s; have %d item(s)", what, len(items))
		}
	}
}

// stderrLog collects the child's stderr line by line.
type stderrLog struct {
	*events[string]
	mu      sync.Mutex
	partial []byte
}

func newStderrLog() *stderrLog { return &stderrLog{events: newEvents[string]()} }

func (s *stderrLog) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.partial = append(s.partial, p...)
	for {
		i := bytes.IndexByte(s.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		s.add(string(s.partial[:i]))
		s.partial = s.partial[i+1:]
	}
}

func (s *stderrLog) all() string { return strings.Join(s.snapshot(), "\n") }

// waitLine waits for a stderr line containing sub.
func (s *stderrLog) waitLine(t testing.TB, sub string) {
	t.Helper()
	s.waitFor(t, "stderr line "+quote(sub), func(lines []string) bool {
		for _, l := range lines {
			if strings.Contains(l, sub) {
				return true
			}
		}
		return false
	})
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// childCommand returns the command that runs this test binary as the demo
// server, with its stderr collected. When the test ends it checks that the
// child's race detector stayed quiet.
func childCommand(t *testing.T) (*exec.Cmd, *stderrLog) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", clockEnv+"=40ms")
	stderr := newStderrLog()
	cmd.Stderr = stderr
	t.Cleanup(func() {
		if out := stderr.all(); strings.Contains(out, "DATA RACE") || strings.Contains(out, "panic:") {
			t.Errorf("the demo server reported a problem on stderr:\n%s", out)
		}
	})
	return cmd, stderr
}

// rawConn drives a demo child with hand-written JSON-RPC lines, as a
// 2026-07-28 client over stdio does.
type rawConn struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *stderrLog
	msgs   *events[map[string]any] // every line the server wrote, decoded
	lines  *events[string]         // the same lines, raw
	done   chan struct{}           // closed when stdout reaches EOF
	nextID int
}

func startRaw(t *testing.T) *rawConn {
	t.Helper()
	cmd, stderr := childCommand(t)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &rawConn{t: t, cmd: cmd, stdin: stdin, stderr: stderr,
		msgs: newEvents[map[string]any](), lines: newEvents[string](), done: make(chan struct{}), nextID: 100}
	go func() {
		defer close(c.done)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 128<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m = map[string]any{"unparsable": sc.Text()}
			}
			c.lines.add(sc.Text())
			c.msgs.add(m)
		}
	}()
	t.Cleanup(func() { c.close() })
	return c
}

// close ends the child (stdin EOF) and waits for it.
func (c *rawConn) close() error {
	c.stdin.Close()
	select {
	case <-c.done:
	case <-time.After(waitLimit):
		c.cmd.Process.Kill()
		c.t.Errorf("the demo server did not exit after stdin closed")
	}
	return c.cmd.Wait()
}

// meta is the 2026-07-28 per-request _meta, with every client capability.
func meta(extra map[string]any) map[string]any {
	m := map[string]any{
		"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{
			"elicitation": map[string]any{"form": map[string]any{}, "url": map[string]any{}},
			"sampling":    map[string]any{"tools": map[string]any{}},
			"roots":       map[string]any{},
		},
		"io.modelcontextprotocol/clientInfo": map[string]any{"name": "demo-test", "version": "0"},
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// send writes one message.
func (c *rawConn) send(msg map[string]any) {
	c.t.Helper()
	msg["jsonrpc"] = "2.0"
	b, err := json.Marshal(msg)
	if err != nil {
		c.t.Fatal(err)
	}
	c.sendLine(string(b))
}

func (c *rawConn) sendLine(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.stdin, line+"\n"); err != nil {
		c.t.Fatalf("writing to the demo server: %v", err)
	}
}

// request sends a request and returns its id.
func (c *rawConn) request(method string, params map[string]any) float64 {
	c.t.Helper()
	c.nextID++
	id := c.nextID
	c.send(map[string]any{"id": id, "method": method, "params": params})
	return float64(id)
}

// response waits for the response to id.
func (c *rawConn) response(id float64) map[string]any {
	c.t.Helper()
	var found map[string]any
	c.msgs.waitFor(c.t, fmt.Sprintf("response %v", id), func(ms []map[string]any) bool {
		for _, m := range ms {
			if m["id"] == id && m["method"] == nil {
				found = m
				return true
			}
		}
		return false
	})
	return found
}

// call sends a request and returns its result, failing on an error.
func (c *rawConn) call(method string, params map[string]any) map[string]any {
	c.t.Helper()
	resp := c.response(c.request(method, params))
	res, ok := resp["result"].(map[string]any)
	if !ok {
		c.t.Fatalf("%s: want a result, got %v", method, resp)
	}
	return res
}

// callErr sends a request and returns its error object, failing on a result.
func (c *rawConn) callErr(method string, params map[string]any) map[string]any {
	c.t.Helper()
	resp := c.response(c.request(method, params))
	e, ok := resp["error"].(map[string]any)
	if !ok {
		c.t.Fatalf("%s: want an error, got %v", method, resp)
	}
	return e
}

// waitNotifications waits until n notifications of method that satisfy
// match have arrived, and returns them.
func (c *rawConn) waitNotifications(method string, n int, match func(params map[string]any) bool) []map[string]any {
	c.t.Helper()
	var got []map[string]any
	c.msgs.waitFor(c.t, fmt.Sprintf("%d %s", n, method), func(ms []map[string]any) bool {
		got = got[:0]
		for _, m := range ms {
			p, _ := m["params"].(map[string]any)
			if m["method"] == method && m["id"] == nil && (match == nil || match(p)) {
				got = append(got, p)
			}
		}
		return len(got) >= n
	})
	return got
}

// textOf joins the text contents of a tools/call result (decoded JSON).
func textOf(res map[string]any) string {
	var parts []string
	content, _ := res["content"].([]any)
	for _, c := range content {
		if m, ok := c.(map[string]any); ok && m["type"] == "text" {
			parts = append(parts, m["text"].(string))
		}
	}
	return strings.Join(parts, "\n")
}

// path digs into decoded JSON: path(m, "a", "b") is m["a"]["b"].
func path(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// jsonString encodes v, for substring checks.
func jsonString(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// equalAny reports whether v (decoded JSON) is the list of strings want.
func equalAny(v any, want ...string) bool {
	list, _ := v.([]any)
	if len(list) != len(want) {
		return false
	}
	for i, w := range want {
		if list[i] != w {
			return false
		}
	}
	return true
}
