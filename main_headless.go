package main

import (
	"context"
	"io"

	"github.com/mcptui/mcptui/cli"
)

// headlessMode reports whether cfg asks for a command that prints instead of
// opening the inspector.
func headlessMode(cfg *cli.Config) bool { return false }

// runHeadless runs a headless command and returns its exit status.
func runHeadless(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int { return 2 }
