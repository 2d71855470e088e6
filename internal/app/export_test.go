package app

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/telemetry"
	"github.com/mcptui/mcptui/internal/telemetry/otlptest"
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
