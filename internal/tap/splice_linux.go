package tap

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// canSplice says the pump can relay inside the kernel here.
const canSplice = true

// pipeSize is what the tap asks the kernel for the server's pipes (the
// unprivileged maximum by default): fewer, larger hops between the tap and
// the server.
const pipeSize = 1 << 20

// growPipe enlarges a pipe's buffer; a refusal leaves it as it was.
func growPipe(f *os.File) {
	if raw, err := f.SyscallConn(); err == nil {
		_ = raw.Control(func(fd uintptr) { _, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeSize) })
	}
}

// splicer moves bytes from one descriptor to another inside the kernel
// (splice(2)), one end at least being a pipe: no copy through the tap.
// It never looks at the bytes, so the pump uses it only for what neither a
// breakpoint nor the feed needs to see.
type splicer struct {
	src, dst         syscall.RawConn
	srcWait, dstWait bool // the descriptor is in Go's poller (else it blocks)
}

// newSplicer is a splicer from r to w, or nil when they are not both
// descriptors splice can join (the pump then copies).
func newSplicer(r io.Reader, w io.Writer) *splicer {
	rf, ok1 := r.(*os.File)
	wf, ok2 := w.(*os.File)
	if !ok1 || !ok2 {
		return nil
	}
	rk, rWait, ok1 := kindOf(rf)
	wk, wWait, ok2 := kindOf(wf)
	if !ok1 || !ok2 || (rk != unix.S_IFIFO && wk != unix.S_IFIFO) {
		return nil
	}
	if rk != unix.S_IFIFO && rk != unix.S_IFSOCK {
		return nil
	}
	src, err1 := rf.SyscallConn()
	dst, err2 := wf.SyscallConn()
	if err1 != nil || err2 != nil {
		return nil
	}
	return &splicer{src: src, dst: dst, srcWait: rWait, dstWait: wWait}
}

// kindOf is a descriptor's file type and whether it is non-blocking (in
// Go's poller).
func kindOf(f *os.File) (kind uint32, nonblocking, ok bool) {
	raw, err := f.SyscallConn()
	if err != nil {
		return 0, false, false
	}
	var st unix.Stat_t
	var serr error
	var flags int
	var ferr error
	if err := raw.Control(func(fd uintptr) {
		serr = unix.Fstat(int(fd), &st)
		flags, ferr = unix.FcntlInt(fd, unix.F_GETFL, 0)
	}); err != nil || serr != nil || ferr != nil {
		return 0, false, false
	}
	return st.Mode & unix.S_IFMT, flags&unix.O_NONBLOCK != 0, true
}

// ready waits until the source has bytes or has ended, and returns how
// many it holds (0: it ended, failed, or something a read must tell
// apart). Nothing is taken from it. (TIOCINQ is FIONREAD: the bytes a pipe
// or socket holds.)
func (s *splicer) ready() (int, error) {
	var avail int
	woken := false
	err := s.src.Read(func(fd uintptr) bool {
		for {
			n, err := unix.IoctlGetInt(int(fd), unix.TIOCINQ)
			if err != nil || n > 0 {
				avail = n
				return true
			}
			if s.srcWait {
				if woken {
					return true // an end, or bytes gone: a read tells
				}
				// An end that came before Go's poller was armed wakes
				// nobody: look once.
				fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
				if _, err := unix.Poll(fds, 0); err != nil || fds[0].Revents != 0 {
					avail, _ = unix.IoctlGetInt(int(fd), unix.TIOCINQ)
					return true
				}
				woken = true
				return false // Go's poller waits
			}
			// A blocking descriptor: wait here.
			fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
			if _, err := unix.Poll(fds, -1); err != nil && !errors.Is(err, unix.EINTR) {
				return true
			}
			if fds[0].Revents != 0 {
				if n, err := unix.IoctlGetInt(int(fd), unix.TIOCINQ); err == nil {
					avail = n
				}
				return true // bytes, or an end a read tells
			}
		}
	})
	return avail, err
}

// errNoSplice says splice cannot join these descriptors: nothing was moved.
var errNoSplice = errors.New("tap: splice not supported here")

// move moves exactly n bytes from the source (which holds at least n) to
// the destination, waiting while the destination is full.
func (s *splicer) move(n int) error {
	moved := 0
	var serr, werr error
	err := s.src.Control(func(sfd uintptr) {
		werr = s.dst.Write(func(dfd uintptr) bool {
			for moved < n {
				m, err := unix.Splice(int(sfd), nil, int(dfd), nil, n-moved, unix.SPLICE_F_MOVE|unix.SPLICE_F_NONBLOCK)
				switch {
				case m > 0:
					moved += int(m)
				case err == nil:
					serr = io.ErrUnexpectedEOF // the source said it held more
					return true
				case errors.Is(err, unix.EINTR):
				case errors.Is(err, unix.EAGAIN):
					if s.dstWait {
						return false // Go's poller waits until it can take more
					}
					fds := []unix.PollFd{{Fd: int32(dfd), Events: unix.POLLOUT}}
					_, _ = unix.Poll(fds, -1)
				case (errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS)) && moved == 0:
					serr = errNoSplice
					return true
				default:
					serr = err
					return true
				}
			}
			return true
		})
	})
	if err == nil {
		err = werr
	}
	if err != nil {
		return fmt.Errorf("tap: splice: %w", err)
	}
	if serr != nil && !errors.Is(serr, errNoSplice) {
		return fmt.Errorf("tap: splice: %w", serr)
	}
	return serr
}
