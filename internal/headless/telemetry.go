package headless

import (
	"context"
	"os"

	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/telemetry"
	"github.com/mcptui/mcptui/mcp"
)

// StartTelemetry starts the live tracing --otlp-endpoint (or the
// OTEL_EXPORTER_OTLP_* variables) asks for, for any mode; nil, nil when
// none is asked. The caller attaches it to the connection's options
// (Attach), tells it Ready once connected, and closes it at the end.
// command and args are the server's, when they are not cfg's (the demo).
func StartTelemetry(ctx context.Context, cfg *cli.Config, command string, args []string) (*telemetry.Live, error) {
	if !telemetry.Enabled(cfg.OTLPEndpoint, os.Getenv) {
		return nil, nil
	}
	return telemetry.StartLive(ctx, telemetry.LiveOptions{
		Endpoint: cfg.OTLPEndpoint, TraceParent: cfg.TraceParent,
		Session: telemetry.Session{Command: command, Args: args, HTTP: mcp.IsURL(command),
			Mode: cfg.Mode.String(), ForeignTraceParent: cfg.Mode == cli.ModeTap},
	})
}
