// Package everything finds @modelcontextprotocol/server-everything for
// integration tests: the copy in the user's cache directory (the one mcp's
// tests use), installed there with npm when it is missing (see npmcache).
package everything

import (
	"path/filepath"
	"testing"

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
	node := npmcache.Node(t, 20)
	entry := filepath.Join("node_modules", Package, "dist", "index.js")
	dir := npmcache.Install(t, "everything-"+Version, entry, Package+"@"+Version)
	return node, []string{filepath.Join(dir, entry), "stdio"}
}
