package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/demo"
)

// The test binary doubles as the scripted servers: with MCPTUI_MCP_FAKE set
// it runs that server on stdin/stdout instead of the tests (the os/exec
// helper-process idiom).
const (
	envFake = "MCPTUI_MCP_FAKE"
	// envExampleDemo makes a child of this test binary the demo server.
	envExampleDemo = "MCPTUI_MCP_EXAMPLE_DEMO"
	envSpawnLog    = "MCPTUI_MCP_SPAWNLOG"
	envArg         = "MCPTUI_MCP_ARG"
)

var fakes = map[string]func(*fake){}

var noRaceSleep = "atexit_sleep_ms=0"

func TestMain(m *testing.M) {
	if name := os.Getenv(envFake); name != "" {
		os.Exit(runFake(name))
	}
	if os.Getenv(envExampleDemo) == "1" {
		// The examples' server (example_test.go): mcptui's demo.
		if err := demo.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "demo:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func runFake(name string) int {
	if p := os.Getenv(envSpawnLog); p != "" {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
		}
	}
	run, ok := fakes[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "no fake server %q\n", name)
		return 2
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	f := &fake{in: sc, out: bufio.NewWriter(os.Stdout), arg: os.Getenv(envArg)}
	run(f)
	return 0
}

// fake is one scripted server's end of the pipe.
type fake struct {
	in  *bufio.Scanner
	out *bufio.Writer
	arg string
	// queued are messages read while waiting for something else.
	queued []*msg
}

// msg is one decoded incoming message; fields raw.
type msg struct {
	line   []byte
	id     json.RawMessage
	method string
	params object
	result json.RawMessage
	err    json.RawMessage
}

func (m *msg) isRequest() bool      { return m.id != nil && m.method != "" }
func (m *msg) isNotification() bool { return m.id == nil && m.method != "" }

// param returns a params member, raw.
func (m *msg) param(name string) json.RawMessage { return m.params.get(name) }

// str returns a string params member.
func (m *msg) str(name string) string { s, _ := stringMember(m.params, name); return s }

// meta returns the params' _meta object.
func (m *msg) meta() object { o, _ := parseObject(m.param("_meta")); return o }

// read returns the next message, or nil at EOF.
func (f *fake) read() *msg {
	if len(f.queued) > 0 {
		m := f.queued[0]
		f.queued = f.queued[1:]
		return m
	}
	for f.in.Scan() {
		line := bytes.Clone(f.in.Bytes())
		o, err := parseObject(line)
		if err != nil {
			fmt.Fprintf(os.Stderr, "fake: bad line %q: %v\n", line, err)
			continue
		}
		m := &msg{line: line, id: o.get("id"), result: o.get("result"), err: o.get("error")}
		m.method, _ = stringMember(o, "method")
		m.params, _ = parseObject(o.get("params"))
		return m
	}
	return nil
}

// awaitResponse reads until the response with id arrives, queueing the rest.
func (f *fake) awaitResponse(id string) *msg {
	var others []*msg
	defer func() { f.queued = append(f.queued, others...) }()
	for {
		m := f.read()
		if m == nil {
			return nil
		}
		if m.method == "" && string(m.id) == id {
			return m
		}
		others = append(others, m)
	}
}

func (f *fake) writeLine(b []byte) {
	f.out.Write(b)
	f.out.WriteByte('\n')
	f.out.Flush()
}

// reply answers a request with a result given as raw JSON text.
func (f *fake) reply(m *msg, result string) {
	f.writeLine([]byte(`{"jsonrpc":"2.0","id":` + string(m.id) + `,"result":` + result + `}`))
}

// fail answers a request with an error; data is raw JSON text or "".
func (f *fake) fail(m *msg, code int, message, data string) {
	e := object{}.set("code", json.RawMessage(fmt.Sprint(code))).set("message", quote(message))
	if data != "" {
		e = e.set("data", json.RawMessage(data))
	}
	f.writeLine([]byte(`{"jsonrpc":"2.0","id":` + string(m.id) + `,"error":` + string(e.encode()) + `}`))
}

// notify sends a notification; params is raw JSON text.
func (f *fake) notify(method, params string) {
	f.writeLine([]byte(`{"jsonrpc":"2.0","method":` + string(quote(method)) + `,"params":` + params + `}`))
}

