package app

import (
	"bytes"
	"strings"
	"testing"
)

// A usage error is the error and a pointer to --help: two lines, so the
// error does not scroll away above the whole usage.
func TestUsageErrorIsTwoLines(t *testing.T) {
	for _, args := range [][]string{
		{"--bogus", "--", "x"},
		{"tools", "--timout", "5s", "--", "x"},
		{"tools"},
	} {
		var stdout, stderr bytes.Buffer
		if code := Run(args, &stdout, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2", args, code)
		}
		lines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "mcptui: usage: ") || !strings.Contains(lines[1], "--help") {
			t.Errorf("%q: stderr %q, want the error and a line pointing to --help", args, stderr.String())
		}
		if stdout.Len() != 0 {
			t.Errorf("%q: stdout %q", args, stdout.String())
		}
	}
}
