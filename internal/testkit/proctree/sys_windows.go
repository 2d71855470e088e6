package proctree

import (
	"os"
	"os/exec"
)

// newSession does nothing: Windows has no sessions to leave (and a Job
// Object holds its children anyway).
func newSession(*exec.Cmd) {}

// kill ends pid.
func kill(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
