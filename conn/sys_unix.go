//go:build unix

package conn

import (
	"os"
	"syscall"
)

// signalProcess sends sig to the server process alone.
func signalProcess(p *os.Process, sig syscall.Signal) error { return p.Signal(sig) }

// killGroup sends sig to every process of the group.
func killGroup(pgid int, sig syscall.Signal) error { return syscall.Kill(-pgid, sig) }

// killPID sends sig to one process.
func killPID(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }

// writeRaw is one write(2) on the pipe; with the pipe in non-blocking mode it
// returns EAGAIN instead of waiting.
func writeRaw(fd uintptr, b []byte) (int, error) {
	return syscall.Write(int(fd), b)
}