// ask sends a server-to-client request and waits for its response.
func (f *fake) ask(id, method, params string) *msg {
	line := `{"jsonrpc":"2.0","id":` + id + `,"method":` + string(quote(method))
	if params != "" {
		line += `,"params":` + params
	}
	f.writeLine([]byte(line + "}"))
	return f.awaitResponse(id)
}

// response renders a client's response (result or error) as raw JSON text.
func (m *msg) response() string {
	if m == nil {
		return `null`
	}
	if m.err != nil {
		return `{"error":` + string(m.err) + `}`
	}
	return `{"result":` + string(m.result) + `}`
}

// ---- the test side ----

// wireLog records what the Observer saw.
type wireLog struct {
	mu    sync.Mutex
	lines []wireLine
}

type wireLine struct {
	kind conn.EventKind
	line []byte
}

func (l *wireLog) observe(ev conn.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, wireLine{ev.Kind, bytes.Clone(ev.Line)})
}

// sent returns the decoded messages the client sent with this method.
func (l *wireLog) sent(method string) []*msg {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []*msg
	for _, w := range l.lines {
		if w.kind != conn.Sent {
			continue
		}
		o, err := parseObject(w.line)
		if err != nil {
			continue
		}
		if m, _ := stringMember(o, "method"); m == method {
			p, _ := parseObject(o.get("params"))
			out = append(out, &msg{line: w.line, id: o.get("id"), method: m, params: p})
		}
	}
	return out
}

// fakeSetup is what a test needs to start a fake server.
type fakeSetup struct {
	t        *testing.T
	name     string
	spawnLog string
	wire     *wireLog
	opts     Options
	stderr   *lockedBuffer
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// newFake prepares options that start the named fake server.
func newFake(t *testing.T, name string, arg string) *fakeSetup {
	t.Helper()
	if _, ok := fakes[name]; !ok {
		t.Fatalf("no fake server %q", name)
	}
	s := &fakeSetup{t: t, name: name, spawnLog: filepath.Join(t.TempDir(), "spawns"), wire: &wireLog{}, stderr: &lockedBuffer{}}
	s.opts.Conn = conn.Options{
		Env: []conn.EnvVar{
			{Name: envFake, Value: &s.name},
			{Name: envSpawnLog, Value: &s.spawnLog},
			{Name: envArg, Value: &arg},
			// A -race binary sleeps 1 s before exiting unless told not to.
			{Name: "GORACE", Value: &noRaceSleep},
		},
		Observer: s.wire.observe,
		Stderr:   s.stderr,
	}
	s.opts.ProbeTimeout = 5 * time.Second
	return s
}

// connect starts the fake with the options and registers cleanup.
func (s *fakeSetup) connect(ctx context.Context) (*Client, error) {
	s.t.Helper()
	exe, err := os.Executable()
	if err != nil {
		s.t.Fatal(err)
	}
	c, err := Connect(ctx, exe, nil, s.opts)
	if c != nil {
		s.t.Cleanup(func() {
			if err := c.Shutdown(5 * time.Second); err != nil {
				s.t.Logf("shutdown: %v", err)
			}
		})
	}
	if s.t.Failed() || err != nil {
		s.t.Logf("server stderr:\n%s", s.stderr.String())
	}
	return c, err
}

// mustConnect is connect that fails the test on error.
func (s *fakeSetup) mustConnect(ctx context.Context) *Client {
	s.t.Helper()
	c, err := s.connect(ctx)
	if err != nil {
		s.t.Fatalf("Connect: %v", err)
	}
	return c
}

// spawns counts the processes the fake started.
func (s *fakeSetup) spawns() int {
	b, err := os.ReadFile(s.spawnLog)
	if err != nil {
		return 0
	}
	return strings.Count(string(b), "\n")
}

// testCtx is a context bounded well under the test timeout.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// errCode returns the JSON-RPC code inside err, failing if there is none.
func errCode(t *testing.T, err error) *Error {
	t.Helper()
	e := asError(err)
	if e == nil {
		t.Fatalf("error %v (%T) carries no *Error", err, err)
	}
	return e
}
