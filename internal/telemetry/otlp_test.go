package telemetry

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"go.opentelemetry.io/otel/trace"

	"github.com/mcptui/mcptui/internal/record"
)

// receiver is an OTLP/HTTP traces endpoint: it decodes each protobuf
// ExportTraceServiceRequest posted to /v1/traces and keeps its spans.
type receiver struct {
	mu    sync.Mutex
	spans []*tracepb.Span
	res   []string // service.name of each batch
	paths []string
}

func newReceiver(t *testing.T) (*receiver, *httptest.Server) {
	r := &receiver{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, err := io.ReadAll(req.Body)
		if err == nil && req.Header.Get("Content-Encoding") == "gzip" {
			var zr *gzip.Reader
			if zr, err = gzip.NewReader(bytes.NewReader(body)); err == nil {
				body, err = io.ReadAll(zr)
			}
		}
		var msg collectortrace.ExportTraceServiceRequest
		if err == nil {
			err = proto.Unmarshal(body, &msg)
		}
		if err != nil || req.Header.Get("Content-Type") != "application/x-protobuf" {
			t.Errorf("receiver: %s %s: %v", req.Header.Get("Content-Type"), req.URL.Path, err)
			http.Error(w, "bad", http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		r.paths = append(r.paths, req.URL.Path)
		for _, rs := range msg.ResourceSpans {
			for _, a := range rs.GetResource().GetAttributes() {
				if a.Key == "service.name" {
					r.res = append(r.res, a.GetValue().GetStringValue())
				}
			}
			for _, ss := range rs.ScopeSpans {
				r.spans = append(r.spans, ss.Spans...)
			}
		}
		r.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		b, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return r, srv
}

func (r *receiver) byName(name string) []*tracepb.Span {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*tracepb.Span
	for _, s := range r.spans {
		if s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

func pbAttr(s *tracepb.Span, key string) string {
	for _, a := range s.Attributes {
		if a.Key == key {
			return a.GetValue().GetStringValue()
		}
	}
	return ""
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
	r, srv := newReceiver(t)
	exportDemo(t, srv.URL) // --otlp-endpoint http://host:port
	sessions := r.byName(SessionSpanName)
	if len(sessions) != 1 {
		t.Fatalf("%d session spans", len(sessions))
	}
	sess := sessions[0]
	for _, p := range r.paths {
		if p != "/v1/traces" {
			t.Errorf("posted to %s", p)
		}
	}
	if len(r.res) == 0 || r.res[0] != "mcptui" {
		t.Errorf("service.name %q", r.res)
	}
	calls := r.byName("tools/call progress")
	if len(calls) != 1 {
		t.Fatalf("%d tools/call progress spans", len(calls))
	}
	c := calls[0]
	if !bytes.Equal(c.ParentSpanId, sess.SpanId) || !bytes.Equal(c.TraceId, sess.TraceId) || c.Kind != tracepb.Span_SPAN_KIND_CLIENT {
		t.Errorf("call: parent %x trace %x kind %v; session %x %x", c.ParentSpanId, c.TraceId, c.Kind, sess.SpanId, sess.TraceId)
	}
	if pbAttr(c, AttrMethod) != "tools/call" || pbAttr(c, AttrToolName) != "progress" || pbAttr(c, AttrRequestID) != "4" {
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
	errs := r.byName("tools/call rpc_error")
	if len(errs) != 1 || errs[0].Status.GetCode() != tracepb.Status_STATUS_CODE_ERROR || errs[0].Status.GetMessage() != "boom" {
		t.Errorf("rpc_error span %v", errs)
	}
	q := r.byName("sampling/createMessage")
	if len(q) != 1 || q[0].Kind != tracepb.Span_SPAN_KIND_SERVER {
		t.Errorf("sampling span %v", q)
	}
}

// TestOTLPEndpointFromEnvironment: with no --otlp-endpoint, the standard
// OTEL_EXPORTER_OTLP_ENDPOINT decides where spans go.
func TestOTLPEndpointFromEnvironment(t *testing.T) {
	r, srv := newReceiver(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
	t.Setenv("OTEL_SERVICE_NAME", "my-inspector")
	if !Enabled("", func(k string) string { return map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": srv.URL}[k] }) {
		t.Fatal("not enabled by OTEL_EXPORTER_OTLP_ENDPOINT")
	}
	exportDemo(t, "")
	if len(r.byName(SessionSpanName)) != 1 {
		t.Fatalf("no session span arrived")
	}
	if r.res[0] != "my-inspector" {
		t.Errorf("service.name %q, want OTEL_SERVICE_NAME's", r.res[0])
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

