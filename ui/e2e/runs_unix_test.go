//go:build unix

package e2e

import (
	"errors"
	"syscall"
)

// stillRuns reports whether process pid exists, and what kill(0) said.
func stillRuns(pid int) (bool, error) {
	err := syscall.Kill(pid, 0)
	return !errors.Is(err, syscall.ESRCH), err
}
