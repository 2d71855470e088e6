package e2e

import "syscall"

// ChildAttr is what a kit starts a long-running child with (a server, a
// daemon): its own process group, so that the kit can end all of it, and a
// parent-death signal, so that it does not outlive a test binary that was
// killed before its cleanup ran.
func ChildAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
