package argstore

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

func TestRememberAcrossRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "mcptui", "arguments.json")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get("srv", Tool, "echo"); ok {
		t.Fatal("empty store remembers")
	}
	if err := s.Put("srv", Tool, "echo", json.RawMessage(`{"message":"hi"}`)); err != nil {
		t.Fatal(err)
	}
	again, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := again.Get("srv", Tool, "echo"); !ok || string(got) != `{"message":"hi"}` {
		t.Fatalf("%s %v", got, ok)
	}
	if _, ok := again.Get("other", Tool, "echo"); ok {
		t.Error("another server shares the arguments")
	}
	if _, ok := again.Get("srv", Prompt, "echo"); ok {
		t.Error("a prompt shares a tool's arguments")
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v %v", fi.Mode(), err)
	}
	if err := s.Put("srv", Tool, "x", json.RawMessage(`{`)); err == nil {
		t.Error("remembered broken JSON")
	}
}

func TestDefaultPathFollowsXDG(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/tmp/xdg-state")
	if p, _ := DefaultPath(); p != "/tmp/xdg-state/mcptui/arguments.json" {
		t.Errorf("%s", p)
	}
	t.Setenv("XDG_STATE_HOME", "relative")
	t.Setenv("HOME", "/home/me")
	if p, _ := DefaultPath(); p != "/home/me/.local/state/mcptui/arguments.json" {
		t.Errorf("%s", p)
	}
}

func TestBrokenFileIsSetAside(t *testing.T) {
	path := filepath.Join(privateDir(t), "arguments.json")
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + ".broken"); err != nil {
		t.Error("the broken file was not kept aside")
	}
	if err := s.Put("a", Tool, "b", json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
}

func TestLimits(t *testing.T) {
	s, _ := Open(filepath.Join(privateDir(t), "a.json"))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	n := 0
	s.SetClock(func() time.Time { n++; return base.Add(time.Duration(n) * time.Second) })
	for i := range MaxServers + 3 {
		if err := s.Put("srv"+strconv.Itoa(i), Tool, "t", json.RawMessage(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.data.Servers) != MaxServers {
		t.Errorf("%d servers", len(s.data.Servers))
	}
	if _, ok := s.Get("srv0", Tool, "t"); ok {
		t.Error("the oldest server was kept")
	}
	big := make([]byte, MaxBytes+1)
	if err := s.Put("a", Tool, "b", big); err == nil {
		t.Error("remembered a huge argument set")
	}
}
