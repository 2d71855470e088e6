//go:build unix && !linux

package e2e

import "syscall"

// ChildAttr is what a kit starts a long-running child with: its own process
// group, so that the kit can end all of it (there is no parent-death signal
// here).
func ChildAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
