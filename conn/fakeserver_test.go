package conn_test

// The fake MCP stdio server: the test binary re-executed as a helper process.
//
// TestMain runs it instead of the tests when CONN_TEST_ROLE=server. It reads
// one JSON-RPC message per line from stdin; the method of each request the
// client sends chooses what it does ("verb" or "verb/arg[/arg]"):
//
//	echo                answer with the request's params as the result ({} if none)
//	delay/<ms>          wait ms, then echo
//	hold/<key>          echo once the client sent the notification fake/release {"key": key}
//	park                never answer
//	late                answer (echo) only after the client cancelled the request
//	exit/<status>       write params.data (if any), then exit with status
//	write               write params.data (or base64 params.b64) verbatim, then answer {}
//	writeonly           write params.data (or params.b64) verbatim, never answer
//	long/<n>            answer with a line of exactly n bytes (result: a string of x), written in 64 KiB chunks
//	progress/<n>        n notifications/progress, then echo
//	progresspark/<n>    n notifications/progress, then never answer
//	progressevery/<ms>/<n>  a progress every ms, n times (stopping if cancelled), then echo
//	progressfor/<ms>    progress 1, 2, ..., each once the client sent fake/release {"key": "step<i-1>"}
//	                    for the one before, until ms passed since the request; then echo
//	ask                 write params.line (a request to the client), wait for the client's
//	                    answer and answer with it as the result
//	closestdin          close stdin, answer {}, keep running
//	stopreading         answer {}, stop reading stdin, keep running
//	env                 answer {name: value or null} for params.names
//	cwd                 answer {"cwd": working directory}
//	pid                 answer {"pid": process id}
//	stderr              write params.text to stderr, then answer {}
//	subscriptions/listen  acknowledge with params.notifications (see fakeListen)
//
// In params.data and params.line, $ID stands for the request's id. Anything
// else is answered with -32601. Lines are written with one write each, under
// one lock, so they never interleave.
//
// Flags (the Dial args): -report echoes every notification and response the
// client sends back as {"method":"fake/got","params":{"line":"<raw line>"}};
// -ignore-eof keeps running after stdin's EOF (writing "eof" and then
// "alive <n>" lines to stderr every 10 ms); -ignore-sigterm ignores SIGTERM;
// -bom writes a UTF-8 BOM first; -stderr=<text> writes text to stderr at
// start; -exit=<status> exits at once (after -stderr).
//
// A watchdog ends the process after a minute (-watchdog=<duration> to
// change), so a test can never leave one behind for long.

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/testkit/proctree"
	"github.com/mcptui/mcptui/internal/testkit/waitbound"
)

// roleEnv selects what the test binary does: run the tests (unset), be the
// fake server ("server") or be a program that dials it ("dialer").
const roleEnv = "CONN_TEST_ROLE"

// fakeExe is the path of this test binary, which Dial runs as the fake server.
var fakeExe string

// Variables the tests of Options.Env look at.
const (
	envInherited = "CONN_TEST_INHERITED"
	envUnset     = "CONN_TEST_UNSET"
)

func TestMain(m *testing.M) {
	proctree.Main()
	// The role is inherited by every child, including the workers that go
	// test -fuzz starts; those are told apart by their -test.* flags.
	if !slices.ContainsFunc(os.Args[1:], func(a string) bool { return strings.HasPrefix(a, "-test.") }) {
		switch os.Getenv(roleEnv) {
		case "server":
			os.Exit(runFakeServer(os.Args[1:]))
		case "dialer":
			os.Exit(runDialer(os.Args[1:]))
		case demoRole:
			os.Exit(serveDemo())
		}
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "conn tests:", err)
		os.Exit(2)
	}
	fakeExe, _ = filepath.Abs(exe)
	// Children of this process are fake servers.
	os.Setenv(roleEnv, "server")
	// A race-enabled child would otherwise sleep a second before exiting.
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	os.Setenv(envInherited, "inherited")
	os.Setenv(envUnset, "present")
	waitbound.Parallel(8) // its tests wait on servers and timers, not on the CPU
	os.Exit(m.Run())
}

