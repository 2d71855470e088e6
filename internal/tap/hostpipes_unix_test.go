//go:build unix

package tap

import (
	"os"
	"syscall"
)

// haveSocketPairs: hosts built on libuv give their servers socket pairs.
const haveSocketPairs = true

// blockingPipe is a pipe whose ends block, as a host's usually are (Go's
// own pipes are non-blocking): the fast path must wait on them itself.
func blockingPipe() (r, w *os.File, err error) {
	var fds [2]int
	if err := syscall.Pipe(fds[:]); err != nil {
		return nil, nil, err
	}
	syscall.CloseOnExec(fds[0])
	syscall.CloseOnExec(fds[1])
	return os.NewFile(uintptr(fds[0]), "host-r"), os.NewFile(uintptr(fds[1]), "host-w"), nil
}

// socketPair is a connected pair of unix sockets standing for a pipe (r
// the reading end), as hosts built on libuv (Node, Electron) give their
// servers.
func socketPair() (r, w *os.File, err error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, nil, err
	}
	syscall.CloseOnExec(fds[0])
	syscall.CloseOnExec(fds[1])
	return os.NewFile(uintptr(fds[0]), "host-sock-r"), os.NewFile(uintptr(fds[1]), "host-sock-w"), nil
}

// nonblockingSocketPair is socketPair in non-blocking mode (in Go's
// poller), as a host that set its ends so leaves them.
func nonblockingSocketPair() (r, w *os.File, err error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, nil, err
	}
	for _, fd := range fds {
		syscall.CloseOnExec(fd)
		if err := syscall.SetNonblock(fd, true); err != nil {
			return nil, nil, err
		}
	}
	return os.NewFile(uintptr(fds[0]), "host-sock-r"), os.NewFile(uintptr(fds[1]), "host-sock-w"), nil
}
