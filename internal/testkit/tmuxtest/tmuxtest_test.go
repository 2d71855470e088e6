package tmuxtest

import (
	"os"
	"testing"
)

// TestCleanupRemovesTheSocket: a finished test leaves no tmux socket file
// behind (the e2e suites start hundreds of servers; their files piled up in
// /tmp/tmux-UID).
func TestCleanupRemovesTheSocket(t *testing.T) {
	Require(t)
	var path string
	t.Run("term", func(t *testing.T) {
		x := Start(t, "cleanup", 40, 10, "sleep 600")
		path = x.SocketPath()
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("the socket %s is not there while the session runs: %v", path, err)
		}
	})
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the socket %s is still there after the test ended (stat: %v)", path, err)
	}
}
