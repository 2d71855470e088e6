package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/testkit/tmuxtest"
)

// readmeBlock is the code block after the marker comment: its mcptui lines.
func readmeBlock(t *testing.T, readme, marker, fence string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(readme, marker)
	if !ok {
		t.Fatalf("%s has no %q", driftPage, marker)
	}
	_, rest, ok = strings.Cut(rest, fence)
	if !ok {
		t.Fatalf("no %s block after %q", fence, marker)
	}
	block, _, _ := strings.Cut(rest, "```\n")
	return strings.Split(block, "\n")
}

// comment is a trailing "# ..." comment (after two spaces or more).
var comment = regexp.MustCompile(`\s{2,}# .*$`)

// driftPage is the page of snapshot, diff, check --baseline and replay
// --verify.
const driftPage = "docs/drift.md"

// TestReadmeDriftCommands runs every mcptui command of the drift page's
// snapshot/diff/check --baseline/replay --verify block with the demo
// server, in order, and the run: lines of its GitHub Actions snippet with
// SERVER set to the demo server; each must exit 0.
func TestReadmeDriftCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mcptui: not in -short")
	}
	raw, err := os.ReadFile(driftPage)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	bin := t.TempDir()
	if _, err := tmuxtest.BuildIn(bin); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "SERVER=mcptui demo-server", "NO_COLOR=1")
	run := func(line string) string {
		t.Helper()
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir, cmd.Env = work, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s command %q: %v\n%s", driftPage, line, err, out)
		}
		return string(out)
	}
	ran := 0
	for _, l := range readmeBlock(t, readme, "<!-- drift-commands", "```sh\n") {
		l = strings.TrimSpace(comment.ReplaceAllString(l, ""))
		if !strings.HasPrefix(l, "mcptui ") {
			continue
		}
		run(l)
		ran++
	}
	if ran < 8 {
		t.Fatalf("ran %d commands of the block", ran)
	}
	if b, err := os.ReadFile(filepath.Join(work, "drift.md")); err != nil || !strings.Contains(string(b), "MCP surface diff: no changes") {
		t.Errorf("drift.md: %v\n%s", err, b)
	}
	// The Actions snippet, against a baseline taken from the demo.
	run("mcptui snapshot -- $SERVER > mcp-baseline.json")
	ran = 0
	for _, l := range readmeBlock(t, readme, "# Did my change break anyone?", "```yaml\n") {
		l = strings.TrimSpace(l)
		if cmdline, ok := strings.CutPrefix(l, "- run: mcptui "); ok {
			run("mcptui " + cmdline)
			ran++
		}
	}
	if ran != 2 {
		t.Fatalf("ran %d mcptui steps of the Actions snippet, want 2", ran)
	}
	for f, want := range map[string]string{"mcp.xml": "drift.breaking", "mcp.sarif": "drift.breaking", "drift.md": "MCP surface diff"} {
		if b, err := os.ReadFile(filepath.Join(work, f)); err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: %v\n%.500s", f, err, b)
		}
	}
}
