package ui

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/ui/composer"
	"github.com/mcptui/mcptui/ui/dialog"
)

// TestHelpOverEveryOverlayGoesBack: f1 opens the help over whatever
// overlay is on top, on that overlay's keys, and esc comes back to the
// same overlay (the stack: help is pushed, not put in its place).
func TestHelpOverEveryOverlayGoesBack(t *testing.T) {
	for _, c := range []struct {
		name string
		open []string
		want string // a key help lists for this overlay
	}{
		{"viewer", []string{"3", "enter"}, "fold"},
		{"composer", []string{"n"}, "send"},
		{"answer editor", []string{"2", "enter"}, "send"},
		{"raw editor", []string{"2", "e"}, "close (the draft is kept)"},
		{"reject dialog", []string{"2", "x"}, "switch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, _ := newTest(t, 120, 40, uitest.Session()...)
			press(m, c.open...)
			under := m.top()
			if under == nil {
				t.Fatalf("%v opened nothing:\n%s", c.open, screen(m))
			}
			m.Update(tea.KeyPressMsg{Code: tea.KeyF1})
			if !topIs[*helpOverlay](m) || len(m.overlays) != 2 {
				t.Fatalf("f1 over %T: stack %s", under, stackOf(m))
			}
			if s := screen(m); !strings.Contains(s, c.want) {
				t.Errorf("the help over %T does not list %q:\n%s", under, c.want, s)
			}
			press(m, "esc")
			if m.top() != under || len(m.overlays) != 1 {
				t.Fatalf("esc from the help left %s, not %T", stackOf(m), under)
			}
		})
	}
}

// stackOf names the open overlays, bottom first.
func stackOf(m *Model) string {
	var out []string
	for _, o := range m.overlays {
		out = append(out, fmt.Sprintf("%T", o))
	}
	return "[" + strings.Join(out, " ") + "]"
}

// TestOverlayStack: show replaces what is open, push goes over it, and
// closing one closes what was opened over it.
func TestOverlayStack(t *testing.T) {
	m, _ := newTest(t, 100, 30)
	a, b, h := &dialog.Version[*Model]{}, &levelPicker{}, &helpOverlay{}
	m.show(a)
	m.push(h)
	m.show(b)
	if !slices.Equal(m.overlays, []Overlay{b}) {
		t.Fatalf("show kept %s", stackOf(m))
	}
	m.push(a)
	m.push(h)
	m.closeOverlay(a)
	if !slices.Equal(m.overlays, []Overlay{b}) {
		t.Fatalf("closing a left %s", stackOf(m))
	}
	m.closeOverlay(a) // not open: nothing happens
	m.closeOverlay(b)
	if m.top() != nil {
		t.Fatalf("left %s", stackOf(m))
	}
}

// overlayPackages are the packages that hold overlays of the root model
// (ui/overlay.Host).
var overlayPackages = []string{"composer", "dialog", "viewer"}

// TestOverlayPackagesListed: a package under ui that builds on
// ui/overlay (it holds overlays of the model) is in overlayPackages, so
// that TestOverlaysHaveOneHome reads it.
func TestOverlayPackagesListed(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join("*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if imp.Path.Value == `"github.com/mcptui/mcptui/ui/overlay"` && !slices.Contains(overlayPackages, filepath.Dir(name)) {
				t.Errorf("%s imports ui/overlay: add %s to overlayPackages", name, filepath.Dir(name))
			}
		}
	}
}

