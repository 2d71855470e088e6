package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each of these is caught while parsing, before any process starts, as a
// usage error (exit 2) that says what is wrong.
func TestUsageErrorsBeforeAnyProcess(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "report.xml")
	if err := os.WriteFile(existing, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-line-bytes", "100", "--", "x"}, "cannot hold an MCP message"},
		{[]string{"tools", "--max-line-bytes", "1023", "--", "x"}, "cannot hold"},
		{[]string{"--protocol", "2025-11-25", "--protocol", "2025-11-25", "--", "x"}, "given twice"},
		{[]string{"call", "echo", "--args", `{"a":1,"a":2}`, "--", "x"}, "duplicate"},
		{[]string{"call", "echo", "--args", `{"a":{"b":1,"b":1}}`, "--", "x"}, "duplicate"},
		{[]string{"run", "s.txt", "--junit", filepath.Join(dir, "missing", "r.xml"), "--", "x"}, "does not exist"},
		{[]string{"run", "s.txt", "--junit", dir, "--", "x"}, "is a directory"},
		{[]string{"--root", "", "--", "x"}, "must not be empty"},
		{[]string{"--root", "relative/dir", "--", "x"}, "not a URI"},
		{[]string{"tools", "--root", "file:///a", "--root", "file:///a", "--", "x"}, "given twice"},
		{[]string{"--cwd", "/nonexistent", "--", "x"}, "--cwd: directory /nonexistent does not exist"},
		{[]string{"tools", "--cwd", filepath.Join(dir, "missing"), "--", "x"}, "does not exist"},
		{[]string{"doctor", "--cwd", existing, "--", "x"}, "is not a directory"},
	} {
		_, err := Parse(c.args)
		if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want a usage error saying %q", c.args, err, c.want)
		}
	}
	for _, ok := range [][]string{
		{"--max-line-bytes", "1KiB", "--", "x"},
		{"--max-line-bytes", "0", "--", "x"},
		{"run", "s.txt", "--junit", existing, "--", "x"},
		{"run", "s.txt", "--junit", filepath.Join(dir, "new.xml"), "--", "x"},
		{"--root", "file:///home/me/project", "--root", "https://example.com/repo", "--", "x"},
		{"tools", "--cwd", dir, "--", "x"},
	} {
		if _, err := Parse(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep me" {
		t.Errorf("checking --junit changed the existing file: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.xml")); !os.IsNotExist(err) {
		t.Errorf("checking --junit left a file behind: %v", err)
	}
}
