//go:build unix

package tmuxtest

import "syscall"

// processExists reports whether a process with this pid exists.
func processExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}

// watcherAttr starts the watcher in a process group of its own.
func watcherAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
