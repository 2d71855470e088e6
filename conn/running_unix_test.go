//go:build unix

package conn_test

import "syscall"

// running is nil when process pid exists (kill 0), else why not.
func running(pid int) error { return syscall.Kill(pid, 0) }
