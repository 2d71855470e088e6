package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTree writes files (slash paths → contents) under a new directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestOldTreeGetsTheBenchmark: an old tree without the catalog benchmark
// runs the current tree's copy when it compiles there, and runs without
// it (not failing the build) when it does not.
func TestOldTreeGetsTheBenchmark(t *testing.T) {
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "")
	old := map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.22\n",
		"main.go":          "package main\n\nfunc main() {}\n",
		"ui/explorer/x.go": "package explorer\n\nfunc Old() int { return 1 }\n",
	}
	bench := func(call string) string {
		return "package catalog\n\nimport \"testing\"\n\nfunc BenchmarkCatalogDown(b *testing.B) {\n\tfor range b.N {\n\t\t_ = " + call + "\n\t}\n}\n"
	}
	ctx := context.Background()
	for _, c := range []struct {
		name       string
		call       string
		wantPorted bool
	}{
		{"compiles on the old code", "Old()", true},
		{"uses what the old code lacks", "New()", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := writeTree(t, old)
			// The current tree names the package for what it is; the old
			// one does not yet: the benchmark is ported under the old name.
			cur := writeTree(t, map[string]string{"ui/catalog/catalog_bench_test.go": bench(c.call)})
			b, err := makeBuild(ctx, oldSide, src, cur, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			has := strings.Contains(b.benches, "BenchmarkCatalogDown\n")
			if (len(b.ported) > 0) != c.wantPorted || has != c.wantPorted {
				t.Errorf("ported %v, benchmarks %q; want ported and listed: %v", b.ported, b.benches, c.wantPorted)
			}
			if want := []string{"ui/explorer/" + benchFile}; c.wantPorted && !slices.Equal(b.ported, want) {
				t.Errorf("ported %v; want %v", b.ported, want)
			}
			if _, err := os.Stat(b.mcptui); err != nil {
				t.Errorf("no mcptui build: %v", err)
			}
		})
	}
}

// TestBenchDir: the catalog's test binary runs in its package's
// directory, ui/catalog in today's tree (ui/explorer, which the cases
// used to run in, is gone there) and ui/explorer in older ones.
func TestBenchDir(t *testing.T) {
	cur := writeTree(t, map[string]string{"ui/catalog/x.go": "package catalog\n"})
	if got, want := benchDir(&build{src: cur}), filepath.Join(cur, "ui", "catalog"); got != want {
		t.Errorf("benchDir(current tree) = %s; want %s", got, want)
	}
	old := writeTree(t, map[string]string{"ui/explorer/x.go": "package explorer\n"})
	if got, want := benchDir(&build{src: old}), filepath.Join(old, "ui", "explorer"); got != want {
		t.Errorf("benchDir(old tree) = %s; want %s", got, want)
	}
}
