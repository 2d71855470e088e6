package e2e

import "os"

// stillRuns reports whether process pid can still be found (on Windows a
// process that exited may be found while a handle to it is open).
func stillRuns(pid int) (bool, error) {
	_, err := os.FindProcess(pid)
	return err == nil, err
}
