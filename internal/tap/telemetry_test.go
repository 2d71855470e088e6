package tap

import (
	"context"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/mcptui/mcptui/internal/telemetry"
)

// TestTapTracesWhatItRelays: with an Observer and WrapStderr (the live
// tracing of --otlp-endpoint), every relayed request is a span, the
// server's stderr an event on it, and a host's request that carried a
// traceparent is traced as its child, in the host's trace.
func TestTapTracesWhatItRelays(t *testing.T) {
	sr := tracetest.NewSpanRecorder()
	p, err := telemetry.NewProviderWith(context.Background(), sdktrace.WithSpanProcessor(sr))
	if err != nil {
		t.Fatal(err)
	}
	live, err := telemetry.StartLive(context.Background(), telemetry.LiveOptions{Provider: p,
		Session: telemetry.Session{Command: "server", Mode: "tap", ForeignTraceParent: true}})
	if err != nil {
		t.Fatal(err)
	}
	h := startTap(t, "lines", Options{Observer: live.Observe, WrapStderr: live.Stderr})
	got := readAll(h.out)
	const hostTrace, hostSpan = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	_, _ = h.in.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"traceparent":"00-` + hostTrace + `-` + hostSpan + `-01"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n"))
	h.in.Close()
	receive(t, got)
	h.wait()
	if err := live.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	byName := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range sr.Ended() {
		byName[s.Name()] = s
	}
	call, list, sess := byName["tools/call x"], byName["tools/list"], byName[telemetry.SessionSpanName]
	if call == nil || list == nil || sess == nil {
		t.Fatalf("spans %v", byName)
	}
	if call.Parent().TraceID().String() != hostTrace || call.Parent().SpanID().String() != hostSpan {
		t.Errorf("the host's traced request: parent %v, want the host's span", call.Parent())
	}
	if list.Parent().SpanID() != sess.SpanContext().SpanID() {
		t.Errorf("tools/list's parent %v, want the session", list.Parent())
	}
	// Each stderr line is on the requests in flight when it was read
	// (the session's when none was).
	stderr := map[string]bool{}
	for _, s := range []sdktrace.ReadOnlySpan{call, list, sess} {
		for _, e := range s.Events() {
			if e.Name == "stderr" && strings.HasPrefix(e.Attributes[0].Value.AsString(), "got line") {
				stderr[e.Attributes[0].Value.AsString()] = true
			}
		}
	}
	if len(stderr) != 2 {
		t.Errorf("stderr events %v, want the server's 2 lines", stderr)
	}
}
