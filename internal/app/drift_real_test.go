package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/everything"
	"github.com/mcptui/mcptui/internal/testkit/npmcache"
)

// npmServer installs (once) the published package pkg at version and
// returns the command line that runs its dist/index.js with args.
func npmServer(t *testing.T, pkg, version string, args ...string) []string {
	t.Helper()
	node := npmcache.Node(t, 20)
	name := strings.TrimPrefix(pkg, "@modelcontextprotocol/")
	entry := filepath.Join("node_modules", pkg, "dist", "index.js")
	dir := npmcache.Install(t, "npm-"+name+"-"+version, entry, pkg+"@"+version)
	return append([]string{"--", node, filepath.Join(dir, entry)}, args...)
}

// TestSnapshotRealEverything: the everything server (a hundred resources
// over pages) snapshotted twice is byte-identical.
func TestSnapshotRealEverything(t *testing.T) {
	if testing.Short() {
		t.Skip("real servers: not in -short")
	}
	cmd, args := everything.Server(t)
	srv := append([]string{"--", cmd}, args...)
	code, a := runApp(t, nil, append([]string{"snapshot", "--probe-timeout", "60s"}, srv...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, a)
	}
	_, b := runApp(t, nil, append([]string{"snapshot", "--probe-timeout", "60s"}, srv...)...)
	if a != b {
		t.Fatal("two snapshots of the everything server differ")
	}
	if !strings.Contains(a, `"name": "get-sum"`) || !strings.Contains(a, `"resourceTemplates": [`) {
		t.Fatalf("snapshot:\n%.3000s", a)
	}
}

// TestDiffRealReleases diffs two published releases of server-filesystem
// and of server-everything, and checks what the diff finds against what
// their changelogs say changed.
func TestDiffRealReleases(t *testing.T) {
	if testing.Short() {
		t.Skip("real servers: not in -short")
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	snap := func(name string, srv []string) string {
		t.Helper()
		code, out := runApp(t, nil, append([]string{"snapshot"}, srv...)...)
		if code != 0 {
			t.Fatalf("snapshot %s: exit %d\n%s", name, code, out)
		}
		path := filepath.Join(dir, name+".json")
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	const fs = "@modelcontextprotocol/server-filesystem"
	oldFS := snap("fs-2025.3.28", npmServer(t, fs, "2025.3.28", root))
	newFS := snap("fs-2026.8.31", npmServer(t, fs, "2026.8.31", root))
	code, out := runApp(t, nil, "diff", oldFS, newFS)
	if code != 1 {
		t.Errorf("filesystem: exit %d, want 1", code)
	}
	for _, w := range []string{
		"tool read_text_file\n  ADDITIVE  new tool",
		"tool read_media_file\n  ADDITIVE  new tool",
		"tool read_file\n  RISKY     title reworded (title)",
		"{+as text. DEPRECATED:+} Use",
		"readOnlyHint flipped from false to true",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("filesystem diff lacks %q:\n%s", w, out)
		}
	}
	t.Logf("server-filesystem 2025.3.28 → 2026.8.31: %s", lastLine(out))

	const ev = "@modelcontextprotocol/server-everything"
	oldEv := snap("ev-2025.8.18", npmServer(t, ev, "2025.8.18", "stdio"))
	cmd, args := everything.Server(t)
	newEv := snap("ev-"+everything.Version, append([]string{"--", cmd}, args...))
	code, out = runApp(t, nil, "diff", oldEv, newEv)
	if code != 1 {
		t.Errorf("everything: exit %d, want 1", code)
	}
	for _, w := range []string{"tool add\n  BREAKING  tool removed", "tool get-sum\n  ADDITIVE  new tool", "BREAKING  capability elicitation withdrawn", "server version changed (serverInfo.version): \"1.0.0\" → \"2.0.0\""} {
		if !strings.Contains(out, w) {
			t.Errorf("everything diff lacks %q:\n%s", w, out)
		}
	}
	t.Logf("server-everything 2025.8.18 → %s: %s", everything.Version, lastLine(out))
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
