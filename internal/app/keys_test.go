package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryProgramReadsTheKeyFile: replay, attach and the server picker
// read the user's key file as the inspector does, so a bad one is the same
// clear error naming the file, and nothing opens.
func TestEveryProgramReadsTheKeyFile(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("HOME", dir)
	path := filepath.Join(dir, "mcptui", "keys.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"no.such.binding": ["x"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(dir, "rec.jsonl")
	if err := os.WriteFile(rec, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"replay", rec}, {"attach", "no-such-tap"}} {
		var out, errs bytes.Buffer
		code := Run(args, &out, &errs)
		if code != 2 || !strings.Contains(errs.String(), path) {
			t.Errorf("%v with a bad key file: exit %d, stderr %q; want 2 naming %s", args, code, errs.String(), path)
		}
	}
}