// TestOverlaysHaveOneHome: each overlay's methods (its keys, drawing,
// title, context) are in one file, and the root's dispatch (keys, drawing,
// footer and context, paste, mouse, messages) names no overlay but the
// help (f1 opens it over anything but itself): adding a dialog is its own
// file and one call that opens it. The overlays in packages of their own
// (overlayPackages) are held to the same.
func TestOverlaysHaveOneHome(t *testing.T) {
	fset := token.NewFileSet()
	var files []string
	for _, dir := range append([]string{"."}, overlayPackages...) {
		in, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(in) == 0 {
			t.Fatalf("no Go files in %s", dir)
		}
		files = append(files, in...)
	}
	homes := map[string]map[string]bool{} // receiver type → files of its methods
	var parsed []*ast.File
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil {
				continue
			}
			star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			typ := star.X
			if g, ok := typ.(*ast.IndexExpr); ok {
				typ = g.X // a generic overlay, Composer[H]
			}
			recv := typ.(*ast.Ident).Name
			if dir := filepath.Dir(name); dir != "." {
				recv = filepath.Base(dir) + "." + recv // as the root names it: dialog.Reject
			}
			if homes[recv] == nil {
				homes[recv] = map[string]bool{}
			}
			switch fn.Name.Name {
			case "Update", "View", "Title", "Context", "Keys", "key", "footer", "footerKeys", "FooterKeys", "wheel", "Wheel":
				homes[recv][name] = true
			}
		}
	}
	var overlays []string
	for recv, fs := range homes {
		if recv == "Model" || len(fs) == 0 {
			continue
		}
		overlays = append(overlays, recv)
		if len(fs) != 1 {
			t.Errorf("the overlay %s is spread over %v", recv, fs)
		}
	}
	if len(overlays) < 10 {
		t.Fatalf("found the overlays %v, want at least the ten of today", overlays)
	}
	root := []string{"keys.go", "view.go", "header.go", "update.go", "mouse.go", "overlay.go"}
	for _, f := range parsed {
		name := fset.File(f.Pos()).Name()
		if !slices.Contains(root, name) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if slices.Contains(overlays, n.Name) && !(name == "keys.go" && n.Name == "helpOverlay") {
					t.Errorf("%s: the root's dispatch names the overlay %s", fset.Position(n.Pos()), n.Name)
				}
			case *ast.SelectorExpr:
				if pkg, ok := n.X.(*ast.Ident); ok && slices.Contains(overlays, pkg.Name+"."+n.Sel.Name) {
					t.Errorf("%s: the root's dispatch names the overlay %s.%s", fset.Position(n.Pos()), pkg.Name, n.Sel.Name)
				}
			}
			return true
		})
	}
}

// TestWheelOverADialogLeavesThePanes: the wheel turned over a dialog that
// does not scroll (the composer here) moves nothing under it: the focus
// and the pane's cursor are where they were when it closes (it focused
// and scrolled the hidden pane under the pointer).
func TestWheelOverADialogLeavesThePanes(t *testing.T) {
	m, _ := newTest(t, 100, 30, uitest.Session()...)
	_ = screen(m)
	press(m, "1")
	r := m.rects()[paneTraffic]
	sel := m.traffic.list.cursor
	press(m, "n")
	if !topIs[*composer.Composer[*Model]](m) {
		t.Fatalf("n opened %s", stackOf(m))
	}
	m.Update(tea.MouseWheelMsg{X: r.x + 5, Y: r.y + 2, Button: tea.MouseWheelUp})
	press(m, "esc")
	if m.focus != paneInFlight || m.traffic.list.cursor != sel {
		t.Errorf("the wheel over the composer moved the panes under it: focus %d, traffic cursor %d → %d", m.focus, sel, m.traffic.list.cursor)
	}
}

// TestPickersListTheirOwnKeys: the footer and the help of the log level
// and version pickers list the keys that work there (enter picks, esc
// closes), not a form's (tab next field, which does nothing there).
func TestPickersListTheirOwnKeys(t *testing.T) {
	for _, c := range []struct{ open, want string }{
		{"L", "enter set this level"},
		{"V", "enter reconnects"},
	} {
		m, _ := newTest(t, 120, 40, uitest.Session()...)
		press(m, c.open)
		lines := strings.Split(screen(m), "\n")
		footer := lines[len(lines)-1]
		if !strings.Contains(footer, c.want) || strings.Contains(footer, "next field") {
			t.Errorf("%s: the footer says %q, want %q and no next field", c.open, footer, c.want)
		}
		m.Update(tea.KeyPressMsg{Code: tea.KeyF1})
		help := screen(m)
		if want := strings.Replace(c.want, " ", "  ", 1); !strings.Contains(help, c.want) && !strings.Contains(help, want) || strings.Contains(help, "switch") {
			t.Errorf("%s: the help does not list %q, or lists switch:\n%s", c.open, c.want, help)
		}
	}
}

// TestShowRefusesWhatIsNotAnOverlay: an overlay package opening something
// that is not an overlay of the model (Host.Show takes any) fails loudly
// rather than showing nothing.
func TestShowRefusesWhatIsNotAnOverlay(t *testing.T) {
	m, _ := newTest(t, 100, 30)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "not an Overlay") {
			t.Errorf("recovered %v", r)
		}
		if m.top() != nil {
			t.Errorf("%T opened", m.top())
		}
	}()
	m.Show(struct{}{})
}
