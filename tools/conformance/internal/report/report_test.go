package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testBaseline is a baseline in the suite's format, with a whole-scenario
// entry and one of a single check.
func testBaseline(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "baseline.yml")
	const text = "# comment\nclient:\n  # why\n  - sse-retry\n  - http-standard-headers:sep-2243-client-includes-standard-headers\n  - \"http-custom-headers\"\n  - http-invalid-tool-headers\nserver:\n  - tools_call\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadBaseline(t *testing.T) {
	b, err := readBaseline(testBaseline(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"sse-retry", "http-standard-headers", "http-custom-headers", "http-invalid-tool-headers"} {
		if !b[s] {
			t.Errorf("the baseline does not list %s", s)
		}
	}
	for _, s := range []string{"initialize", "tools_call", "client", "server"} {
		if b[s] {
			t.Errorf("the baseline lists %s", s)
		}
	}
	// The repository's baseline reads, and lists no client scenario: every
	// one passes.
	real, err := readBaseline(filepath.Join("..", "..", "baseline.yml"))
	if err != nil || len(real) != 0 {
		t.Errorf("tools/conformance/baseline.yml: %v, %v", real, err)
	}
}

// writeRun makes a run directory holding checks.json (nested, as the
// suite writes it) and returns it.
func writeRun(t *testing.T, checks string) string {
	t.Helper()
	dir := t.TempDir()
	sub := filepath.Join(dir, "scenario-2026-01-01T00-00-00Z")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if checks != "" {
		if err := os.WriteFile(filepath.Join(sub, "checks.json"), []byte(checks), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestTable(t *testing.T) {
	pass := writeRun(t, `[{"id":"a","status":"SUCCESS"},{"id":"b","status":"SUCCESS"},{"id":"b","status":"WARNING"},{"id":"i","status":"INFO"},{"id":"s","status":"SKIPPED"}]`)
	ok := writeRun(t, `[{"id":"a","status":"SUCCESS"},{"id":"c","status":"SUCCESS"}]`)
	failing := writeRun(t, `[{"id":"a","status":"FAILURE"},{"id":"a","status":"SUCCESS"}]`)
	skipped := writeRun(t, `[{"id":"h","status":"SKIPPED"}]`)
	none := writeRun(t, "")
	runs := filepath.Join(t.TempDir(), "runs.tsv")
	tsv := strings.Join([]string{
		"tools_call\t2026-07-28\t0\t" + ok,
		"request-metadata\t2026-07-28\t1\t" + pass, // a warning fails
		"sse-retry\t2025-11-25\t0\t" + failing,
		"http-standard-headers\t2026-07-28\t0\t" + skipped,
		"http-custom-headers\t2026-07-28\t1\t" + ok,
		"initialize\t2025-06-18\t1\t" + none,
		"",
	}, "\n")
	if err := os.WriteFile(runs, []byte(tsv), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run([]string{"-baseline", testBaseline(t), runs}, &out, &errb)
	if code != 1 {
		t.Errorf("exit %d, want 1 (runs failed); stderr %s", code, errb.String())
	}
	want := map[string]string{
		"tools_call":            "2       0       0         pass",
		"request-metadata":      "1       0       1         FAIL",
		"sse-retry":             "0       1       0         expected failure (baseline)",
		"http-standard-headers": "0       0       0         not exercised (baseline)",
		"http-custom-headers":   "2       0       0         STALE baseline entry (now passes)",
		"initialize":            "0       0       0         FAIL (no checks recorded)",
	}
	lines := strings.Split(out.String(), "\n")
	for name, w := range want {
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, name+" ") {
				found = true
				if !strings.HasSuffix(l, w) {
					t.Errorf("row %q\nwant it to end %q", l, w)
				}
			}
		}
		if !found {
			t.Errorf("no row for %s in\n%s", name, out.String())
		}
	}
	if !strings.Contains(out.String(), "\n1 passed, 3 failed (and 2 expected failures from the baseline, 0 not applicable or not exercised)\n") {
		t.Errorf("summary missing from\n%s", out.String())
	}
}

func TestBadInput(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(nil, &out, &errb); code != 2 {
		t.Errorf("no arguments: exit %d", code)
	}
	runs := filepath.Join(t.TempDir(), "runs.tsv")
	os.WriteFile(runs, []byte("only\ttwo\n"), 0o644)
	if code := run([]string{runs}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "4 tab-separated") {
		t.Errorf("bad runs file: exit %d, %s", code, errb.String())
	}
}
