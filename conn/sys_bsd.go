//go:build unix && !linux

package conn

import (
	"os"
	"syscall"
)

// processAttr starts the server as the leader of its own process group.
func processAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// groupID is the group the child leads: its pid.
func groupID(pid int) int { return pid }

// groupAlive reports whether any process of the group exists.
func groupAlive(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	return err == nil || err == syscall.EPERM
}

// markedProcesses finds nothing here: there is no /proc to search.
func markedProcesses(marker string, pgid int) []Stray { return nil }

// pipeBacklog is 0 here: what a pipe holds is not asked for.
func pipeBacklog(f *os.File) int64 { return 0 }
