//go:build !unix

package tmuxtest

import (
	"os"
	"syscall"
)

// processExists reports whether a process with this pid exists.
func processExists(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}

// watcherAttr is nothing here.
func watcherAttr() *syscall.SysProcAttr { return nil }
