package main

import (
	"fmt"
	"os"
	"os/exec"

	"golang.org/x/sys/unix"
)

// growStdio grows the pipes of the process's stdin and stdout to 1 MiB, as
// a tap grows the host's (a refusal leaves them as they were).
func growStdio() {
	for _, fd := range []uintptr{0, 1} {
		_, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, 1<<20)
	}
}

// socketStdio gives cmd a socketpair for its stdin and one for its stdout,
// as a Node (libuv) host gives its servers, and returns the host's ends;
// done closes the child's ends once it has started.
func socketStdio(cmd *exec.Cmd) (w *os.File, r *os.File, done func(), err error) {
	in, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("socketpair: %w", err)
	}
	out, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		unix.Close(in[0])
		unix.Close(in[1])
		return nil, nil, nil, fmt.Errorf("socketpair: %w", err)
	}
	childIn, childOut := os.NewFile(uintptr(in[1]), "child stdin"), os.NewFile(uintptr(out[1]), "child stdout")
	cmd.Stdin, cmd.Stdout = childIn, childOut
	return os.NewFile(uintptr(in[0]), "host stdin end"), os.NewFile(uintptr(out[0]), "host stdout end"),
		func() { childIn.Close(); childOut.Close() }, nil
}
