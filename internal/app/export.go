package app

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"go.opentelemetry.io/otel/trace"

	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/export"
	"github.com/mcptui/mcptui/internal/headless"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/telemetry"
)

// runExport is mcptui export: the recording at cfg.Target in the format
// cfg.Format asks for.
func runExport(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	fail := func(code int, err error) int {
		fmt.Fprintf(stderr, "mcptui export: %s\n", inert.Line(err.Error()))
		return code
	}
	rec, err := record.OpenLimited(cfg.Target, cfg.MaxLineBytes)
	if err != nil {
		return fail(headless.ExitUsage, err)
	}
	if cfg.Format == "otlp" {
		return exportOTLP(ctx, cfg, rec, stdout, fail)
	}
	s := export.Build(rec)
	var x *export.Exchange
	if cfg.Export.Call != "" {
		if x = s.Find(cfg.Export.Call); x == nil {
			return fail(headless.ExitUsage, fmt.Errorf("%s has no request with id %s (mcptui export --format markdown %s lists them)", cfg.Target, cfg.Export.Call, cfg.Target))
		}
	}
	var b bytes.Buffer
	switch {
	case cfg.Format == "har":
		err = export.WriteHAR(&b, s, version())
	case cfg.Format == "markdown" && x != nil:
		// The post-mortem lists the live lint's findings on the call's
		// lines, judged as the inspector judges them.
		s.Lint(rec, liveLint())
		err = export.WritePostMortem(&b, s, x, cfg.Target)
	case cfg.Format == "markdown":
		err = export.WriteSummary(&b, s, cfg.Target)
	default:
		err = export.WriteJSON(&b, s)
	}
	if err != nil {
		return fail(headless.ExitInternal, err)
	}
	if cfg.Export.Output == "" {
		if _, err := stdout.Write(b.Bytes()); err != nil {
			return fail(headless.ExitInternal, err)
		}
		return headless.ExitOK
	}
	if err := os.WriteFile(cfg.Export.Output, b.Bytes(), 0o600); err != nil {
		return fail(headless.ExitInternal, err)
	}
	return headless.ExitOK
}

// exportOTLP sends the recording's spans to the OTLP endpoint.
func exportOTLP(ctx context.Context, cfg *cli.Config, rec *record.Recording, stdout io.Writer, fail func(int, error) int) int {
	if !telemetry.Enabled(cfg.OTLPEndpoint, os.Getenv) {
		return fail(headless.ExitUsage, fmt.Errorf("--format otlp sends spans: give --otlp-endpoint URL (or set OTEL_EXPORTER_OTLP_ENDPOINT)"))
	}
	var parent trace.SpanContext
	if cfg.TraceParent != "" {
		parent, _ = telemetry.ParseTraceParent(cfg.TraceParent) // checked by cli
	}
	p, err := telemetry.NewProvider(ctx, cfg.OTLPEndpoint)
	if err != nil {
		return fail(headless.ExitUsage, err)
	}
	traceID := telemetry.TraceRecording(p, rec, parent)
	if err := p.Shutdown(ctx); err != nil {
		return fail(headless.ExitConnection, fmt.Errorf("sending the spans: %w", err))
	}
	fmt.Fprintf(stdout, "sent the spans of %s: trace %s\n", cfg.Target, traceID)
	return headless.ExitOK
}
