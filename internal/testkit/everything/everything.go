// Package everything finds @modelcontextprotocol/server-everything for
// integration tests: the copy in the user's cache directory (the one mcp's
// tests use), installed there with npm when it is missing (see npmcache).
package everything

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/testkit/e2e"
	"github.com/mcptui/mcptui/internal/testkit/npmcache"
)

// Package and Version are the server tested against.
const (
	Package = "@modelcontextprotocol/server-everything"
	Version = "2026.8.31"
)

// Server returns the command that runs the everything server on stdio.
func Server(t testing.TB) (command string, args []string) {
	t.Helper()
	e2e.Require(t)
	node := npmcache.Node(t, 20)
	entry := filepath.Join("node_modules", Package, "dist", "index.js")
	dir := npmcache.Install(t, "everything-"+Version, entry, Package+"@"+Version)
	return node, []string{filepath.Join(dir, entry), "stdio"}
}

// HTTPServer starts the everything server in one of its HTTP modes,
// "streamableHttp" (served at /mcp) or "sse" (the 2024-11-05 transport,
// its stream at /sse), on a free port of 127.0.0.1, and returns the URL to
// open. The server is stopped when the test ends.
func HTTPServer(t testing.TB, mode string) string {
	t.Helper()
	node, args := Server(t)
	path := map[string]string{"streamableHttp": "/mcp", "sse": "/sse"}[mode]
	if path == "" {
		t.Fatalf("everything: no HTTP mode %q (streamableHttp or sse)", mode)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	cmd := exec.Command(node, args[0], mode)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(port))
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	exited, err := e2e.Start(cmd) // gone with the test binary, even killed
	if err != nil {
		t.Fatalf("everything %s: %v", mode, err)
	}
	t.Cleanup(func() {
		killGroup(cmd)
		<-exited
	})
	// Ready when this process says it listens on the port (both modes end
	// their banner "on port N"): a dial alone could reach another test's
	// server that took the same port first, while this one failed to bind.
	banner := "on port " + strconv.Itoa(port)
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(out.String(), banner) {
		select {
		case <-exited:
			t.Fatalf("everything %s exited before listening: %s", mode, out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("everything %s did not say it listens on port %d within a minute: %s", mode, port, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The express app listens on every interface; the Host header must
	// be a loopback name for its DNS-rebinding guard, so use localhost.
	return "http://localhost:" + strconv.Itoa(port) + path
}

// lockedBuffer is a bytes.Buffer the server's output goroutine writes
// while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
