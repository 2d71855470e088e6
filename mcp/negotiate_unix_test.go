//go:build unix

package mcp

import (
	"errors"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFailedConnectStopsTheServer: a Connect that fails after the process
// started leaves no process behind, even one that ignores EOF.
func TestFailedConnectStopsTheServer(t *testing.T) {
	s := newFake(t, "legacy-stubborn", "answer-2023")
	s.opts.ShutdownGrace = 50 * time.Millisecond
	if _, err := s.connect(testCtx(t)); err == nil {
		t.Fatal("Connect succeeded")
	}
	pids := strings.Fields(readFile(t, s.spawnLog))
	if len(pids) != 1 {
		t.Fatalf("spawned %v", pids)
	}
	pid, _ := strconv.Atoi(pids[0])
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("process %d still there after Connect failed: kill(0) = %v", pid, err)
	}
}
