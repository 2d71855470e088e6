//go:build unix

package proctree

import (
	"os/exec"
	"syscall"
)

// newSession starts cmd in a session of its own (out of the group).
func newSession(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }

// kill sends SIGKILL to pid.
func kill(pid int) { _ = syscall.Kill(pid, syscall.SIGKILL) }