// fakeServer is the state of one fake server process.
type fakeServer struct {
	outMu     sync.Mutex // serializes writes to stdout
	report    bool
	ignoreEOF bool

	mu        sync.Mutex
	cancelled map[string]*latch      // by request id: the client cancelled it
	released  map[string]*latch      // by hold key: the client released it
	answers   map[string]chan []byte // by server request id: the client's answer
}

// latch is a channel closed once.
type latch struct {
	once sync.Once
	ch   chan struct{}
}

func (l *latch) fire() { l.once.Do(func() { close(l.ch) }) }

// wire is any JSON-RPC message, as the fake server reads it.
type wire struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

func runFakeServer(args []string) int {
	watchdog := time.AfterFunc(time.Minute, func() { os.Exit(99) })
	s := &fakeServer{
		cancelled: map[string]*latch{},
		released:  map[string]*latch{},
		answers:   map[string]chan []byte{},
	}
	for _, a := range args {
		name, value, _ := strings.Cut(a, "=")
		switch name {
		case "-report":
			s.report = true
		case "-ignore-eof":
			s.ignoreEOF = true
		case "-ignore-sigterm":
			signal.Ignore(syscall.SIGTERM)
		case "-bom":
			s.writeRaw([]byte("\xEF\xBB\xBF"))
		case "-stderr":
			os.Stderr.WriteString(value)
		case "-watchdog":
			d, err := time.ParseDuration(value)
			if err != nil {
				fmt.Fprintf(os.Stderr, "fake server: %v\n", err)
				return 2
			}
			watchdog.Reset(d)
		case "-exit":
			n, _ := strconv.Atoi(value)
			return n
		default:
			fmt.Fprintf(os.Stderr, "fake server: unknown flag %q\n", a)
			return 2
		}
	}
	r := bufio.NewReaderSize(os.Stdin, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			switch s.handle(bytes.TrimRight(line, "\r\n")) {
			case stopReading:
				s.forever()
			}
		}
		if err != nil {
			if s.ignoreEOF {
				os.Stderr.WriteString("eof\n")
				for i := 0; ; i++ {
					fmt.Fprintf(os.Stderr, "alive %d\n", i)
					time.Sleep(10 * time.Millisecond)
				}
			}
			return 0
		}
	}
}

// forever blocks until the watchdog or a signal ends the process.
func (s *fakeServer) forever() {
	<-time.After(2 * time.Minute)
}

// What the reading loop does after a line.
type readNext int

const (
	keepReading readNext = iota
	stopReading
)

// handle acts on one line from the client.
func (s *fakeServer) handle(line []byte) readNext {
	var m wire
	if err := json.Unmarshal(line, &m); err != nil {
		fmt.Fprintf(os.Stderr, "fake server: bad line (%v): %.200q\n", err, line)
		return keepReading
	}
	switch {
	case m.ID != nil && m.Method != "":
		return s.request(m)
	case m.Method != "":
		s.notification(m, line)
	case m.ID != nil:
		s.reportLine(line)
		s.mu.Lock()
		ch := s.answers[key(m.ID)]
		delete(s.answers, key(m.ID))
		s.mu.Unlock()
		if ch != nil {
			ch <- bytes.Clone(line)
		}
	}
	return keepReading
}

// notification handles a notification from the client.
func (s *fakeServer) notification(m wire, line []byte) {
	s.reportLine(line)
	switch m.Method {
	case "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		json.Unmarshal(m.Params, &p)
		s.latch(s.cancelled, key(p.RequestID)).fire()
	case "fake/release":
		var p struct{ Key string }
		json.Unmarshal(m.Params, &p)
		s.latch(s.released, p.Key).fire()
	}
}

// reportLine tells the client, with -report, what line it sent.
func (s *fakeServer) reportLine(line []byte) {
	if !s.report {
		return
	}
	s.send(map[string]any{"jsonrpc": "2.0", "method": "fake/got", "params": map[string]string{"line": string(line)}})
}

// fakeParams are the params the behaviours read.
type fakeParams struct {
	Data  string          `json:"data"`
	B64   string          `json:"b64"`
	Line  string          `json:"line"`
	Text  string          `json:"text"`
	Names []string        `json:"names"`
	Token json.RawMessage `json:"token"`
	Meta  struct {
		ProgressToken json.RawMessage `json:"progressToken"`
	} `json:"_meta"`
	Notifications map[string]json.RawMessage `json:"notifications"`
}

