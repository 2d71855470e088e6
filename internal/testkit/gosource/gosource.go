// Package gosource reads the module's own Go source for tests that keep a
// fact in one place: the string literals of its non-test files.
package gosource

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Literal is one string literal: the file (relative to the module root,
// slash-separated), its line and its value.
type Literal struct {
	File  string
	Line  int
	Value string
}

// Pos is file:line.
func (l Literal) Pos() string { return l.File + ":" + strconv.Itoa(l.Line) }

// ModuleRoot is the directory of the module's go.mod, found upward from
// the test's directory.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = up
	}
}

// StringLiterals are the string literals of the module's non-test Go
// files, but those under testdata, node_modules, third_party (libraries
// copied as they are, not held to the module's rules), hidden
// directories, nested modules and the directories skip names (relative
// to the root).
func StringLiterals(t testing.TB, skip ...string) []Literal {
	t.Helper()
	root := ModuleRoot(t)
	var lits []Literal
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if path == root {
				return nil
			}
			_, nested := os.Stat(filepath.Join(path, "go.mod"))
			name := d.Name()
			if nested == nil || name == "testdata" || name == "node_modules" || rel == "third_party" || strings.HasPrefix(name, ".") || contains(skip, rel) {
				return filepath.SkipDir
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
		ast.Inspect(f, func(n ast.Node) bool {
			if b, ok := n.(*ast.BasicLit); ok && b.Kind == token.STRING {
				if v, err := strconv.Unquote(b.Value); err == nil {
					lits = append(lits, Literal{File: rel, Line: fset.Position(b.Pos()).Line, Value: v})
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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
