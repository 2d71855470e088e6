//go:build unix

package app

import "syscall"

// signalPID sends sig to pid.
func signalPID(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }
