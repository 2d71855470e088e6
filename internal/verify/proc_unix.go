//go:build unix

package verify

import (
	"os/exec"
	"syscall"
)

// ownTree starts cmd in a process group of its own, so that killTree
// ends what it started too.
func ownTree(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killTree ends cmd's process group.
func killTree(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
