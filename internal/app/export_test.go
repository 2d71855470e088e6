package app

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/telemetry"
	"github.com/mcptui/mcptui/internal/telemetry/otlptest"
	"github.com/mcptui/mcptui/internal/testkit/tmuxtest"
)

// demoRecording is a real recording of the demo server on 2025-11-25 (see
// internal/export/testdata).
const demoRecording = "../export/testdata/demo-2025-11-25.jsonl"

func TestExportOTLPSendsTheRecording(t *testing.T) {
	r := otlptest.Start()
	defer r.Close()
	code, out := runApp(t, nil, "export", "--format", "otlp", "--otlp-endpoint", r.URL,
		"--traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", demoRecording)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	if !strings.Contains(out, "trace 0af7651916cd43dd8448eb211c80319c") {
		t.Errorf("output %q does not name the trace", out)
	}
	sess := r.Named(telemetry.SessionSpanName)
	if len(sess) != 1 || hex.EncodeToString(sess[0].ParentSpanId) != "b7ad6b7169203331" {
		t.Fatalf("session spans %v", sess)
	}
	calls := r.Named("tools/call echo")
	if len(calls) != 2 || !bytes.Equal(calls[0].ParentSpanId, sess[0].SpanId) {
		t.Errorf("tools/call echo spans %v", calls)
	}
	for _, err := range r.Errors() {
		t.Error(err)
	}
}

func TestExportOTLPNeedsAnEndpoint(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	code, out := runApp(t, nil, "export", "--format", "otlp", demoRecording)
	if code != 2 || !strings.Contains(out, "--otlp-endpoint") {
		t.Errorf("exit %d: %s", code, out)
	}
}

// TestLiveTracingHeadless: a headless call with --otlp-endpoint sends its
// spans as it runs, and the request that went to the server carried its
// span's traceparent in params._meta, so the server's own span would
// join the trace.
func TestLiveTracingHeadless(t *testing.T) {
	r := otlptest.Start()
	defer r.Close()
	rec := filepath.Join(t.TempDir(), "rec.jsonl")
	code, out := runApp(t, nil, "call", "progress", "--arg", "steps:=2", "--protocol", "2025-11-25",
		"--otlp-endpoint", r.URL, "--record", rec, "--", bin, "demo-server")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	sess := r.Named(telemetry.SessionSpanName)
	calls := r.Named("tools/call progress")
	if len(sess) != 1 || len(calls) != 1 {
		t.Fatalf("%d session spans, %d tools/call progress spans", len(sess), len(calls))
	}
	c := calls[0]
	if !bytes.Equal(c.ParentSpanId, sess[0].SpanId) || otlptest.Attr(c, telemetry.AttrProtocol) != "2025-11-25" {
		t.Errorf("call span: parent %x (session %x), attributes %v", c.ParentSpanId, sess[0].SpanId, c.Attributes)
	}
	progress := 0
	for _, e := range c.Events {
		if e.Name == "notifications/progress" {
			progress++
		}
	}
	if progress != 2 {
		t.Errorf("%d progress events, want 2", progress)
	}
	if len(r.Named("initialize")) != 1 {
		t.Errorf("no initialize span")
	}
	want := "00-" + hex.EncodeToString(c.TraceId) + "-" + hex.EncodeToString(c.SpanId) + "-01"
	got, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(got, []byte(`"traceparent":"`+want+`"`)) {
		t.Errorf("the recording has no request carrying %s", want)
	}
}

func TestExportFormats(t *testing.T) {
	out := filepath.Join(t.TempDir(), "session.har")
	code, msg := runApp(t, nil, "export", "--format", "har", "-o", out, demoRecording)
	if code != 0 || msg != "" {
		t.Fatalf("exit %d: %s", code, msg)
	}
	har, err := os.ReadFile(out)
	if err != nil || !bytes.Contains(har, []byte(`"version": "1.2"`)) {
		t.Fatalf("%v: %.200s", err, har)
	}
	code, msg = runApp(t, nil, "export", demoRecording) // json by default
	if code != 0 || !strings.Contains(msg, `"format": "mcptui-export"`) {
		t.Errorf("json: exit %d: %.300s", code, msg)
	}
	code, msg = runApp(t, nil, "export", "--format", "md", "--call", "8", demoRecording)
	if code != 0 || !strings.HasPrefix(msg, "# `tools/call rpc_error` (id 8): error -32001 boom") {
		t.Errorf("markdown: exit %d: %.300s", code, msg)
	}
	code, msg = runApp(t, nil, "export", "--format", "markdown", "--call", "99", demoRecording)
	if code != 2 || !strings.Contains(msg, "no request with id 99") {
		t.Errorf("unknown id: exit %d: %s", code, msg)
	}
	code, msg = runApp(t, nil, "export", "--format", "har", "--call", "8", demoRecording)
	if code != 2 || !strings.Contains(msg, "--call") {
		t.Errorf("--call with har: exit %d: %s", code, msg)
	}
}

