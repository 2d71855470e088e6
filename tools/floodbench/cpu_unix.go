//go:build unix

package main

import "syscall"

// selfCPU is the CPU this process has used so far, user and system, in
// seconds: its own, not the flood server's (a child); ok false where the
// system does not tell it.
func selfCPU() (seconds float64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9, true
}
