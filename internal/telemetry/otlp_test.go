package telemetry

import (
	"bytes"
	"context"
	"testing"

	"go.opentelemetry.io/otel/trace"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/telemetry/otlptest"
)

func newReceiver(t *testing.T) *otlptest.Receiver {
	r := otlptest.Start()
	t.Cleanup(func() {
		r.Close()
		for _, err := range r.Errors() {
			t.Errorf("receiver: %v", err)
		}
	})
	return r
}

func exportDemo(t *testing.T, endpoint string) {
	t.Helper()
	rec, err := record.Open(demoRecording)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p, err := NewProvider(ctx, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	TraceRecording(p, rec, trace.SpanContext{})
	if err := p.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestOTLPHTTPReceiverGetsTheSession sends a recording over OTLP/HTTP
// to an in-process receiver and checks what arrives on the wire.
func TestOTLPHTTPReceiverGetsTheSession(t *testing.T) {
	r := newReceiver(t)
	exportDemo(t, r.URL) // --otlp-endpoint http://host:port
	sessions := r.Named(SessionSpanName)
	if len(sessions) != 1 {
		t.Fatalf("%d session spans", len(sessions))
	}
	sess := sessions[0]
	for _, p := range r.Paths() {
		if p != "/v1/traces" {
			t.Errorf("posted to %s", p)
		}
	}
	if svc := r.Services(); len(svc) == 0 || svc[0] != "mcptui" {
		t.Errorf("service.name %q", svc)
	}
	calls := r.Named("tools/call progress")
	if len(calls) != 1 {
		t.Fatalf("%d tools/call progress spans", len(calls))
	}
	c := calls[0]
	if !bytes.Equal(c.ParentSpanId, sess.SpanId) || !bytes.Equal(c.TraceId, sess.TraceId) || c.Kind != tracepb.Span_SPAN_KIND_CLIENT {
		t.Errorf("call: parent %x trace %x kind %v; session %x %x", c.ParentSpanId, c.TraceId, c.Kind, sess.SpanId, sess.TraceId)
	}
	if otlptest.Attr(c, AttrMethod) != "tools/call" || otlptest.Attr(c, AttrToolName) != "progress" || otlptest.Attr(c, AttrRequestID) != "4" {
		t.Errorf("call attributes %v", c.Attributes)
	}
	n := 0
	for _, e := range c.Events {
		if e.Name == "notifications/progress" {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d progress events on the wire", n)
	}
	errs := r.Named("tools/call rpc_error")
	if len(errs) != 1 || errs[0].Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || errs[0].Status.GetMessage() != "boom" {
		t.Errorf("rpc_error span %v", errs)
	}
	q := r.Named("sampling/createMessage")
	if len(q) != 1 || q[0].Kind != tracepb.Span_SPAN_KIND_SERVER {
		t.Errorf("sampling span %v", q)
	}
}

// TestOTLPEndpointFromEnvironment: with no --otlp-endpoint, the standard
// OTEL_EXPORTER_OTLP_ENDPOINT decides where spans go.
func TestOTLPEndpointFromEnvironment(t *testing.T) {
	r := newReceiver(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", r.URL)
	t.Setenv("OTEL_SERVICE_NAME", "my-inspector")
	if !Enabled("", func(k string) string { return map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": r.URL}[k] }) {
		t.Fatal("not enabled by OTEL_EXPORTER_OTLP_ENDPOINT")
	}
	exportDemo(t, "")
	if len(r.Named(SessionSpanName)) != 1 {
		t.Fatalf("no session span arrived")
	}
	if svc := r.Services(); svc[0] != "my-inspector" {
		t.Errorf("service.name %q, want OTEL_SERVICE_NAME's", svc)
	}
}

func TestTracesURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://localhost:4318":          "http://localhost:4318/v1/traces",
		"http://localhost:4318/":         "http://localhost:4318/v1/traces",
		"https://otel.example/v1/traces": "https://otel.example/v1/traces",
		"http://collector:4318/prefix":   "http://collector:4318/prefix/v1/traces",
	} {
		if got, err := TracesURL(in); err != nil || got != want {
			t.Errorf("TracesURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"localhost:4318", "grpc://x:4317", ""} {
		if _, err := TracesURL(bad); err == nil {
			t.Errorf("TracesURL(%q) accepted", bad)
		}
	}
}
