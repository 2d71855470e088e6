package tap

import (
	"fmt"
	"net"
	"os"
	"strings"
	"syscall"
)

// serverAttr puts the server in a process group of its own (so that the
// tap can end everything it started) and has the kernel kill it if the tap
// dies without stopping it (SIGKILL of the tap).
func serverAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// checkPeer refuses a viewer that is not the user running the tap (the
// directory's permissions already keep others out; this is the second
// lock).
func checkPeer(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return fmt.Errorf("tap: peer: %w", err)
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return fmt.Errorf("tap: peer: %w", err)
	}
	if cerr != nil {
		return fmt.Errorf("tap: peer: %w", cerr)
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("tap: viewer uid %d is not ours (%d)", cred.Uid, os.Getuid())
	}
	return nil
}

// processName is the name of the process pid ("" when unknown).
func processName(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
