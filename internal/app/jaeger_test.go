package app

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/telemetry"
	"github.com/mcptui/mcptui/internal/testkit/e2e"
	"github.com/mcptui/mcptui/internal/testkit/jaeger"
)

// TestJaegerReceivesADemoSession: a real OTLP backend, Jaeger all-in-one
// (built from the module proxy), receives the spans of a demo session
// (mcptui run, a script of five steps, with --otlp-endpoint); read back
// through Jaeger's query API they have the conventions' names and
// attributes, the progress, stderr and log events, the error status,
// every request the child of the session span (the server's sampling
// question the child of the call it came in), and the traceparent the
// server read on its stdin names each request's own span in that trace.
func TestJaegerReceivesADemoSession(t *testing.T) {
	e2e.Require(t)
	j := jaeger.Start(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "demo.mcp")
	if err := os.WriteFile(script, []byte("call echo message=hi\ncall progress steps:=2\ncall log\ncall sample prompt=hello\ncall rpc_error code:=-32001 message=boom\nexpect error\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The server's stdin, as it read it: tee in front of the demo server.
	stdin := filepath.Join(dir, "server-stdin.jsonl")
	code, out := runApp(t, nil, "run", script, "--protocol", "2025-11-25", "--answer", "sampling=text:hello",
		"--otlp-endpoint", j.OTLP, "--", "sh", "-c", `tee "$0" | exec "$1" demo-server`, stdin, bin)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	// The trace id, from a request the server read.
	in := serverRequests(t, stdin)
	call := in["tools/call echo"]
	if len(call) != 55 {
		t.Fatalf("the server read no tools/call echo carrying a traceparent: %v", in)
	}
	traceID := call[3:35]
	tr := j.Trace(t, traceID, 8)

	byName := map[string][]jaeger.Span{}
	byID := map[string]jaeger.Span{}
	var names []string
	for _, s := range tr.Spans {
		byName[s.OperationName] = append(byName[s.OperationName], s)
		byID[s.SpanID] = s
		names = append(names, s.OperationName)
	}
	sort.Strings(names)
	t.Logf("jaeger holds trace %s: %q", traceID, names)
	one := func(name string) jaeger.Span {
		t.Helper()
		if len(byName[name]) != 1 {
			t.Fatalf("%d spans named %q in %q", len(byName[name]), name, names)
		}
		return byName[name][0]
	}
	sess := one(telemetry.SessionSpanName)
	if sess.Parent() != "" || sess.Tag(telemetry.AttrProtocol) != "2025-11-25" || sess.Tag("mcp.server.name") != "mcptui-demo" {
		t.Errorf("session span: parent %q, tags %v", sess.Parent(), sess.Tags)
	}
	if p := tr.Processes[sess.ProcessID]; p.ServiceName != "mcptui" {
		t.Errorf("service %q, want mcptui", p.ServiceName)
	}
	for _, name := range []string{"initialize", "tools/call echo", "tools/call progress", "tools/call log", "tools/call sample", "tools/call rpc_error"} {
		s := one(name)
		if s.Parent() != sess.SpanID {
			t.Errorf("%s: parent %q, want the session span %q", name, s.Parent(), sess.SpanID)
		}
		if s.Tag("span.kind") != "client" || s.Tag(telemetry.AttrNetworkTransport) != "pipe" {
			t.Errorf("%s: tags %v", name, s.Tags)
		}
	}
	echo := one("tools/call echo")
	if echo.Tag(telemetry.AttrMethod) != "tools/call" || echo.Tag(telemetry.AttrToolName) != "echo" ||
		echo.Tag(telemetry.AttrOperation) != "execute_tool" || echo.Tag(telemetry.AttrProtocol) != "2025-11-25" || echo.Tag(telemetry.AttrRequestID) == "" {
		t.Errorf("tools/call echo tags %v", echo.Tags)
	}
	if ev := one("tools/call progress").Events(); strings.Count(strings.Join(ev, ","), "notifications/progress") != 2 {
		t.Errorf("progress events %q, want 2 notifications/progress", ev)
	}
	// The demo's stderr line about each call is an event of the trace
	// (on the span of a call in flight when it was read, else the
	// session's: stderr is a pipe of its own).
	stderr := 0
	for _, s := range tr.Spans {
		for _, l := range s.Logs {
			for _, f := range l.Fields {
				if v, ok := f.Value.(string); ok && f.Key == "mcptui.stderr.line" && strings.Contains(v, "] tools/call ") {
					stderr++
				}
			}
		}
	}
	if stderr < 5 {
		t.Errorf("%d stderr events name a tools/call, want the demo's 5 lines", stderr)
	}
	if ev := one("tools/call log").Events(); !strings.Contains(strings.Join(ev, ","), "notifications/message") {
		t.Errorf("log events %q", ev)
	}
	q := one("sampling/createMessage")
	if q.Parent() != one("tools/call sample").SpanID || q.Tag("span.kind") != "server" {
		t.Errorf("sampling/createMessage: parent %q (sample %q), tags %v", q.Parent(), one("tools/call sample").SpanID, q.Tags)
	}
	rpcErr := one("tools/call rpc_error")
	if rpcErr.Tag("otel.status_code") != "ERROR" || rpcErr.Tag("otel.status_description") != "boom" ||
		rpcErr.Tag(telemetry.AttrErrorType) != "-32001" || rpcErr.Tag("error") != "true" {
		t.Errorf("rpc_error tags %v", rpcErr.Tags)
	}
	// What the server read: each request's traceparent names its own span
	// of the trace Jaeger holds, so that a server instrumented with
	// OpenTelemetry would join it.
	for name, tp := range in {
		if name == "initialize" {
			continue // the negotiation's requests carry none
		}
		spans := byName[name]
		if len(spans) != 1 {
			t.Errorf("the server read %s, Jaeger holds %d spans of it", name, len(spans))
			continue
		}
		if want := "00-" + traceID + "-" + spans[0].SpanID + "-01"; tp != want {
			t.Errorf("the server read %s with traceparent %q, want %q (its span in Jaeger)", name, tp, want)
		}
	}
	if len(in) < 5 {
		t.Errorf("the server read traceparents on %d requests: %v", len(in), in)
	}
}

// serverRequests reads the lines the server read and gives each request's
// span name and the traceparent its _meta carried ("" when none).
func serverRequests(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	tp := regexp.MustCompile(`^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$`)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
				Meta struct {
					TraceParent string `json:"traceparent"`
				} `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil || m.Method == "" {
			continue
		}
		name := m.Method
		if m.Params.Name != "" {
			name += " " + m.Params.Name
		}
		v := m.Params.Meta.TraceParent
		if v != "" && !tp.MatchString(v) {
			t.Errorf("%s carried traceparent %q", name, v)
		}
		out[name] = v
	}
	return out
}
