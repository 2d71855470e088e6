package argstore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestDeferredReadsAtFirstUse: a Deferred store reads its file at its
// first Get, not when it is made, so an inspector that never opens a form
// neither reads nor keeps the arguments of every server: what the file
// says after Deferred returned is what Get finds.
func TestDeferredReadsAtFirstUse(t *testing.T) {
	path := filepath.Join(privateDir(t), "arguments.json")
	s := Deferred(path)
	// Written after Deferred returned, by another store (another mcptui).
	other, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Put("srv", Tool, "echo", json.RawMessage(`{"message":"hi"}`)); err != nil {
		t.Fatal(err)
	}
	got, ok := s.Get("srv", Tool, "echo")
	if !ok || string(got) != `{"message":"hi"}` {
		t.Fatalf("Get = %s, %v: the file was read before its first use", got, ok)
	}
	// Put keeps what was read and adds to it.
	if err := s.Put("srv", Tool, "add", json.RawMessage(`{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	again, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"echo", "add"} {
		if _, ok := again.Get("srv", Tool, name); !ok {
			t.Errorf("%s is not in the file after the deferred store's Put", name)
		}
	}
}

// TestDeferredOffWhenRefused: a file that Open refuses (one others could
// have planted or read) makes a Deferred store off at its first use, as a
// nil store: nothing read from it, nothing written into it, no error.
func TestDeferredOffWhenRefused(t *testing.T) {
	path := filepath.Join(privateDir(t), "arguments.json")
	planted := `{"version":1,"servers":{"srv":{"tool/echo":{"arguments":{"message":"planted"},"at":"2026-01-01T00:00:00Z"}}}}`
	if err := os.WriteFile(path, []byte(planted), 0o644); err != nil {
		t.Fatal(err)
	}
	s := Deferred(path)
	if got, ok := s.Get("srv", Tool, "echo"); ok {
		t.Errorf("Get = %s from a file open to others", got)
	}
	if err := s.Put("srv", Tool, "echo", json.RawMessage(`{"message":"secret"}`)); err != nil {
		t.Errorf("Put on an off store: %v", err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != planted {
		t.Errorf("the refused file was changed: %s, %v", b, err)
	}
}
