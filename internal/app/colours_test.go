package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryProgramTakesTheDetectedColors: each Bubble Tea program of
// mcptui's (the inspector, replay, attach, the server picker) is given the
// color profile lipgloss detected (kit.DetectedColors), or one of its own
// (a test screen's), so that none detects the terminal's colors a second
// time before its first screen (see TestInspectorDetectsColoursOnce).
func TestEveryProgramTakesTheDetectedColors(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (d.Name() == "tools" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !isCall(call, "tea", "NewProgram") {
				return true
			}
			found++
			for _, a := range call.Args[1:] {
				if c, ok := a.(*ast.CallExpr); ok && (isCall(c, "kit", "DetectedColors") || isCall(c, "tea", "WithColorProfile")) {
					return true
				}
			}
			t.Errorf("%s: tea.NewProgram without the detected colors (kit.DetectedColors())", fset.Position(call.Pos()))
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 4 {
		t.Errorf("found %d Bubble Tea programs; want the inspector's, replay's, attach's and the picker's at least", found)
	}
}

// isCall says whether call is pkg.name(…).
func isCall(call *ast.CallExpr, pkg, name string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}
