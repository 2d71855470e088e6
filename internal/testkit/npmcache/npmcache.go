// Package npmcache installs npm packages for integration tests into the
// user's cache directory (under mcptui-test/NAME), once, one installer at a
// time (a file lock shared by every test process). A test that cannot have
// them is skipped only when the npm registry cannot be reached; any other
// failure fails it.
package npmcache

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/testkit/e2e"
)

// Dir is where the packages installed under name live (it may not exist).
func Dir(name string) string {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	return filepath.Join(cache, "mcptui-test", name)
}

// Module is the directory of package pkg installed in dir.
func Module(dir, pkg string) string {
	return filepath.Join(dir, "node_modules", filepath.FromSlash(pkg))
}

// Node returns the node executable, skipping the test when the end-to-end
// tests are off (see package e2e), or when there is no node or it is older
// than minMajor.
func Node(t testing.TB, minMajor int) string {
	t.Helper()
	e2e.Require(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("SKIP: no node to run the npm servers (%v)", err)
	}
	if Major(node) < minMajor {
		t.Skipf("SKIP: the npm servers need node %d or later", minMajor)
	}
	return node
}

// Major is node's major version, 0 when unknown.
func Major(node string) int {
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return 0
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	n, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	return n
}

// Install makes sure the npm packages specs ("name@version") are installed
// in Dir(name), whose file marker (a path inside it, such as a package's
// entry point) proves an earlier install, and returns the directory.
func Install(t testing.TB, name, marker string, specs ...string) string {
	t.Helper()
	e2e.Require(t)
	dir := Dir(name)
	if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
		return dir
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("SKIP: %v are not in %s and there is no npm to install them: %v", specs, dir, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("cannot create %s: %v", dir, err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, ".install.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatalf("cannot lock %s: %v", dir, err)
	}
	defer lock.Close()
	if err := LockFile(lock); err != nil {
		t.Fatalf("cannot lock %s: %v", dir, err)
	}
	defer func() { _ = UnlockFile(lock) }()
	if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
		return dir // another test installed them meanwhile
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args := append([]string{"install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error"}, specs...)
	out, err := exec.CommandContext(ctx, npm, args...).CombinedOutput()
	if err != nil {
		if why := unreachable(npm); why != "" {
			t.Skipf("SKIP: the npm registry cannot be reached (%s), so %v cannot be installed", why, specs)
		}
		t.Fatalf("npm install %v into %s failed, though the registry answers: %v\n%s", specs, dir, err, out)
	}
	return dir
}

// unreachable says why the registry cannot be reached, or "" when it
// answers npm ping.
func unreachable(npm string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, npm, "ping", "--loglevel=error").CombinedOutput()
	if err != nil {
		return strings.TrimSpace(err.Error() + " " + string(out))
	}
	return ""
}
