package main

import (
	"testing"
	"time"
)

// TestCPULine: the report's CPU line, as tools/speed's flood case reads
// it (its parser's test holds the same line).
func TestCPULine(t *testing.T) {
	got := cpuLine(4.07, 10100*time.Millisecond)
	want := "  CPU       4.07 s, 0.40 cores (the inspector process's user+sys, getrusage; the server's apart)"
	if got != want {
		t.Errorf("cpuLine = %q; want %q", got, want)
	}
}

// TestSelfCPUCounts: the process's CPU grows as it works.
func TestSelfCPUCounts(t *testing.T) {
	c0, ok := selfCPU()
	if !ok {
		t.Skip("no getrusage here")
	}
	x := 0
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); {
		for i := range 1_000_000 {
			x += i
		}
		if c, _ := selfCPU(); c > c0 {
			return
		}
	}
	t.Errorf("selfCPU stayed %v through a minute of work (%d)", c0, x)
}
