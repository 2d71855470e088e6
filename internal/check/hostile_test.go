package check

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

// Hostile servers: small hand-written stdio servers that break the
// session itself (answer with the wrong id, write invalid UTF-8, answer
// initialize and then nothing, die on a request). The test binary
// re-executed with hostileEnv=KIND is that server. They assert verdicts:
// what a broken request makes unjudgeable is skipped with the reason, not
// passed; a request left unanswered is not asked again; a request that
// kills the server is that probe's finding, and the rules after it run on
// a new process.

const hostileEnv = "MCPTUI_CHECK_HOSTILE"

// runHostile serves kind on stdio: a server with one read-only tool and
// one prompt, broken as kind says.
func runHostile(kind string) {
	out := bufio.NewWriter(os.Stdout)
	write := func(line string) {
		out.WriteString(line)
		out.WriteByte('\n')
		out.Flush()
	}
	reply := func(id json.RawMessage, result string) {
		write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result))
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 64<<20)
	initialized := false
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
				Cursor          string `json:"cursor"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil || m.Method == "" {
			continue // notifications, answers, junk
		}
		if m.Method == "initialize" {
			v := m.Params.ProtocolVersion
			if v != "2025-11-25" && v != "2025-06-18" && v != "2025-03-26" && v != "2024-11-05" {
				v = "2025-11-25"
			}
			reply(m.ID, `{"protocolVersion":"`+v+`","capabilities":{"tools":{},"prompts":{}},"serverInfo":{"name":"hostile-`+kind+`","version":"1"}}`)
			initialized = true
			continue
		}
		if kind == "silent" && initialized {
			continue
		}
		switch m.Method {
		case "ping":
			reply(m.ID, `{}`)
		case "tools/list":
			list := `{"tools":[{"name":"echo","description":"Echoes.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}},"annotations":{"readOnlyHint":true}}]}`
			if kind == "exit-tool" {
				list = `{"tools":[{"name":"echo","description":"Echoes.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}},"annotations":{"readOnlyHint":true}},` +
					`{"name":"exit","description":"Ends the server.","inputSchema":{"type":"object"}}]}`
			}
			switch kind {
			case "wrong-id":
				write(`{"jsonrpc":"2.0","id":"not-` + strings.Trim(string(m.ID), `"`) + `","result":` + list + `}`)
			case "bad-utf8":
				write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"tools":[{"name":"echo","description":"caf` + "\xe9\xff" + `","inputSchema":{"type":"object"}}]}}`)
			default:
				reply(m.ID, list)
			}
		case "tools/call":
			if kind == "exit-tool" && strings.Contains(sc.Text(), `"name":"exit"`) {
				fmt.Fprintln(os.Stderr, "hostile: exiting, as the exit tool asks")
				os.Exit(3)
			}
			switch kind {
			case "server-error":
				// The server's own error, with the code conn uses for a lost
				// connection (JSON-RPC's range for server errors).
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":"tool backend unavailable"}}`, m.ID))
			case "deep-call":
				// An answer nested past the parser's limit: discarded, its id readable.
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s%s}`, m.ID, strings.Repeat("[", 10001), strings.Repeat("]", 10001)))
			default:
				reply(m.ID, `{"content":[{"type":"text","text":"hello"}]}`)
			}
		case "prompts/list":
			if kind == "crash-on-cursor" && m.Params.Cursor != "" {
				fmt.Fprintf(os.Stderr, "hostile: cannot parse cursor %q\n", m.Params.Cursor)
				os.Exit(3)
			}
			reply(m.ID, `{"prompts":[{"name":"greet","description":"A greeting."}]}`)
		case "prompts/get":
			reply(m.ID, `{"messages":[{"role":"user","content":{"type":"text","text":"hello"}}]}`)
		default:
			write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, m.ID))
		}
	}
}

// hostileCheck checks the hostile server kind on 2025-11-25. The request
// timeout is short: these servers answer at once or never.
func hostileCheck(t *testing.T, kind string) *EraReport {
	t.Helper()
	return hostileCheckWith(t, kind, nil)
}

// hostileCheckWith is hostileCheck with the options changed by set.
func hostileCheckWith(t *testing.T, kind string, set func(*Options)) *EraReport {
	t.Helper()
	value := kind
	o := Options{
		Command: os.Args[0], Args: []string{"-test.run=^$"},
		Conn: conn.Options{Env: []conn.EnvVar{{Name: hostileEnv, Value: &value}}},
		Era:  "2025-11-25", Timeout: 5 * time.Second,
		// Every hostile server exits at EOF: exit-on-eof passes as soon as
		// it did, and a busy machine's slow exit (3 s by default) is no
		// finding here.
		ExitBound: time.Minute,
		Sampling:  declineAll, ElicitForm: declineAll, ElicitURL: declineAll, Roots: declineAll,
	}
	if set != nil {
		set(&o)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rep := Run(ctx, o)
	if rep.Error != "" || len(rep.Eras) != 1 {
		t.Fatalf("check: %s (%d eras)", rep.Error, len(rep.Eras))
	}
	t.Logf("checked in %d ms", rep.Millis)
	return &rep.Eras[0]
}

// status fails the test unless rule's status is want (and, for a skip,
// its reason names why).
func wantStatus(t *testing.T, e *EraReport, id string, want Status, why string) {
	t.Helper()
	r := resultOf(e, id)
	switch {
	case r == nil:
		t.Errorf("%s: no result", id)
	case r.Status != want:
		t.Errorf("%s: %s (%s %v), want %s", id, r.Status, r.Why, r.Seen, want)
	case why != "" && !strings.Contains(r.Why+strings.Join(r.Seen, " "), why):
		t.Errorf("%s: %s %q %v, want it to say %q", id, r.Status, r.Why, r.Seen, why)
	}
}

// A server that answers initialize and then nothing passes no rule that
// needs an answer: each is skipped, saying the server answers nothing.
func TestHostileSilentAfterInitialize(t *testing.T) {
	t.Parallel()
	e := hostileCheck(t, "silent")
	for _, id := range []string{"basic.response-id", "content.base64", "basic.result-object", "tools.call-result", "tools.list-shape", "errors.method-not-found",
		"lifecycle.keeps-serving", "transport.concurrent-requests", "transport.large-message"} {
		wantStatus(t, e, id, Skipped, "answers nothing")
	}
	for _, res := range e.Results {
		if res.Status == Passed && res.ID != "lifecycle.initialize-result" && res.ID != "lifecycle.version-echo" &&
			res.ID != "lifecycle.unsupported-version" && !strings.HasPrefix(res.ID, "transport.") && res.ID != "basic.no-response-to-notification" &&
			!strings.HasPrefix(res.ID, "capabilities.client") && res.ID != "capabilities.shape" && res.ID != "lifecycle.no-requests-before-initialized" && res.ID != "lifecycle.latest-version" {
			t.Errorf("%s passed on a server that answers nothing after initialize", res.ID)
		}
	}
}

// A server that answers tools/list with the wrong id (or with invalid
// UTF-8) is asked for it once: the rules that need the list are skipped
// saying so, and the rules that need only ping are still judged.
func TestHostileUnansweredList(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"wrong-id", "bad-utf8"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			e := hostileCheck(t, kind)
			wantStatus(t, e, "tools.list-shape", Skipped, "left tools/list unanswered")
			wantStatus(t, e, "tools.stable-list", Skipped, "not asked again")
			wantStatus(t, e, "tools.call-result", Skipped, "left tools/list unanswered")
			wantStatus(t, e, "lifecycle.keeps-serving", Passed, "")
			wantStatus(t, e, "prompts.get", Passed, "")
			if kind == "bad-utf8" {
				wantStatus(t, e, "transport.utf8", Failed, "")
			}
		})
	}
}

// A server that dies on one probe (a cursor it cannot parse) is charged
// with that probe, with its last stderr line; it is started again and the
// rules after it are judged.
func TestHostileCrashIsThatProbesFinding(t *testing.T) {
	t.Parallel()
	e := hostileCheck(t, "crash-on-cursor")
	wantStatus(t, e, "pagination.invalid-cursor", Failed, `cannot parse cursor`)
	wantStatus(t, e, "pagination.invalid-cursor", Failed, `exited on prompts/list`)
	wantStatus(t, e, "prompts.list-shape", Passed, "")
	wantStatus(t, e, "prompts.get", Passed, "")
	wantStatus(t, e, "lifecycle.keeps-serving", Passed, "")
	wantStatus(t, e, "transport.exit-on-eof", Passed, "")
	if len(e.Notes) != 1 || !strings.Contains(e.Notes[0], "started again") {
		t.Errorf("notes %q, want the restart said", e.Notes)
	}
	for _, res := range e.Results {
		if res.ID == "pagination.invalid-cursor" {
			continue
		}
		for _, s := range res.Seen {
			if strings.Contains(s, "exited") {
				t.Errorf("%s charged with the crash: %s", res.ID, s)
			}
		}
	}
}

// A tool that ends its server on purpose, called by --call-tools, is no
// finding: no rule is charged with the exit (the demo's exit tool made
// tools.list-shape, a MUST, fail), a note says what happened, and the
// rules after it run on a new process.
func TestHostileToolThatExitsIsNoFinding(t *testing.T) {
	t.Parallel()
	e := hostileCheckWith(t, "exit-tool", func(o *Options) { o.CallTools = true })
	for _, res := range e.Results {
		for _, s := range res.Seen {
			if strings.Contains(s, "exited") {
				t.Errorf("%s (%s) charged with a tool's exit: %s", res.ID, res.Status, s)
			}
		}
	}
	wantStatus(t, e, "prompts.get", Passed, "")
	if !strings.Contains(strings.Join(e.Notes, "\n"), "a tool may end its server") && !strings.Contains(strings.Join(e.Notes, "\n"), "in flight") {
		t.Errorf("notes %q, want the exit said", e.Notes)
	}
}

// A probe that panics (a bug in mcptui check) fails the rules it had not
// judged yet, saying so, and leaves the others and the probes after it be.
func TestGuardTurnsAPanicIntoThatRulesFailure(t *testing.T) {
	r := &run{ctx: t.Context(), era: "2025-11-25", results: map[string]*Result{}}
	for _, id := range []string{"lifecycle.keeps-serving", "transport.large-message", "transport.unicode"} {
		r.results[id] = &Result{ID: id}
	}
	r.guard([]string{"transport.large-message"}, func() { r.pass("transport.large-message") })
	r.guard([]string{"lifecycle.keeps-serving"}, func() {
		var m map[string]int
		m["x"]++ //nolint:staticcheck // a nil map on purpose: the kind of bug the guard is for
	})
	r.guard([]string{"transport.unicode"}, func() { r.pass("transport.unicode") })
	if got := r.results["lifecycle.keeps-serving"]; got.Status != Failed || len(got.Seen) != 1 || !strings.Contains(got.Seen[0], "mcptui check itself crashed") {
		t.Errorf("the panicking probe's rule: %+v", got)
	}
	for _, id := range []string{"transport.large-message", "transport.unicode"} {
		if got := r.results[id]; got.Status != Passed {
			t.Errorf("%s: %+v, want passed", id, got)
		}
	}
}

// The same observation is said once, however often it is judged.
func TestSeenOnce(t *testing.T) {
	r := &run{results: map[string]*Result{"tools.names": {ID: "tools.names"}}}
	for range 3 {
		r.fail("tools.names", "tool name %q: %s", "a b", "characters outside A-Z a-z 0-9 _ - .")
	}
	if got := r.results["tools.names"]; len(got.Seen) != 1 || got.Checks != 3 {
		t.Errorf("seen %q (judged %d times), want it once (3 times)", got.Seen, got.Checks)
	}
}

// The shell probe never goes into an argument naming a file of a tool
// that may write (it would leave a file named "mcptui $(echo …" behind),
// and each call of a writing tool that carries it is announced.
func TestInjectionSparesFileArguments(t *testing.T) {
	tool := func(name string, readOnly bool) map[string]json.RawMessage {
		return map[string]json.RawMessage{
			"name":        json.RawMessage(`"` + name + `"`),
			"inputSchema": json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"},"destinationDir":{"type":"string"}}}`),
			"annotations": json.RawMessage(fmt.Sprintf(`{"readOnlyHint":%v}`, readOnly)),
		}
	}
	got := injectionTargets([]map[string]json.RawMessage{tool("write_file", false), tool("search", true)}, true)
	if len(got) != 2 {
		t.Fatalf("targets %+v", got)
	}
	if w := got[0]; w.name != "write_file" || strings.Join(w.probed, ",") != "content" || w.args["path"] == shellProbe {
		t.Errorf("the writing tool got the probe in %v (args %v), want content only", w.probed, w.args)
	}
	if s := got[1]; strings.Join(s.probed, ",") != "content,destinationDir,path" {
		t.Errorf("the read-only tool got the probe in %v, want every free string", s.probed)
	}
	r := &run{results: map[string]*Result{}, o: Options{CallTools: true}}
	r.noteInjections(got)
	if len(r.notes) != 1 || !strings.Contains(r.notes[0], "write_file") || !strings.Contains(r.notes[0], "remove it") {
		t.Errorf("notes %q, want the writing tool's call announced", r.notes)
	}
}
