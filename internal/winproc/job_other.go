//go:build !windows

package winproc

import (
	"errors"
	"os/exec"
)

// Supported reports whether Job Objects exist here.
const Supported = false

var errNoJobs = errors.New("winproc: Job Objects exist only on Windows")

// Job is a Job Object; there are none here.
type Job struct{}

// NewJob fails: there are no Job Objects here.
func NewJob() (*Job, error) { return nil, errNoJobs }

// Prepare leaves cmd as it is.
func Prepare(*exec.Cmd) {}

// Adopt fails: there are no Job Objects here.
func (*Job) Adopt(int) error { return errNoJobs }

// Active is -1: there are no Job Objects here.
func (*Job) Active() int { return -1 }

// PIDs is empty here.
func (*Job) PIDs() []int { return nil }

// ProcessName is "" here.
func ProcessName(int) string { return "" }

// Terminate fails: there are no Job Objects here.
func (*Job) Terminate(uint32) error { return errNoJobs }

// Close does nothing here.
func (*Job) Close() error { return nil }

// Apply sets c's Path and Args on cmd (there is no command line to set
// here).
func Apply(cmd *exec.Cmd, c Command) {
	cmd.Path = c.Path
	cmd.Args = c.Args
}