// TestLiveTracingCheck: mcptui check --otlp-endpoint traces each
// connection the check opens as its own span under the session, its
// requests under it (their ids start over on each).
func TestLiveTracingCheck(t *testing.T) {
	r := otlptest.Start()
	defer r.Close()
	rec := filepath.Join(t.TempDir(), "check.jsonl")
	code, out := runApp(t, nil, "check", "--rule", "tools.names", "--otlp-endpoint", r.URL, "--record", rec, "--", bin, "demo-server")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	sess := r.Named(telemetry.SessionSpanName)
	conns := r.Named(telemetry.ConnectionSpanName)
	if len(sess) != 1 || len(conns) == 0 {
		t.Fatalf("%d session spans, %d connection spans", len(sess), len(conns))
	}
	byID := map[string]bool{}
	for _, c := range conns {
		if !bytes.Equal(c.ParentSpanId, sess[0].SpanId) {
			t.Errorf("a connection span's parent %x, want the session %x", c.ParentSpanId, sess[0].SpanId)
		}
		byID[hex.EncodeToString(c.SpanId)] = true
	}
	lists := r.Named("tools/list")
	if len(lists) == 0 {
		t.Fatal("no tools/list span")
	}
	got, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lists {
		if !byID[hex.EncodeToString(l.ParentSpanId)] {
			t.Errorf("tools/list's parent %x is no connection span", l.ParentSpanId)
		}
		// The request went out carrying its span's W3C trace context.
		want := "00-" + hex.EncodeToString(l.TraceId) + "-" + hex.EncodeToString(l.SpanId) + "-01"
		if !bytes.Contains(got, []byte(`"traceparent":"`+want+`"`)) {
			t.Errorf("the recording has no tools/list carrying %s", want)
		}
	}
}

// TestLiveTracingInspector: the inspector with --otlp-endpoint sends the
// session's spans, the negotiation's requests among them, by the time it
// has quit.
func TestLiveTracingInspector(t *testing.T) {
	tmuxtest.Require(t)
	r := otlptest.Start()
	defer r.Close()
	status := filepath.Join(t.TempDir(), "status")
	line := fmt.Sprintf("env TERM=xterm-256color %s=1 %s; echo $? > %s", asMainEnv, shell(bin, "--demo", "--no-bell", "--otlp-endpoint", r.URL), shell(status)) // the demo server is this binary too: the variable makes it mcptui
	x := tmuxtest.Start(t, "otlp-inspector", 120, 40, "sh -c "+shell(line))
	x.WaitFor("● ready")
	x.Keys("q")
	if code := exitStatus(t, status); code != 0 {
		t.Fatalf("exit %d", code)
	}
	sess := r.Named(telemetry.SessionSpanName)
	if len(sess) != 1 || otlptest.Attr(sess[0], "mcptui.mode") != "demo" || otlptest.Attr(sess[0], telemetry.AttrProtocol) == "" {
		t.Fatalf("session spans %v", sess)
	}
	var requests int
	for _, s := range r.Spans() {
		if bytes.Equal(s.ParentSpanId, sess[0].SpanId) && otlptest.Attr(s, telemetry.AttrMethod) != "" {
			requests++
		}
	}
	if requests == 0 {
		t.Errorf("no request span under the session: %v", r.Spans())
	}
}

// TestExplainAFailedCall: mcptui explain ID FILE writes what export
// --format markdown --call ID FILE writes: the post-mortem of that call
// (here the demo's rpc_error, a failure).
func TestExplainAFailedCall(t *testing.T) {
	code, out := runApp(t, nil, "explain", "8", demoRecording)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	if !strings.Contains(out, "# `tools/call rpc_error` (id 8): error -32001 boom") || !strings.Contains(out, "## Error") {
		t.Errorf("explain 8:\n%s", out)
	}
	code, export := runApp(t, nil, "export", "--format", "markdown", "--call", "8", demoRecording)
	if code != 0 || export != out {
		t.Errorf("export --format markdown --call 8 (exit %d) differs from explain 8", code)
	}
}

// TestExplainNamesTheTimerThatFired: a call of the demo's slow tool with
// --timeout 1s, recorded, then explained: the post-mortem names the
// per-request timeout, its duration and when it fired, and says its
// lines broke no rule.
func TestExplainNamesTheTimerThatFired(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "slow.jsonl")
	var out, errb bytes.Buffer
	if code := Run([]string{"call", "slow", "--args", `{"seconds":60}`, "--timeout", "1s", "--record", path, "--", bin, "demo-server"}, &out, &errb); code == 0 {
		t.Fatalf("slow answered within 1s:\n%s", out.String())
	}
	rec, err := record.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	id := ""
	for _, e := range rec.Entries {
		if e.GaveUp != nil {
			var p struct {
				Params struct {
					RequestID json.RawMessage `json:"requestId"`
				} `json:"params"`
			}
			_ = json.Unmarshal(e.Content(), &p)
			id = string(p.Params.RequestID)
		}
	}
	if id == "" {
		t.Fatalf("the recording has no cancellation saying why: %s %s", out.String(), errb.String())
	}
	code, doc := runApp(t, nil, "explain", id, path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, doc)
	}
	for _, want := range []string{"## Which timer fired\n\nThe per-request timeout: 1s, fired at +1.", "| per-request timeout (`--timeout`) | 1s |",
		"## Lint findings on its lines\n\nNone: its lines broke no rule"} {
		if !strings.Contains(doc, want) {
			t.Errorf("explain %s lacks %q:\n%s", id, want, doc)
		}
	}
}
