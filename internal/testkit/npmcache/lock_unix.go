//go:build unix

package npmcache

import (
	"os"
	"syscall"
)

// LockFile takes f's exclusive lock, waiting for it.
func LockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

// UnlockFile releases f's lock.
func UnlockFile(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
