package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/cli"
)

// TestCatalogMarksFromFlags: the inspector's --baseline, --host and
// --model make the catalog's marks; none of them makes none; a baseline
// that does not load is an error naming the flag and the file.
func TestCatalogMarksFromFlags(t *testing.T) {
	parse := func(args ...string) *cli.Config {
		t.Helper()
		cfg, err := cli.Parse(args)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	if mc, err := catalogMarks(parse("--", "srv")); mc != nil || err != nil {
		t.Fatalf("no flags: %+v, %v", mc, err)
	}
	base := filepath.Join(t.TempDir(), "base.json")
	if err := os.WriteFile(base, []byte(`{"format":"mcptui-snapshot","version":1,"eras":[{"protocol":"2025-11-25","tools":[]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	mc, err := catalogMarks(parse("--baseline", base, "--host", "claude-code", "--", "srv"))
	if err != nil || mc == nil || mc.Baseline == nil || mc.BaselineName != "base.json" || len(mc.Hosts) != 1 || !mc.On() {
		t.Fatalf("--baseline --host: %+v, %v", mc, err)
	}
	missing := filepath.Join(t.TempDir(), "gone.json")
	if _, err := catalogMarks(parse("--baseline", missing, "--", "srv")); err == nil || !strings.Contains(err.Error(), "--baseline") || !strings.Contains(err.Error(), "gone.json") {
		t.Fatalf("a missing baseline: %v", err)
	}
}
