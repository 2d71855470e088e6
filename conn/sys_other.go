//go:build !unix && !windows

package conn

import (
	"os"
	"syscall"
)

// processAttr leaves the process group as it is where there are none.
func processAttr() *syscall.SysProcAttr { return nil }

// groupID is 0 where there are no process groups.
func groupID(pid int) int { return 0 }

// signalProcess sends sig to the server process (SIGKILL becomes Kill).
func signalProcess(p *os.Process, sig syscall.Signal) error {
	if sig == syscall.SIGKILL {
		return p.Kill()
	}
	return p.Signal(sig)
}

// killGroup is never called where there are no groups.
func killGroup(pgid int, sig syscall.Signal) error { return syscall.EINVAL }

// killPID is never called where processes cannot be listed.
func killPID(pid int, sig syscall.Signal) error { return syscall.EINVAL }

// groupAlive is false where there are no groups.
func groupAlive(pgid int) bool { return false }

// markedProcesses finds nothing where processes cannot be listed.
func markedProcesses(marker string, pgid int) []Stray { return nil }

// writeRaw writes nothing here: every line goes through the writer
// goroutine, whose writes may block.
func writeRaw(fd uintptr, b []byte) (int, error) {
	return 0, syscall.EAGAIN
}

// pipeBacklog is 0 here: what a pipe holds is not asked for.
func pipeBacklog(f *os.File) int64 { return 0 }
