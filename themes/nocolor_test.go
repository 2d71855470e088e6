package themes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoColorIsReadHereOnly: the NO_COLOR convention is read by NoColor
// alone; the rest of the module asks it (it was read by hand in four
// places of internal/app).
func TestNoColorIsReadHereOnly(t *testing.T) {
	root, self := "..", "."
	selfAbs, _ := filepath.Abs(self)
	var found []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			abs, _ := filepath.Abs(path)
			_, mod := os.Stat(filepath.Join(path, "go.mod"))
			if abs == selfAbs || d.Name() == "testdata" || d.Name() == "node_modules" || path != root && (strings.HasPrefix(d.Name(), ".") || mod == nil) {
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
			if b, ok := n.(*ast.BasicLit); ok && b.Kind == token.STRING && b.Value == `"NO_COLOR"` {
				found = append(found, fset.Position(b.Pos()).String())
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Errorf("NO_COLOR read by hand (use themes.NoColor):\n%s", strings.Join(found, "\n"))
	}
}
