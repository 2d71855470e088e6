package telemetry

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/record"
)

// demoRecording is a real recording (mcptui run --record, demo server,
// 2025-11-25): echo, echo of a GitHub token, progress with 3 steps, log at
// every level, sample (the server's sampling/createMessage, answered),
// chatter (12 stderr lines), rpc_error -32001, fail (isError), slow cut by
// a 1.5 s timeout (notifications/cancelled).
const demoRecording = "../export/testdata/demo-2025-11-25.jsonl"

func traceDemo(t *testing.T, parent trace.SpanContext) []sdktrace.ReadOnlySpan {
	t.Helper()
	return traceFile(t, demoRecording, parent)
}

func traceFile(t *testing.T, path string, parent trace.SpanContext) []sdktrace.ReadOnlySpan {
	t.Helper()
	rec, err := record.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	exp := tracetest.NewInMemoryExporter()
	p, err := NewProviderWith(context.Background(), sdktrace.WithSyncer(exp))
	if err != nil {
		t.Fatal(err)
	}
	TraceRecording(p, rec, parent)
	if err := p.ForceFlush(context.Background()); err != nil { // Shutdown would empty exp
		t.Fatal(err)
	}
	return exp.GetSpans().Snapshots()
}

func attrs(s sdktrace.ReadOnlySpan) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes() {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

func eventAttrs(e sdktrace.Event) map[string]string {
	m := map[string]string{}
	for _, kv := range e.Attributes {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

func byName(spans []sdktrace.ReadOnlySpan, name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

func one(t *testing.T, spans []sdktrace.ReadOnlySpan, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	got := byName(spans, name)
	if len(got) != 1 {
		var names []string
		for _, s := range spans {
			names = append(names, s.Name())
		}
		t.Fatalf("%d spans named %q, want 1; spans: %q", len(got), name, names)
	}
	return got[0]
}

func events(s sdktrace.ReadOnlySpan, name string) []sdktrace.Event {
	var out []sdktrace.Event
	for _, e := range s.Events() {
		if e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

func TestTraceRecordingSpans(t *testing.T) {
	spans := traceDemo(t, trace.SpanContext{})
	session := one(t, spans, SessionSpanName)
	if session.Parent().IsValid() {
		t.Errorf("session span has a parent %v", session.Parent())
	}
	sa := attrs(session)
	if sa[AttrProtocol] != "2025-11-25" || sa["mcp.server.name"] != "mcptui-demo" || sa[AttrNetworkTransport] != "pipe" {
		t.Errorf("session attributes %v", sa)
	}
	if len(events(session, "exit")) != 1 {
		t.Errorf("session events %v", session.Events())
	}
	// Every span is in the session's trace; client requests are its
	// children.
	for _, s := range spans {
		if s.SpanContext().TraceID() != session.SpanContext().TraceID() {
			t.Errorf("span %q in trace %v, session in %v", s.Name(), s.SpanContext().TraceID(), session.SpanContext().TraceID())
		}
	}
	if n := len(byName(spans, "tools/call echo")); n != 2 {
		t.Errorf("%d tools/call echo spans, want 2", n)
	}
	init := one(t, spans, "initialize")
	if init.SpanKind() != trace.SpanKindClient || init.Parent().SpanID() != session.SpanContext().SpanID() {
		t.Errorf("initialize: kind %v parent %v", init.SpanKind(), init.Parent())
	}

	prog := one(t, spans, "tools/call progress")
	pa := attrs(prog)
	if pa[AttrMethod] != "tools/call" || pa[AttrToolName] != "progress" || pa[AttrOperation] != "execute_tool" ||
		pa[AttrRequestID] != "4" || pa[AttrProtocol] != "2025-11-25" || pa[AttrNetworkTransport] != "pipe" {
		t.Errorf("progress span attributes %v", pa)
	}
	if prog.Parent().SpanID() != session.SpanContext().SpanID() {
		t.Errorf("progress span's parent %v, want the session", prog.Parent())
	}
	pe := events(prog, "notifications/progress")
	if len(pe) != 3 || eventAttrs(pe[2])["mcp.progress.progress"] != "3" || eventAttrs(pe[2])["mcp.progress.total"] != "3" ||
		!strings.Contains(eventAttrs(pe[0])["mcp.progress.message"], "Reticulating") {
		t.Errorf("progress events %v", pe)
	}
	if prog.Status().Code == codes.Error {
		t.Errorf("progress span status %v", prog.Status())
	}

	logSpan := one(t, spans, "tools/call log")
	le := events(logSpan, "notifications/message")
	if len(le) != 8 || eventAttrs(le[0])["mcp.log.level"] != "debug" || eventAttrs(le[7])["mcp.log.level"] != "emergency" {
		t.Errorf("log events %v", le)
	}

	// The server's question: a SERVER span, child of the tools/call in
	// flight.
	sample := one(t, spans, "tools/call sample")
	q := one(t, spans, "sampling/createMessage")
	if q.SpanKind() != trace.SpanKindServer || q.Parent().SpanID() != sample.SpanContext().SpanID() || attrs(q)[AttrRequestID] != "1" {
		t.Errorf("sampling span: kind %v parent %v (sample %v) attrs %v", q.SpanKind(), q.Parent().SpanID(), sample.SpanContext().SpanID(), attrs(q))
	}
	if q.EndTime().After(sample.EndTime()) || q.StartTime().Before(sample.StartTime()) {
		t.Errorf("sampling span [%v, %v] outside its call [%v, %v]", q.StartTime(), q.EndTime(), sample.StartTime(), sample.EndTime())
	}

	// stderr lines go to the calls in flight when they were read: the
	// cancelled slow call holds the server's word on its cancellation.
	slowSpan := one(t, spans, "tools/call slow")
	se := events(slowSpan, "stderr")
	found := false
	for _, e := range se {
		found = found || strings.Contains(eventAttrs(e)["mcptui.stderr.line"], "the client cancelled request 10")
	}
	if !found {
		t.Errorf("slow's stderr events %v", se)
	}
	if n := len(events(prog, "stderr")); n != 1 { // "tools/call progress"
		t.Errorf("progress span has %d stderr events, want its one line", n)
	}

	rpcErr := one(t, spans, "tools/call rpc_error")
	ra := attrs(rpcErr)
	if rpcErr.Status().Code != codes.Error || rpcErr.Status().Description != "boom" || ra[AttrErrorType] != "-32001" || ra[AttrStatusCode] != "-32001" {
		t.Errorf("rpc_error: status %v attrs %v", rpcErr.Status(), ra)
	}
	fail := one(t, spans, "tools/call fail")
	if fail.Status().Code != codes.Error || attrs(fail)[AttrErrorType] != "tool_error" {
		t.Errorf("fail: status %v attrs %v", fail.Status(), attrs(fail))
	}
	slow := one(t, spans, "tools/call slow")
	ce := events(slow, "notifications/cancelled")
	if len(ce) != 1 || eventAttrs(ce[0])["mcp.cancel.reason"] != "Request timed out" ||
		slow.Status().Code != codes.Error || attrs(slow)[AttrErrorType] != "cancelled" {
		t.Errorf("slow: events %v status %v attrs %v", slow.Events(), slow.Status(), attrs(slow))
	}
	if !slow.EndTime().Equal(session.EndTime()) {
		t.Errorf("the unanswered cancelled call ends at %v, the session at %v", slow.EndTime(), session.EndTime())
	}
}

func TestTraceRecordingRedacts(t *testing.T) {
	spans := traceDemo(t, trace.SpanContext{})
	spans = append(spans, traceFile(t, "../export/testdata/planted-secrets.jsonl", trace.SpanContext{})...)
	for _, s := range spans {
		check := func(where string, kvs []attribute.KeyValue) {
			for _, kv := range kvs {
				if v := kv.Value.String(); strings.Contains(v, "ghp_AAAA") || strings.Contains(v, "SECRET") {
					t.Errorf("%s of %q: %s holds the token", where, s.Name(), kv.Key)
				}
			}
		}
		check("attributes", s.Attributes())
		if strings.Contains(s.Status().Description, "SECRET") {
			t.Errorf("status of %q: %s", s.Name(), s.Status().Description)
		}
		for _, e := range s.Events() {
			check("event "+e.Name, e.Attributes)
		}
	}
}

func TestTraceRecordingTraceParent(t *testing.T) {
	parent, err := ParseTraceParent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
	if err != nil {
		t.Fatal(err)
	}
	spans := traceDemo(t, parent)
	session := one(t, spans, SessionSpanName)
	if session.Parent().SpanID() != parent.SpanID() || session.SpanContext().TraceID() != parent.TraceID() {
		t.Errorf("session: parent %v trace %v, want %v", session.Parent(), session.SpanContext().TraceID(), parent)
	}
	for _, s := range spans {
		if s.SpanContext().TraceID() != parent.TraceID() {
			t.Errorf("%q is in trace %v", s.Name(), s.SpanContext().TraceID())
		}
	}
}

func TestParseTraceParent(t *testing.T) {
	sc, err := ParseTraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
	if err != nil || FormatTraceParent(sc) != "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" {
		t.Fatalf("%v %v", sc, err)
	}
	for _, bad := range []string{"", "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
		"00-00000000000000000000000000000000-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
		"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7"} {
		if _, err := ParseTraceParent(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// everythingTraced is a real recording of server-everything (npm,
// 2026.8.31) made with --otlp-endpoint and --traceparent
// 00-11112222333344445555666677778888-9999aaaabbbbcccc-01: its
// server/discover probe failed (-32601) and the session fell back to
// 2025-11-25; each request carries its span's traceparent.
const everythingTraced = "../export/testdata/everything-traced.jsonl"

// TestTraceRecordingKeepsTheCarriedSpans: exported again after the fact,
// a recording made with tracing on is in the same trace, each request with
// the span id it carried to the server, so the server's spans still join.
func TestTraceRecordingKeepsTheCarriedSpans(t *testing.T) {
	spans := traceFile(t, everythingTraced, trace.SpanContext{})
	echo := one(t, spans, "tools/call echo")
	if echo.SpanContext().TraceID().String() != "11112222333344445555666677778888" || echo.SpanContext().SpanID().String() != "bb5fcd4c60f72f95" {
		t.Errorf("tools/call echo: %v, want the carried 1111…8888/bb5fcd4c60f72f95", echo.SpanContext())
	}
	if sess := one(t, spans, SessionSpanName); echo.Parent().SpanID() != sess.SpanContext().SpanID() {
		t.Errorf("echo's parent %v", echo.Parent())
	}
	// The failed probe named 2026-07-28; the session is 2025-11-25.
	if p := attrs(one(t, spans, "server/discover"))[AttrProtocol]; p != "2026-07-28" {
		t.Errorf("server/discover's protocol %q", p)
	}
	for _, name := range []string{"initialize", "tools/call echo", "sampling/createMessage"} {
		if p := attrs(one(t, spans, name))[AttrProtocol]; p != "2025-11-25" {
			t.Errorf("%s's protocol %q, want the session's 2025-11-25", name, p)
		}
	}
	if q := one(t, spans, "sampling/createMessage"); q.Parent().SpanID() != one(t, spans, "tools/call trigger-sampling-request").SpanContext().SpanID() {
		t.Errorf("the sampling question's parent %v", q.Parent())
	}
}

// TestTraceRecordingSessionID: an HTTP session's spans carry
// mcp.session.id, the Mcp-Session-Id the server gave as the recording
// redacted it (the id is a bearer of the session); a stdio session has
// none.
func TestTraceRecordingSessionID(t *testing.T) {
	const want = "0597… (36 chars, [redacted])"
	spans := traceFile(t, "../export/testdata/everything-http.jsonl", trace.SpanContext{})
	if got := attrs(one(t, spans, SessionSpanName))[AttrSessionID]; got != want {
		t.Errorf("session span's %s = %q, want %q", AttrSessionID, got, want)
	}
	with := 0
	for _, s := range spans {
		if s.Name() == SessionSpanName || s.Name() == "server/discover" {
			continue // the probe before the session began has no id
		}
		got, ok := attrs(s)[AttrSessionID]
		if ok && got != want {
			t.Errorf("span %q: %s = %q, want %q", s.Name(), AttrSessionID, got, want)
		}
		if ok {
			with++
		}
		if s.Name() == "tools/list" && !ok {
			t.Errorf("tools/list, sent in the session, has no %s: %v", AttrSessionID, attrs(s))
		}
	}
	if with == 0 {
		t.Errorf("no request span has %s", AttrSessionID)
	}
	for _, s := range traceDemo(t, trace.SpanContext{}) {
		if v, ok := attrs(s)[AttrSessionID]; ok {
			t.Errorf("stdio span %q has %s %q", s.Name(), AttrSessionID, v)
		}
	}
}

// TestLiveSessionID: live, the session id an HTTP exchange's answer gave
// reaches the spans redacted, never whole.
func TestLiveSessionID(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	p, err := NewProviderWith(context.Background(), sdktrace.WithSyncer(exp))
	if err != nil {
		t.Fatal(err)
	}
	l, err := StartLive(context.Background(), LiveOptions{Provider: p, Session: Session{Command: "http://127.0.0.1:1/mcp", HTTP: true}})
	if err != nil {
		t.Fatal(err)
	}
	const id = "5f1e0c6a2b9d4e7f8a1b2c3d4e5f6a7b"
	at := time.Now()
	l.Observe(conn.Event{Time: at, Kind: conn.Sent, Line: []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)})
	l.Exchange(httpconn.Exchange{ResponseHeader: http.Header{httpconn.HeaderSessionID: {id}}})
	l.Observe(conn.Event{Time: at, Kind: conn.Received, Line: []byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`)})
	l.Observe(conn.Event{Time: at, Kind: conn.Sent, Line: []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)})
	l.Observe(conn.Event{Time: at, Kind: conn.Received, Line: []byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`)})
	l.t.End(time.Now())
	if err := p.ForceFlush(context.Background()); err != nil { // Shutdown (Close) would empty exp
		t.Fatal(err)
	}
	spans := exp.GetSpans().Snapshots()
	want := record.RedactHeader(httpconn.HeaderSessionID, id)
	if !strings.HasPrefix(want, id[:4]) || strings.Contains(want, id) {
		t.Fatalf("redaction gave %q", want)
	}
	for _, name := range []string{SessionSpanName, "initialize", "tools/list"} {
		if got := attrs(one(t, spans, name))[AttrSessionID]; got != want {
			t.Errorf("%s: %s = %q, want %q", name, AttrSessionID, got, want)
		}
	}
}
