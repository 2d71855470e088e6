//go:build unix

package everything

import (
	"os/exec"
	"syscall"
)

// killGroup kills cmd's process group.
func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
