// Package everything finds @modelcontextprotocol/server-everything for
// integration tests: the copy in the user's cache directory (the one mcp's
// tests use), installed there with npm when it is missing. A test that
// cannot have it is skipped, saying why.
package everything

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Package and Version are the server tested against.
const (
	Package = "@modelcontextprotocol/server-everything"
	Version = "2026.8.31"
)

// Server returns the command that runs the everything server on stdio.
func Server(t testing.TB) (command string, args []string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("SKIP: no node to run %s (%v)", Package, err)
	}
	if major(node) < 20 {
		t.Skipf("SKIP: %s needs node 20 or later", Package)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "mcptui-test", "everything-"+Version)
	script := filepath.Join(dir, "node_modules", Package, "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		install(t, dir, script)
	}
	return node, []string{script, "stdio"}
}

// install runs npm install into dir, one installer at a time.
func install(t testing.TB, dir, script string) {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("SKIP: %s is not in %s and there is no npm (nor npx) to install it: %v", Package, dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Skipf("SKIP: cannot create %s: %v", dir, err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, ".install.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Skipf("SKIP: cannot lock %s: %v", dir, err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Skipf("SKIP: cannot lock %s: %v", dir, err)
	}
	defer func() { _ = syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) }()
	if _, err := os.Stat(script); err == nil {
		return // another test installed it meanwhile
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, npm, "install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error",
		Package+"@"+Version).CombinedOutput()
	if err != nil {
		t.Skipf("SKIP: npm install %s@%s into %s failed: %v\n%s", Package, Version, dir, err, out)
	}
}

// major is node's major version, 0 when unknown.
func major(node string) int {
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return 0
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	n, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	return n
}
