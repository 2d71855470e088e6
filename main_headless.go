package main

import (
	"context"
	"io"

	"github.com/mcptui/mcptui/cli"
	"github.com/mcptui/mcptui/headless"
)

// headlessMode reports whether cfg asks for a command that prints instead of
// opening the inspector.
func headlessMode(cfg *cli.Config) bool { return cfg.Mode.Headless() }

// runHeadless runs a headless command and returns its exit status.
func runHeadless(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	return headless.Run(ctx, cfg, stdout, stderr)
}
