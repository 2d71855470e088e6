//go:build unix

package conn

import (
	"os"
	"syscall"
)

// newProcessGroup starts the server as the leader of a new process group.
func newProcessGroup() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to the server's whole process group, falling back to
// the process alone.
func signalGroup(p *os.Process, sig syscall.Signal) error {
	if err := syscall.Kill(-p.Pid, sig); err == nil {
		return nil
	}
	return p.Signal(sig)
}

// writeRaw is one write(2) on the pipe; with the pipe in non-blocking mode it
// returns EAGAIN instead of waiting.
func writeRaw(fd uintptr, b []byte) (int, error) {
	return syscall.Write(int(fd), b)
}
