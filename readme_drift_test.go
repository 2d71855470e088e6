package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
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
	raw, err := os.ReadFile(driftPage)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	bin := t.TempDir()
	if err := os.Symlink(mcptuiBinary(t), filepath.Join(bin, "mcptui")); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "SERVER=mcptui demo-server", "NO_COLOR=1")
	run := func(t *testing.T, work, line string) {
		t.Helper()
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir, cmd.Env = work, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s command %q: %v\n%s", driftPage, line, err, out)
		}
	}
	// The block and the Actions snippet, each in a directory of its own,
	// run at the same time (the snippet's check waits out the demo's
	// slow tool).
	var wg sync.WaitGroup
	wg.Go(func() {
		t.Run("block", func(t *testing.T) {
			work := t.TempDir()
			ran := 0
			for _, l := range readmeBlock(t, readme, "<!-- drift-commands", "```sh\n") {
				l = strings.TrimSpace(comment.ReplaceAllString(l, ""))
				if !strings.HasPrefix(l, "mcptui ") {
					continue
				}
				run(t, work, l)
				ran++
			}
			if ran < 8 {
				t.Fatalf("ran %d commands of the block", ran)
			}
			if b, err := os.ReadFile(filepath.Join(work, "drift.md")); err != nil || !strings.Contains(string(b), "MCP surface diff: no changes") {
				t.Errorf("drift.md: %v\n%s", err, b)
			}
		})
	})
	wg.Go(func() {
		t.Run("actions", func(t *testing.T) {
			// The Actions snippet, against a baseline taken from the demo.
			work := t.TempDir()
			run(t, work, "mcptui snapshot -- $SERVER > mcp-baseline.json")
			ran := 0
			for _, l := range readmeBlock(t, readme, "# Did my change break anyone?", "```yaml\n") {
				l = strings.TrimSpace(l)
				if cmdline, ok := strings.CutPrefix(l, "- run: mcptui "); ok {
					run(t, work, "mcptui "+cmdline)
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
		})
	})
	wg.Wait()
}
