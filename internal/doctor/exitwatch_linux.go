package doctor

import (
	"time"

	"golang.org/x/sys/unix"
)

// watchExit watches the process pid (a child of this process, alive now)
// and returns a function that reports when it exited, waiting at most
// until deadline: the process itself, not the pipes its children may hold.
// ok is false when it could not be watched or had not exited by then.
func watchExit(pid int) func(deadline time.Time) (at time.Time, ok bool) {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return func(time.Time) (time.Time, bool) { return time.Time{}, false }
	}
	exited := make(chan time.Time, 1)
	stop := make(chan struct{})
	go func() {
		defer unix.Close(fd)
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			select {
			case <-stop:
				return
			default:
			}
			// A pidfd is readable once its process has exited; the poll
			// is cut in slices so that stop is seen.
			n, err := unix.Poll(fds, 20)
			if err != nil && err != unix.EINTR {
				return
			}
			if n > 0 {
				exited <- time.Now()
				return
			}
		}
	}()
	return func(deadline time.Time) (time.Time, bool) {
		defer close(stop)
		select {
		case at := <-exited:
			return at, true
		default:
		}
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		select {
		case at := <-exited:
			return at, true
		case <-t.C:
			return time.Time{}, false
		}
	}
}
