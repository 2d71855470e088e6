package main

import (
	"bytes"
	"os"
	"os/exec"
	"path"
	"regexp"
	"strings"
	"testing"
)

// architecturePage holds the table of packages, top to bottom, whose rule
// TestDocsArchitectureLayers enforces.
const architecturePage = "docs/architecture.md"

// modulePath is this module's import path.
const modulePath = "github.com/mcptui/mcptui"

// layerRows reads the package table of the architecture page: for each
// row, top to bottom, the package paths of its first cell (`ui/`,
// `internal/session/inbox`; `main.go` is the module's root package).
func layerRows(t *testing.T) [][]string {
	t.Helper()
	raw, err := os.ReadFile(architecturePage)
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(raw), "| package | job |")
	if !ok {
		t.Fatalf("%s has no | package | job | table", architecturePage)
	}
	code := regexp.MustCompile("`([^`]+)`")
	var rows [][]string
	for _, line := range strings.Split(table, "\n")[1:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(line, "|")
		if len(cells) < 3 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") {
			continue
		}
		var row []string
		for _, m := range code.FindAllStringSubmatch(cells[1], -1) {
			p := strings.TrimSuffix(m[1], "/")
			if p == "main.go" {
				p = "."
			}
			row = append(row, p)
		}
		if len(row) == 0 {
			t.Fatalf("%s: a row names no package: %q", architecturePage, line)
		}
		rows = append(rows, row)
	}
	if len(rows) < 10 {
		t.Fatalf("%s: read %d rows of the package table", architecturePage, len(rows))
	}
	return rows
}

// TestDocsArchitectureLayers enforces the architecture page's rule: every
// package of the module sits in a row of its table (the row naming it, or
// its nearest parent directory), and imports only packages of its own row
// or of rows below. An import that points up the table, a package the
// table does not place, or a row naming no package fails.
func TestDocsArchitectureLayers(t *testing.T) {
	rows := layerRows(t)
	rowOf := map[string]int{}
	for i, row := range rows {
		for _, p := range row {
			if _, dup := rowOf[p]; dup {
				t.Errorf("%s names %s twice", architecturePage, p)
			}
			rowOf[p] = i
		}
	}
	// The module's packages, each with its imports (tests' imports aside:
	// a test may reach anywhere).
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	place := func(pkg string) (int, bool) {
		if pkg == "." {
			i, ok := rowOf["."]
			return i, ok
		}
		for p := pkg; p != "."; p = path.Dir(p) {
			if i, ok := rowOf[p]; ok {
				return i, true
			}
		}
		return 0, false
	}
	rel := func(imp string) (string, bool) {
		if imp == modulePath {
			return ".", true
		}
		r, ok := strings.CutPrefix(imp, modulePath+"/")
		return r, ok
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, _ := rel(fields[0])
		listed[pkg] = true
		from, ok := place(pkg)
		if !ok {
			t.Errorf("%s is in no row of %s's package table: add it where its imports put it", pkg, architecturePage)
			continue
		}
		for _, imp := range fields[1:] {
			dep, ok := rel(imp)
			if !ok {
				continue
			}
			to, ok := place(dep)
			if !ok {
				continue // reported as a package of its own
			}
			if to < from {
				t.Errorf("%s (row %d of %s) imports %s (row %d): imports point down the table", pkg, from+1, architecturePage, dep, to+1)
			}
		}
	}
	for p := range rowOf {
		found := false
		for l := range listed {
			if l == p || strings.HasPrefix(l, p+"/") || p == "." {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s names %s, which holds no package", architecturePage, p)
		}
	}
}
