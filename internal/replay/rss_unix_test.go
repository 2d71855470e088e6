//go:build unix

package replay

import (
	"os"
	"syscall"
)

// peakRSS is the peak resident set of an ended process in KiB (bytes on
// macOS, which the limit then only makes stricter).
func peakRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	return int64(ru.Maxrss), true
}
