package userdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEnsureCreatesPrivate: Ensure creates the missing directories 0700.
func TestEnsureCreatesPrivate(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "state", "mcptui", "tokens")
	if err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, filepath.Dir(dir), filepath.Dir(filepath.Dir(dir))} {
		fi, err := os.Stat(d)
		if err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v, %v", d, fi.Mode(), err)
		}
	}
}

// TestRefused: what someone else could write, read or swap is refused,
// with the reason: an existing directory open to others, a world-writable
// directory above (not sticky), a link, another user's directory, a file
// open to others, a file that is a link, another user's file.
func TestRefused(t *testing.T) {
	mk := func(t *testing.T, path string, mode os.FileMode) string {
		if err := os.MkdirAll(path, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cases := map[string]struct {
		setup func(t *testing.T, base string) string
		check func(string) error
		want  string
	}{
		"dir-open": {func(t *testing.T, b string) string { return mk(t, filepath.Join(b, "tokens"), 0o755) }, Check, "open to others"},
		"parent-world-writable": {func(t *testing.T, b string) string {
			mk(t, filepath.Join(b, "mcptui"), 0o777)
			return mk(t, filepath.Join(b, "mcptui", "tokens"), 0o700)
		}, Check, "can be written by others"},
		"parent-world-writable-missing": {func(t *testing.T, b string) string {
			mk(t, filepath.Join(b, "mcptui"), 0o777)
			return filepath.Join(b, "mcptui", "tokens")
		}, CheckPath, "can be written by others"},
		"ensure-into-world-writable": {func(t *testing.T, b string) string {
			mk(t, filepath.Join(b, "mcptui"), 0o777)
			return filepath.Join(b, "mcptui", "tokens")
		}, Ensure, "can be written by others"},
		"dir-link": {func(t *testing.T, b string) string {
			real := mk(t, filepath.Join(b, "real"), 0o700)
			if err := os.Symlink(real, filepath.Join(b, "link")); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(b, "link")
		}, Check, "symbolic link"},
		"file-open": {func(t *testing.T, b string) string {
			p := filepath.Join(b, "t.json")
			if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}, CheckFile, "open to others"},
		"file-link": {func(t *testing.T, b string) string {
			p := filepath.Join(b, "t.json")
			if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(p, filepath.Join(b, "l.json")); err != nil {
				t.Fatal(err)
			}
			return filepath.Join(b, "l.json")
		}, CheckFile, "symbolic link"},
	}
	if os.Getuid() == 0 {
		cases["dir-other-user"] = struct {
			setup func(t *testing.T, base string) string
			check func(string) error
			want  string
		}{func(t *testing.T, b string) string {
			d := mk(t, filepath.Join(b, "tokens"), 0o700)
			if err := os.Chown(d, 12345, 12345); err != nil {
				t.Fatal(err)
			}
			return d
		}, Check, "belongs to uid 12345"}
		cases["file-other-user"] = struct {
			setup func(t *testing.T, base string) string
			check func(string) error
			want  string
		}{func(t *testing.T, b string) string {
			p := filepath.Join(b, "t.json")
			if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(p, 12345, 12345); err != nil {
				t.Fatal(err)
			}
			return p
		}, CheckFile, "belongs to uid 12345"}
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			base := mk(t, filepath.Join(t.TempDir(), "base"), 0o700)
			err := c.check(c.setup(t, base))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error saying %q", err, c.want)
			}
		})
	}
	// Sticky and world-writable above (as /tmp is) is fine.
	base := t.TempDir()
	sticky := filepath.Join(base, "shared")
	if err := os.Mkdir(sticky, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(sticky, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if err := Ensure(filepath.Join(sticky, "mine")); err != nil {
		t.Errorf("a private directory in a sticky one: %v", err)
	}
}

// TestCheckNotShared: a directory others cannot write (0755 is fine) under
// directories others cannot write passes; a world-writable one, or one
// under a world-writable directory, is refused.
func TestCheckNotShared(t *testing.T) {
	base := t.TempDir()
	d := filepath.Join(base, "state")
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := CheckNotShared(d); err != nil {
		t.Errorf("a 0755 directory: %v", err)
	}
	if err := os.Chmod(d, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := CheckNotShared(d); err == nil || !strings.Contains(err.Error(), "can be written by others") {
		t.Errorf("a 0777 directory: %v", err)
	}
	inner := filepath.Join(d, "mcptui")
	if err := os.Mkdir(inner, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := CheckNotShared(inner); err == nil || !strings.Contains(err.Error(), "can be written by others") {
		t.Errorf("under a 0777 directory: %v", err)
	}
}