// request runs the behaviour the method names.
func (s *fakeServer) request(m wire) readNext {
	id := m.ID
	var p fakeParams
	json.Unmarshal(m.Params, &p)
	result := m.Params
	if len(result) == 0 || string(result) == "null" {
		result = json.RawMessage(`{}`)
	}
	if m.Method == "subscriptions/listen" {
		s.listen(id, p)
		return keepReading
	}
	verb, arg, _ := strings.Cut(m.Method, "/")
	switch verb {
	case "echo":
		s.reply(id, result)
	case "delay":
		go func() {
			time.Sleep(time.Duration(atoi(arg)) * time.Millisecond)
			s.reply(id, result)
		}()
	case "hold":
		l := s.latch(s.released, arg)
		go func() {
			<-l.ch
			s.reply(id, result)
		}()
	case "park":
	case "late":
		l := s.latch(s.cancelled, key(id))
		go func() {
			<-l.ch
			s.reply(id, result)
		}()
	case "exit":
		s.writeRaw(p.data(id))
		os.Exit(atoi(arg))
	case "write":
		s.writeRaw(p.data(id))
		s.reply(id, json.RawMessage(`{}`))
	case "writeonly":
		s.writeRaw(p.data(id))
	case "long":
		s.long(id, atoi(arg))
	case "progress", "progresspark":
		token := p.progressToken()
		n := atoi(arg)
		for i := 1; i <= n; i++ {
			s.progress(token, i, n)
		}
		if verb == "progress" {
			s.reply(id, result)
		}
	case "progressevery":
		ms, count, _ := strings.Cut(arg, "/")
		token, n := p.progressToken(), atoi(count)
		l := s.latch(s.cancelled, key(id))
		go func() {
			tick := time.NewTicker(time.Duration(atoi(ms)) * time.Millisecond)
			defer tick.Stop()
			for i := 1; i <= n; i++ {
				select {
				case <-tick.C:
				case <-l.ch:
					return
				}
				s.progress(token, i, 0)
			}
			s.reply(id, result)
		}()
	case "progressfor":
		token, until := p.progressToken(), time.Now().Add(time.Duration(atoi(arg))*time.Millisecond)
		go func() {
			for i := 1; time.Now().Before(until); i++ {
				s.progress(token, i, 0)
				<-s.latch(s.released, fmt.Sprintf("step%d", i)).ch
			}
			s.reply(id, result)
		}()
	case "ask":
		line := bytes.ReplaceAll([]byte(p.Line), []byte("$ID"), id)
		var q wire
		json.Unmarshal(line, &q)
		ch := make(chan []byte, 1)
		s.mu.Lock()
		s.answers[key(q.ID)] = ch
		s.mu.Unlock()
		s.writeRaw(append(line, '\n'))
		go func() { s.reply(id, <-ch) }()
	case "closestdin":
		// No read is in progress (this is the reading goroutine), so the
		// pipe's read end is gone before the answer goes out: the client's
		// next write fails.
		os.Stdin.Close()
		s.reply(id, json.RawMessage(`{}`))
		return stopReading
	case "stopreading":
		s.reply(id, json.RawMessage(`{}`))
		return stopReading
	case "env":
		env := map[string]*string{}
		for _, name := range p.Names {
			if v, ok := os.LookupEnv(name); ok {
				env[name] = &v
			} else {
				env[name] = nil
			}
		}
		s.replyValue(id, env)
	case "cwd":
		wd, _ := os.Getwd()
		s.replyValue(id, map[string]string{"cwd": wd})
	case "pid":
		s.replyValue(id, map[string]int{"pid": os.Getpid()})
	case "stderr":
		os.Stderr.WriteString(p.Text)
		s.reply(id, json.RawMessage(`{}`))
	default:
		s.writeRaw(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found: %s"}}`+"\n", id, m.Method))
	}
	return keepReading
}

// listen acknowledges a subscriptions/listen. Keys of the filter starting
// with "fake" script it and are not acknowledged: fakeBefore and fakeAfter
// are raw data written before and after the acknowledgement ($ID is the
// subscription id); fakeAck replaces the acknowledged notifications, and
// fakeAck "none" sends no acknowledgement at all. The fake server never ends
// a subscription by itself.
func (s *fakeServer) listen(id json.RawMessage, p fakeParams) {
	accepted := map[string]json.RawMessage{}
	var before, after string
	var ack json.RawMessage
	for k, v := range p.Notifications {
		switch k {
		case "fakeBefore":
			json.Unmarshal(v, &before)
		case "fakeAfter":
			json.Unmarshal(v, &after)
		case "fakeAck":
			ack = v
		default:
			accepted[k] = v
		}
	}
	if ack == nil {
		ack, _ = json.Marshal(accepted)
	}
	s.writeRaw(bytes.ReplaceAll([]byte(before), []byte("$ID"), id))
	if string(ack) != `"none"` {
		s.writeRaw(fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":%s,"_meta":{"io.modelcontextprotocol/subscriptionId":%s}}}`+"\n", ack, id))
	}
	s.writeRaw(bytes.ReplaceAll([]byte(after), []byte("$ID"), id))
}

// long answers id with a line of exactly n bytes (newline excluded), written
// in 64 KiB chunks so that neither side needs the whole line in memory.
func (s *fakeServer) long(id json.RawMessage, n int) {
	prefix := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":"`, id)
	const suffix = "\"}\n"
	pad := n - len(prefix) - (len(suffix) - 1)
	if pad < 0 {
		fmt.Fprintf(os.Stderr, "fake server: long/%d is too short\n", n)
		return
	}
	chunk := bytes.Repeat([]byte("x"), 64<<10)
	s.outMu.Lock()
	defer s.outMu.Unlock()
	os.Stdout.WriteString(prefix)
	for pad > 0 {
		k := min(pad, len(chunk))
		os.Stdout.Write(chunk[:k])
		pad -= k
	}
	os.Stdout.WriteString(suffix)
}

// data is the raw data to write, with $ID replaced by id.
func (p fakeParams) data(id json.RawMessage) []byte {
	b := []byte(p.Data)
	if p.B64 != "" {
		b, _ = base64.StdEncoding.DecodeString(p.B64)
	}
	return bytes.ReplaceAll(b, []byte("$ID"), id)
}

// progressToken is params.token, else params._meta.progressToken.
func (p fakeParams) progressToken() json.RawMessage {
	if p.Token != nil {
		return p.Token
	}
	return p.Meta.ProgressToken
}

// progress writes one notifications/progress (total omitted when 0).
func (s *fakeServer) progress(token json.RawMessage, i, total int) {
	t := ""
	if total > 0 {
		t = fmt.Sprintf(`,"total":%d`, total)
	}
	s.writeRaw(fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%s,"progress":%d%s,"message":"step %d"}}`+"\n", token, i, t, i))
}

// reply writes a response with result.
func (s *fakeServer) reply(id, result json.RawMessage) {
	s.writeRaw(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", id, result))
}

// replyValue writes a response whose result is v encoded.
func (s *fakeServer) replyValue(id json.RawMessage, v any) {
	b, _ := json.Marshal(v)
	s.reply(id, b)
}

// send writes v as one line.
func (s *fakeServer) send(v any) {
	b, _ := json.Marshal(v)
	s.writeRaw(append(b, '\n'))
}

// writeRaw writes b to stdout in one write.
func (s *fakeServer) writeRaw(b []byte) {
	if len(b) == 0 {
		return
	}
	s.outMu.Lock()
	defer s.outMu.Unlock()
	os.Stdout.Write(b)
}

// latch returns the latch for k in m, creating it.
func (s *fakeServer) latch(m map[string]*latch, k string) *latch {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := m[k]
	if l == nil {
		l = &latch{ch: make(chan struct{})}
		m[k] = l
	}
	return l
}

// key normalizes a raw id.
func key(id json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return string(id)
	}
	return b.String()
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fake server: not a number: %q\n", s)
		os.Exit(3)
	}
	return n
}
