//go:build !unix

package load

import "time"

// selfCPU is not read here (no getrusage): mcptui's own CPU shows as 0.
func selfCPU() time.Duration { return 0 }
