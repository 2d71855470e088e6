package protocol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// notRevisions are the date-shaped string literals of the module's code
// that name no revision of the protocol, each with what it is.
var notRevisions = map[string]string{
	"apps/bridge.go 2026-01-26":                   "the MCP Apps extension's own protocol version (ui/initialize)",
	"internal/check/args.go 2026-01-01":           "a sample value for a JSON Schema string of format date",
	"internal/check/http26.go 2099-01-01":         "a version no server speaks, sent to see it refused",
	"internal/check/lifecycle.go 2099-01-01":      "a version no server speaks, sent to see it refused",
	"internal/check/lifecycle.go 2024-10-00":      "a malformed version, sent to see it refused",
	"internal/check/lifecycle.go 1999-01-01":      "a version older than any, sent to see it refused",
	"internal/check/http26.go 1999-01-01":         "a version older than any, sent to see it refused",
	"internal/hostprofile/profiles.go 2026-12-03": "the date of the host profiles table",
	"ui/form/update.go 2006-01-02":                "Go's reference date, a time layout",
}

var dateShaped = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// TestRevisionsAreWrittenOnce: a revision of the protocol is written in
// this package only; everywhere else the code reads it from here, so that
// adding a revision is one edit here and nothing can be forgotten. The
// test reads every non-test Go file of the module (not the nested modules
// under tools/, which cannot import this package) and lists each string
// literal shaped like a date that is not listed above as something else.
func TestRevisionsAreWrittenOnce(t *testing.T) {
	root := moduleRoot(t)
	var found []string
	for _, lit := range stringLiterals(t, root) {
		if !dateShaped.MatchString(lit.value) {
			continue
		}
		if _, ok := notRevisions[lit.file+" "+lit.value]; ok {
			continue
		}
		found = append(found, lit.pos+": "+strconv.Quote(lit.value))
	}
	if len(found) > 0 {
		t.Errorf("protocol revisions written outside internal/protocol (read them from there, or list a date that is no revision in notRevisions):\n%s",
			strings.Join(found, "\n"))
	}
}

type literal struct{ file, pos, value string }

// moduleRoot is the directory of the module's go.mod, two levels up.
func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no module root at %s: %v", root, err)
	}
	return root
}

// stringLiterals are the string literals of the module's non-test Go
// files outside this package, testdata and nested modules.
func stringLiterals(t *testing.T, root string) []literal {
	t.Helper()
	self, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	var lits []literal
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path == self || name == "testdata" || name == "node_modules" || path != root && strings.HasPrefix(name, ".") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
				return filepath.SkipDir // another module
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		ast.Inspect(f, func(n ast.Node) bool {
			if b, ok := n.(*ast.BasicLit); ok && b.Kind == token.STRING {
				if v, err := strconv.Unquote(b.Value); err == nil {
					p := fset.Position(b.Pos())
					lits = append(lits, literal{file: rel, pos: rel + ":" + strconv.Itoa(p.Line), value: v})
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return lits
}
