//go:build !linux

package main

import "syscall"

// burnerAttr: no parent-death signal here; stop (on every way the run
// ends but SIGKILL) kills the burners.
func burnerAttr() *syscall.SysProcAttr { return nil }
