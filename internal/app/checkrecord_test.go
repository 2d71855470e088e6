package app

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/mcptui/mcptui/internal/record"
)

// check --record FILE records the check's traffic: the lines of its
// connections to the demo server, each process's exit, and an end.
func TestCheckRecords(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "check.jsonl")
	var out, errb bytes.Buffer
	code := Run([]string{"check", "--rule", "lifecycle.discover", "--record", path, "--", bin, "demo-server"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	rec, err := record.Open(path)
	if err != nil {
		t.Fatalf("the recording: %v", err)
	}
	kinds := map[string]int{}
	for _, e := range rec.Entries {
		kinds[e.Type]++
	}
	if kinds[record.TypeSent] == 0 || kinds[record.TypeReceived] == 0 || kinds[record.TypeExit] == 0 {
		t.Errorf("the recording holds %v, want the lines sent and received and the exits", kinds)
	}
	if rec.Header.Mode != "check" {
		t.Errorf("header mode %q, want check", rec.Header.Mode)
	}
}
