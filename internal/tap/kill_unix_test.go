//go:build unix

package tap

import (
	"os"
	"syscall"
)

// killSelf dies of SIGKILL.
func killSelf() { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL) }
