//go:build unix

package main

import "syscall"

// kill sends SIGKILL to pid.
func kill(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }
