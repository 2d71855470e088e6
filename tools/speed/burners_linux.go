package main

import "syscall"

// burnerAttr makes a burner die with this program, should it be killed
// before it could stop them.
func burnerAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
