package argstore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// privateDir is a directory of the test that only the user can enter, as
// the state directory must be.
func privateDir(t *testing.T) string {
	t.Helper()
	d := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(d, 0o700); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestRefusesWeakStateDir: remembered arguments (which may hold secrets
// typed into a form) are neither written into a state directory others can
// write or read, nor loaded from a file others could have planted; the
// refusal says why.
func TestRefusesWeakStateDir(t *testing.T) {
	state := filepath.Join(t.TempDir(), "mcptui")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(state, "arguments.json")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Put("srv", "tool", "login", json.RawMessage(`{"password":"hunter2"}`)); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the file: %v, %v", fi, err)
	}

	if err := os.Chmod(state, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "can be written by others") {
		t.Fatalf("Open in a world-writable state dir: %v", err)
	}
	if err := s.Put("srv", "tool", "login", json.RawMessage(`{"password":"again"}`)); err == nil || !strings.Contains(err.Error(), "can be written by others") {
		t.Fatalf("Put into a world-writable state dir: %v", err)
	}
	if err := os.Chmod(state, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "open to others") {
		t.Fatalf("Open of a 0644 file: %v", err)
	}
}
