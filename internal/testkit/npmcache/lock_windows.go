package npmcache

import (
	"os"

	"golang.org/x/sys/windows"
)

// LockFile takes f's exclusive lock, waiting for it.
func LockFile(f *os.File) error {
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, new(windows.Overlapped))
}

// UnlockFile releases f's lock.
func UnlockFile(f *os.File) error {
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, new(windows.Overlapped))
}
