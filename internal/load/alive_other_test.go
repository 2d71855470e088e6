//go:build !unix

package load

import "os"

// processAlive reports whether process pid still exists (FindProcess
// opens it on Windows, and fails for one that has gone).
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
