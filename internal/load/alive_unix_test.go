//go:build unix

package load

import "syscall"

// processAlive reports whether process pid still exists.
func processAlive(pid int) bool { return syscall.Kill(pid, 0) == nil }
