package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeHoldsTogether guards the README against the damage merges do: a paragraph pasted
// twice, or a stray line that cuts a table in two (both happened once, unseen, for a whole stop).
func TestReadmeHoldsTogether(t *testing.T) {
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatalf("reading the README: %v", err)
	}
	seen := map[string]int{}
	for i, block := range strings.Split(string(raw), "\n\n") {
		block = strings.TrimSpace(block)
		if len(block) < 200 || strings.HasPrefix(block, "```") {
			continue
		}
		if first, ok := seen[block]; ok {
			t.Errorf("paragraph %d repeats paragraph %d: %.80q…", i, first, block)
		}
		seen[block] = i
	}
	lines := strings.Split(string(raw), "\n")
	inCode := false
	for i := 0; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(lines[i], "|") {
			continue
		}
		// A table: its rows run until a blank line; every one of them is a row.
		start := i
		for ; i < len(lines) && lines[i] != ""; i++ {
			if !strings.HasPrefix(lines[i], "|") {
				t.Errorf("README line %d cuts the table of line %d: %.80q", i+1, start+1, lines[i])
				break
			}
		}
	}
}
