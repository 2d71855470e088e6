// Package e2e is the one switch between the default test suite and the slow
// end-to-end one. `go test ./...` runs what is cheap; with MCPTUI_E2E=1 set
// it also runs every end-to-end test: real published servers (npm, the Go
// SDK), the real binary driven through tmux, the screenshots. CI runs both
// (see .ci/run); `bash .ci/run` runs everything CI runs.
//
// The kits that start those things (everything, realservers, tmuxtest) call
// Require themselves, so a test that uses one is end-to-end without saying
// so; a test that is end-to-end for another reason calls Require first.
package e2e

import (
	"os"
	"testing"
)

// Env is the variable that turns the end-to-end tests on ("1").
const Env = "MCPTUI_E2E"

// Enabled reports whether the end-to-end tests run.
func Enabled() bool { return os.Getenv(Env) == "1" }

// Require skips the test, saying how to run it, unless the end-to-end tests
// are on.
func Require(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skip("end-to-end: runs with " + Env + "=1 (bash .ci/run runs it)")
	}
}
