package export

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/telemetry"
)

func TestPostMortemOfACall(t *testing.T) {
	s := demoSession(t)
	var b bytes.Buffer
	x := s.Find("6") // tools/call sample: the server's sampling question
	if x == nil || x.Request.Msg.Target != "sample" {
		t.Fatalf("Find(6) = %v", x)
	}
	if err := WritePostMortem(&b, s, x, "rec.jsonl"); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"# `tools/call sample` (id 6): ok",
		"| server | mcptui-demo 0.1.0, pid ",
		"| protocol | 2025-11-25 |",
		"the server asks `sampling/createMessage` (id 1)",
		"mcptui answers id 1: ok",
		"### `sampling/createMessage` (id 1), asked by the server",
		`"model": "mcptui-headless"`,
		"stderr: `[demo ",
		"tools/call sample`",
		"## Result",
		`The model \"mcptui-headless\" replied`,
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the post-mortem lacks %q:\n%s", want, md)
		}
	}
	// Only what happened while it was in flight: no other call's lines.
	if strings.Contains(md, "tools/call chatter") || strings.Contains(md, "tools/call log") || strings.Contains(md, "notifications/progress") {
		t.Errorf("the post-mortem holds another call's lines:\n%s", md)
	}
}

func TestPostMortemOfAFailure(t *testing.T) {
	s := demoSession(t)
	cases := map[string][]string{
		"8":  {"(id 8): error -32001 boom", "## Error", `"hint": "this error was asked for"`},
		"9":  {"(id 9): tool error (isError)", "## Result", `"isError": true`},
		"10": {"(id 10): cancelled: Request timed out", "progress 1/5", "mcptui cancels id 10: Request timed out", "## No answer", "the client cancelled request 10"},
		"5":  {"log: emergency [demo.log]", "## Log messages", "+0."},
	}
	for id, wants := range cases {
		var b bytes.Buffer
		if err := WritePostMortem(&b, s, s.Find(id), "rec.jsonl"); err != nil {
			t.Fatal(err)
		}
		for _, w := range wants {
			if !strings.Contains(b.String(), w) {
				t.Errorf("post-mortem of %s lacks %q:\n%s", id, w, b.String())
			}
		}
	}
}

func TestJSONDocument(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, demoSession(t)); err != nil {
		t.Fatal(err)
	}
	var d Doc
	if err := json.Unmarshal(b.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	if d.Format != "mcptui-export" || d.Session.Protocol != "2025-11-25" || d.Session.Transport != "stdio" || len(d.Exchanges) != 11 || len(d.Stderr) != 27 {
		t.Fatalf("doc: %+v, %d exchanges, %d stderr", d.Session, len(d.Exchanges), len(d.Stderr))
	}
	out := map[string]string{}
	for _, x := range d.Exchanges {
		out[x.Direction+" "+x.Method+" "+x.Target] += x.Outcome + ","
	}
	if out["client-to-server tools/call slow"] != "cancelled," || out["client-to-server tools/call rpc_error"] != "error," ||
		out["server-to-client sampling/createMessage "] != "ok," || out["client-to-server tools/call progress"] != "ok," {
		t.Errorf("outcomes %v", out)
	}
}

// plantedSecrets is a recording holding a secret of every form, in every
// place a line can carry one: the command line, a request's arguments, a
// result, a log message, a progress message, an error, stderr, an HTTP
// exchange's URL and headers (as a recording written by hand or by
// another tool holds them: mcptui's recorder redacts headers itself).
// Each secret holds the word SECRET.
const plantedSecrets = "testdata/planted-secrets.jsonl"

// secretRE finds any planted secret (each holds SECRET).
var secretRE = regexp.MustCompile(`[A-Z]*SECRET[A-Z0-9]*`)

// TestNoExportLeaksASecret scans every format for the planted secrets.
func TestNoExportLeaksASecret(t *testing.T) {
	rec, err := record.Open(plantedSecrets)
	if err != nil {
		t.Fatal(err)
	}
	s := Build(rec)
	outs := map[string]func(*bytes.Buffer) error{
		"har":             func(b *bytes.Buffer) error { return WriteHAR(b, s, "test") },
		"json":            func(b *bytes.Buffer) error { return WriteJSON(b, s) },
		"markdown":        func(b *bytes.Buffer) error { return WriteSummary(b, s, "rec.jsonl") },
		"markdown call 1": func(b *bytes.Buffer) error { return WritePostMortem(b, s, s.Find("1"), "rec.jsonl") },
		"markdown call 2": func(b *bytes.Buffer) error { return WritePostMortem(b, s, s.Find("2"), "rec.jsonl") },
		"otlp":            func(b *bytes.Buffer) error { return writeSpans(b, rec) },
	}
	for name, write := range outs {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		if found := secretRE.FindAllString(b.String(), -1); len(found) > 0 {
			t.Errorf("%s leaks %q", name, found)
		}
		if !strings.Contains(b.String(), record.Redacted) {
			t.Errorf("%s redacted nothing", name)
		}
	}
}

// writeSpans writes, as text, everything the OpenTelemetry export of rec
// sends: each span's name, attributes, status and events.
func writeSpans(b *bytes.Buffer, rec *record.Recording) error {
	exp := tracetest.NewInMemoryExporter()
	p, err := telemetry.NewProviderWith(context.Background(), sdktrace.WithSyncer(exp))
	if err != nil {
		return err
	}
	telemetry.TraceRecording(p, rec, trace.SpanContext{})
	if err := p.ForceFlush(context.Background()); err != nil {
		return err
	}
	for _, s := range exp.GetSpans() {
		fmt.Fprintf(b, "%s %v %s %s\n", s.Name, s.Attributes, s.Status.Code, s.Status.Description)
		for _, e := range s.Events {
			fmt.Fprintf(b, "  %s %v\n", e.Name, e.Attributes)
		}
	}
	for _, kv := range exp.GetSpans()[0].Resource.Attributes() {
		fmt.Fprintf(b, "resource %s=%s\n", kv.Key, kv.Value.String())
	}
	return nil
}

// TestPostMortemHTTPExchanges: the post-mortem of a call in an HTTP
// session lists the exchange that carried it, its status and its headers
// redacted (the session id cut), and none of the other calls'.
func TestPostMortemHTTPExchanges(t *testing.T) {
	rec, err := record.Open("testdata/everything-http.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	s := Build(rec)
	x := s.Find("3")
	if x == nil || x.Request.Msg.Method != "tools/call" {
		t.Fatalf("Find(3) = %v", x)
	}
	var b bytes.Buffer
	if err := WritePostMortem(&b, s, x, "rec.jsonl"); err != nil {
		t.Fatal(err)
	}
	doc := b.String()
	i := strings.Index(doc, "## HTTP exchanges")
	if i < 0 {
		t.Fatalf("no HTTP exchanges:\n%s", doc)
	}
	section := doc[i:]
	section = section[:strings.Index(section[3:], "\n## ")+3]
	if strings.Count(section, "`POST http://127.0.0.1:3917/mcp`") != 1 || !strings.Contains(section, "| 200 |") ||
		!strings.Contains(section, "> Mcp-Session-Id: 0597… (36 chars, [redacted])") || !strings.Contains(section, "< Content-Type: text/event-stream") {
		t.Errorf("HTTP exchanges section:\n%s", section)
	}
	if strings.Contains(section, "initialize") {
		t.Errorf("another call's exchange:\n%s", section)
	}
}
