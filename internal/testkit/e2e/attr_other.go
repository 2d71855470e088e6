//go:build !unix

package e2e

import "syscall"

// ChildAttr is nil where there are no process groups.
func ChildAttr() *syscall.SysProcAttr { return nil }
