package demo

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/testkit/racechild"
)

// childEnv makes the test binary act as the demo server (the os/exec
// helper-process idiom): TestMain sees it and runs Serve on stdio instead
// of the tests.
const childEnv = "MCPTUI_DEMO_TEST_CHILD"

// clockEnv sets Config.ClockInterval in the child, so tests need not wait
// two seconds for a tick.
const clockEnv = "MCPTUI_DEMO_TEST_CLOCK"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		cfg := Config{}
		if d, err := time.ParseDuration(os.Getenv(clockEnv)); err == nil {
			cfg.ClockInterval = d
		}
		if err := cfg.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "demo child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	racechild.NoExitSleep() // the servers this binary starts are itself
	os.Exit(m.Run())
}
