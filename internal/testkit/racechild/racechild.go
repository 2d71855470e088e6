// Package racechild spares the children of a test binary the race
// runtime's sleep at exit. A program built with -race sleeps
// atexit_sleep_ms (a second by default) before it exits, every time; a test
// binary that re-executes itself as a server (the zoo, doctor's and
// headless's servers, the demo) paid that second for every server it
// started and stopped.
package racechild

import (
	"os"
	"strings"
)

// NoExitSleep adds atexit_sleep_ms=0 to GORACE for every process started
// from now on. Call it in TestMain, before m.Run, where nothing runs
// concurrently yet.
func NoExitSleep() {
	_ = os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
}
