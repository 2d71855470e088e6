package release

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func tree(t *testing.T, config string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, Config), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestTags: a tree's release build has the tags its .goreleaser.yaml gives
// it, none when it gives none; a block list or a missing file is an error.
func TestTags(t *testing.T) {
	for _, c := range []struct {
		name, config string
		want         []string
	}{
		{"inline", "builds:\n  - id: mcptui\n    ldflags:\n      - -s -w\n    tags: [grpcnotrace, netgo]\n", []string{"grpcnotrace", "netgo"}},
		{"one", "builds:\n  - id: mcptui\n    tags: [grpcnotrace]\n", []string{"grpcnotrace"}},
		{"spaces and a trailing comma", "builds:\n  - id: mcptui\n    tags:   [ a ,b, ]\n", []string{"a", "b"}},
		{"empty list", "builds:\n  - id: mcptui\n    tags: []\n", nil},
		{"none", "builds:\n  - id: mcptui\n", nil},
	} {
		got, err := Tags(tree(t, c.config))
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: Tags = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	if got, err := Tags(tree(t, "builds:\n  - id: mcptui\n    tags:\n      - grpcnotrace\n")); err == nil {
		t.Errorf("a block list of tags: Tags = %q, nil; want an error", got)
	}
	if _, err := Tags(t.TempDir()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a tree without %s: err = %v; want one wrapping os.ErrNotExist", Config, err)
	}
}

// TestTagsOfThisTree: the module's own configuration gives its release
// build grpcnotrace (what keeps text/template out, see the root package's
// TestReleaseBuildLeavesOutTemplates), read as an inline list.
func TestTagsOfThisTree(t *testing.T) {
	got, err := Tags(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(got, "grpcnotrace") {
		t.Errorf("Tags of the module = %q; want grpcnotrace among them", got)
	}
}
