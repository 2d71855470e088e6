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

// pollable is f opened anew, non-blocking, when f is a blocking pipe (the
// host's stdin or stdout, as a host hands them): the pipe opened again
// through /proc is a second open file of the same pipe, with flags of its
// own, so the host's end keeps its own while the tap waits on the pipe in
// Go's poller, as on the server's pipes (fewer context switches than a
// thread blocked in a read), and closing this file ends a read still
// waiting. nil: keep f (not a pipe, already non-blocking, or /proc
// refused); the caller closes what it got.
//
// A blocking socket (a libuv host's socketpair) cannot be opened again:
// pollable duplicates it and makes its open file non-blocking, which the
// host's own end (the pair's other socket) does not share; restoreBlocking
// sets it back once the pumps are done with it, for whatever process may
// still hold it (a launching shell's stdin).
func pollable(f *os.File, write bool) *os.File {
	kind, nonblocking, ok := kindOf(f)
	if ok && kind == unix.S_IFSOCK && !nonblocking {
		var fd int
		var err error
		if cerr := control(f, func(orig int) { fd, err = unix.FcntlInt(uintptr(orig), unix.F_DUPFD_CLOEXEC, 0) }); cerr != nil || err != nil {
			return nil
		}
		if err := unix.SetNonblock(fd, true); err != nil {
			_ = unix.Close(fd)
			return nil
		}
		return os.NewFile(uintptr(fd), f.Name())
	}
	if !ok || kind != unix.S_IFIFO || nonblocking {
		return nil
	}
	mode := unix.O_RDONLY
	if write {
		mode = unix.O_WRONLY
	}
	fd, err := unix.Open(fmt.Sprintf("/proc/self/fd/%d", f.Fd()), mode|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	var a, b unix.Stat_t
	if unix.Fstat(fd, &a) != nil || unix.Fstat(int(f.Fd()), &b) != nil || a.Dev != b.Dev || a.Ino != b.Ino {
		_ = unix.Close(fd)
		return nil
	}
	return os.NewFile(uintptr(fd), f.Name())
}

// restoreBlocking sets f's open file blocking again, as pollable found it
// (a closed f is left alone).
func restoreBlocking(f *os.File) {
	_ = control(f, func(fd int) { _ = unix.SetNonblock(fd, false) })
}

// control runs fn on f's descriptor without changing its mode (Fd would).
func control(f *os.File, fn func(fd int)) error {
	raw, err := f.SyscallConn()
	if err != nil {
		return err
	}
	return raw.Control(func(fd uintptr) { fn(int(fd)) })
}

// splicer moves bytes from one descriptor to another inside the kernel
// (splice(2)), each a pipe or a socket: no copy through the tap. It never
// looks at the bytes, so the pump uses it only for what neither a
// breakpoint nor the feed needs to see.
//
// A batch goes through a private pipe (via): its bytes but the last are
// spliced in, the pump reads the last itself (to know whether a line ends
// there) and writes it behind them, and the whole batch goes on in one
// splice. The reader on the other end is woken once a batch and reads
// whole lines, rather than the batch and then its last byte apart (which
// doubled the wake-ups, reads and writes of everything downstream).
type splicer struct {
	src, dst         syscall.RawConn
	srcWait, dstWait bool // the descriptor is in Go's poller (else it blocks)
	viaR, viaW       int  // the private pipe, both ends non-blocking
	inVia            int  // bytes waiting in it
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
	if !ok1 || !ok2 || !spliceable(rk) || !spliceable(wk) {
		return nil
	}
	src, err1 := rf.SyscallConn()
	dst, err2 := wf.SyscallConn()
	if err1 != nil || err2 != nil {
		return nil
	}
	var via [2]int
	if err := unix.Pipe2(via[:], unix.O_CLOEXEC|unix.O_NONBLOCK); err != nil {
		return nil
	}
	_, _ = unix.FcntlInt(uintptr(via[1]), unix.F_SETPIPE_SZ, pipeSize)
	return &splicer{src: src, dst: dst, srcWait: rWait, dstWait: wWait, viaR: via[0], viaW: via[1]}
}

// spliceable says splice can read or write a descriptor of this kind.
func spliceable(kind uint32) bool { return kind == unix.S_IFIFO || kind == unix.S_IFSOCK }

// close frees the private pipe.
func (s *splicer) close() {
	if s == nil {
		return
	}
	_ = unix.Close(s.viaR)
	_ = unix.Close(s.viaW)
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

// gather moves exactly n bytes from the source (which holds at least n)
// into the private pipe, sending on what it holds when it is full.
func (s *splicer) gather(n int) error {
	moved := 0
	var serr error
	err := s.src.Control(func(sfd uintptr) {
		for moved < n && serr == nil {
			m, err := unix.Splice(int(sfd), nil, s.viaW, nil, n-moved, unix.SPLICE_F_MOVE|unix.SPLICE_F_NONBLOCK)
			switch {
			case m > 0:
				moved += int(m)
				s.inVia += int(m)
			case err == nil:
				serr = io.ErrUnexpectedEOF // the source said it held more
			case errors.Is(err, unix.EINTR):
			case errors.Is(err, unix.EAGAIN) && s.inVia > 0: // the private pipe is full
				serr = s.flush()
			case (errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS)) && moved == 0 && s.inVia == 0:
				serr = errNoSplice
			case errors.Is(err, unix.EAGAIN):
				serr = io.ErrUnexpectedEOF // the source said it held more
			default:
				serr = err
			}
		}
	})
	if err == nil {
		err = serr
	}
	if err != nil && !errors.Is(err, errNoSplice) {
		return fmt.Errorf("tap: splice: %w", err)
	}
	return err
}

// add writes b behind what the private pipe holds.
func (s *splicer) add(b []byte) error {
	for len(b) > 0 {
		m, err := unix.Write(s.viaW, b)
		switch {
		case m > 0:
			b = b[m:]
			s.inVia += m
		case errors.Is(err, unix.EINTR):
		case errors.Is(err, unix.EAGAIN):
			if err := s.flush(); err != nil {
				return err
			}
		default:
			return fmt.Errorf("tap: splice: %w", err)
		}
	}
	return nil
}

// flush moves what the private pipe holds to the destination, waiting
// while the destination is full.
func (s *splicer) flush() error {
	var serr error
	err := s.dst.Write(func(dfd uintptr) bool {
		for s.inVia > 0 {
			m, err := unix.Splice(s.viaR, nil, int(dfd), nil, s.inVia, unix.SPLICE_F_MOVE|unix.SPLICE_F_NONBLOCK)
			switch {
			case m > 0:
				s.inVia -= int(m)
			case err == nil:
				serr = io.ErrUnexpectedEOF // the private pipe said it held more
				return true
			case errors.Is(err, unix.EINTR):
			case errors.Is(err, unix.EAGAIN):
				if s.dstWait {
					return false // Go's poller waits until it can take more
				}
				fds := []unix.PollFd{{Fd: int32(dfd), Events: unix.POLLOUT}}
				_, _ = unix.Poll(fds, -1)
			default:
				serr = err
				return true
			}
		}
		return true
	})
	if err == nil {
		err = serr
	}
	if err != nil {
		return fmt.Errorf("tap: splice: %w", err)
	}
	return nil
}
