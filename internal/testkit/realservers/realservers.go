// Package realservers starts real, published MCP servers of every protocol
// era for integration tests: small servers on the official TypeScript SDK
// at 1.0.x (2024-11-05), 1.12.x (2025-03-26), 1.13.x (2025-06-18) and the
// newest 1.x (2025-11-25), each with a tool, a tool without arguments, a
// resource, a prompt, a tool that samples and one that sends progress; the
// published @modelcontextprotocol/server-filesystem pinned old (0.6.2,
// 2024-11-05); and a server on mark3labs/mcp-go v0.34.0 (2025-03-26),
// built from tools/mcpgo, its own module. The npm packages are installed
// by npmcache into the user cache; a test skips only when the registry (or
// the Go module proxy) cannot be reached.
package realservers

import (
	"bytes"
	"context"
	"embed"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/testkit/e2e"
	"github.com/mcptui/mcptui/internal/testkit/npmcache"

	"github.com/mcptui/mcptui/internal/protocol"
)

//go:embed servers/*.mjs
var scripts embed.FS

// Server is a command line that runs one real server on stdio.
type Server struct {
	// Name names it in test output: "sdk 1.0.4", "server-filesystem 0.6.2".
	Name string
	// Protocol is the version it answers initialize with.
	Protocol string
	Command  string
	Args     []string
	// Full reports whether it has the eras test set (add, now, sample,
	// progress, eras://readme, greet); server-filesystem has its own.
	Full bool
}

// SDK is one TypeScript SDK version under test and its server script.
type SDK struct {
	Version, Script, Protocol string
}

// SDKs are the TypeScript SDK versions tested, oldest first.
var SDKs = []SDK{
	{"1.0.4", "sdk-1.0.mjs", protocol.Rev20241105},
	{"1.12.3", "sdk-1.12.mjs", protocol.Rev20250326},
	{"1.13.3", "sdk-1.13.mjs", protocol.Rev20250618},
	{"1.32.2", "sdk-latest.mjs", protocol.Rev20251125},
}

const sdkPackage = "@modelcontextprotocol/sdk"

// TypeScript returns the server on SDK s, installing the SDK if needed.
func TypeScript(t testing.TB, s SDK) Server {
	t.Helper()
	node := npmcache.Node(t, 18)
	dir := npmcache.Install(t, "npm-sdk-"+s.Version, filepath.Join("node_modules", sdkPackage, "package.json"), sdkPackage+"@"+s.Version)
	body, err := scripts.ReadFile("servers/" + s.Script)
	if err != nil {
		t.Fatal(err)
	}
	// The script sits beside node_modules so that its imports resolve.
	script := filepath.Join(dir, "eras-"+s.Script)
	if old, err := os.ReadFile(script); err != nil || !bytes.Equal(old, body) {
		tmp := script + ".tmp" + strings.ReplaceAll(t.Name(), "/", "_")
		if err := os.WriteFile(tmp, body, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, script); err != nil {
			t.Fatal(err)
		}
	}
	return Server{Name: "sdk " + s.Version, Protocol: s.Protocol, Command: node, Args: []string{script}, Full: true}
}

// FilesystemVersion is the pinned old server-filesystem.
const FilesystemVersion = "0.6.2"

// Filesystem returns @modelcontextprotocol/server-filesystem 0.6.2
// (SDK 1.0.1, 2024-11-05) serving root.
func Filesystem(t testing.TB, root string) Server {
	t.Helper()
	node := npmcache.Node(t, 18)
	pkg := "@modelcontextprotocol/server-filesystem"
	entry := filepath.Join("node_modules", pkg, "dist", "index.js")
	dir := npmcache.Install(t, "npm-server-filesystem-"+FilesystemVersion, entry, pkg+"@"+FilesystemVersion)
	return Server{Name: "server-filesystem " + FilesystemVersion, Protocol: protocol.Rev20241105, Command: node,
		Args: []string{filepath.Join(dir, entry), root}}
}

// MCPGoVersion is the mcp-go release built: the last that answers 2025-03-26.
const MCPGoVersion = "v0.34.0"

// MCPGo builds tools/mcpgo (once per version, under a lock) into the
// cache and returns it.
func MCPGo(t testing.TB) Server {
	t.Helper()
	e2e.Require(t)
	dir := npmcache.Dir("mcpgo-" + MCPGoVersion)
	bin := filepath.Join(dir, "mcpgo")
	srv := Server{Name: "mcp-go " + MCPGoVersion, Protocol: protocol.Rev20250326, Command: bin, Full: true}
	_, self, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(self), "..", "..", "..", "tools", "mcpgo")
	if fresh(bin, src) {
		return srv
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("SKIP: no go tool to build %s: %v", src, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, ".build.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := npmcache.LockFile(lock); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = npmcache.UnlockFile(lock) }()
	if fresh(bin, src) {
		return srv
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, "build", "-o", bin+".tmp", ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	if out, err := cmd.CombinedOutput(); err != nil {
		if bytes.Contains(out, []byte("dial tcp")) || bytes.Contains(out, []byte("proxy.golang.org")) {
			t.Skipf("SKIP: the Go module proxy cannot be reached to build mcp-go %s:\n%s", MCPGoVersion, out)
		}
		t.Fatalf("building %s: %v\n%s", src, err, out)
	}
	if err := os.Rename(bin+".tmp", bin); err != nil {
		t.Fatal(err)
	}
	return srv
}

// fresh reports whether bin exists and is newer than every file in src.
func fresh(bin, src string) bool {
	bi, err := os.Stat(bin)
	if err != nil {
		return false
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if fi, err := e.Info(); err != nil || fi.ModTime().After(bi.ModTime()) {
			return false
		}
	}
	return true
}

// All returns every real server: the four SDK servers, server-filesystem
// (serving root) and mcp-go.
func All(t testing.TB, root string) []Server {
	t.Helper()
	var out []Server
	for _, s := range SDKs {
		out = append(out, TypeScript(t, s))
	}
	return append(out, Filesystem(t, root), MCPGo(t))
}
