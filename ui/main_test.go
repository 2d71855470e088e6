package ui

import (
	"context"
	"os"
	"testing"

	"github.com/mcptui/mcptui/demo"
)

// demoEnv makes the test binary serve the demo server (for live tests).
const demoEnv = "MCPTUI_UI_DEMO"

func TestMain(m *testing.M) {
	if mode := os.Getenv(hostileEnv); mode != "" {
		os.Exit(runHostile(mode))
	}
	if os.Getenv(demoEnv) != "" {
		if err := demo.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
