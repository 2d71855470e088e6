//go:build !unix

package conn

import (
	"os"
	"syscall"
)

// newProcessGroup leaves the process group as it is where there are none.
func newProcessGroup() *syscall.SysProcAttr { return nil }

// signalGroup sends sig to the server process (SIGKILL becomes Kill).
func signalGroup(p *os.Process, sig syscall.Signal) error {
	if sig == syscall.SIGKILL {
		return p.Kill()
	}
	return p.Signal(sig)
}

// writeRaw writes nothing here: every line goes through the writer
// goroutine, whose writes may block.
func writeRaw(fd uintptr, b []byte) (int, error) {
	return 0, syscall.EAGAIN
}
