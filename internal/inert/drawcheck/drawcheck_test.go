package drawcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/mcptui/mcptui"

// checked are the packages whose drawing is checked: every editor and
// viewer of the program. (Every package of the module is read, for what
// its functions return.)
var checked = []string{module + "/ui", module + "/internal/attach", module + "/internal/doctor"}

// sinks are the functions that take safe text, by full name, and which of
// their parameters does. (Functions with a string parameter named safe are
// sinks too.)
var sinks = map[string][]int{
	module + "/internal/inert.Truncate":            {0},
	module + "/internal/inert.Pad":                 {0},
	module + "/internal/inert.Cells":               {0},
	module + "/ui/kit.Txt":                         {0},
	module + "/ui/kit.Own":                         {0},
	module + "/ui/kit.Fit":                         {0},
	"github.com/charmbracelet/x/ansi.Truncate":     {0},
	"github.com/charmbracelet/x/ansi.TruncateLeft": {0},
	"github.com/charmbracelet/x/ansi.Cut":          {0},
	"github.com/charmbracelet/x/ansi.Wordwrap":     {0},
	"github.com/charmbracelet/x/ansi.Hardwrap":     {0},
	"github.com/charmbracelet/x/ansi.Wrap":         {0},
}

// producers are the packages whose functions return safe text: the inert
// path itself, the drawing kit (it escapes what it is given as server
// text), and the program's own words (key hints, themes).
var producers = []string{module + "/internal/inert", module + "/ui/kit", module + "/keymap", module + "/themes"}

// notSafe are functions of producers whose result is not escaped.
var notSafe = map[string]bool{
	module + "/internal/inert.Clip": true,
}

// allowed are the findings that are not errors, by "package.Function:
// expression where", with the reason: those reviewed say why the text is
// safe; the rest were there when the check was written and wait for a
// review. Anything new must be escaped with inert, or listed here with
// the reason it is safe.
var allowed = map[string]string{
	"ui.buildServerDoc: \"pinned to \" + strings.Join(info.Allowed, \"\") + \" (--protocol, or V): no probe was sent\" to (*ui.docWriter).own":                 "info.Allowed: the versions the client allowed (mcptui's list, or --protocol checked against it)",
	"ui.buildServerDoc: strings.Join(info.Allowed, \" \") + \" (most preferred first; --protocol restricts, V reconnects at another)\" to (*ui.docWriter).own": "info.Allowed: the versions the client allowed (mcptui's list, or --protocol checked against it)",
	"ui.buildServerDoc: level to (*ui.docWriter).own":                                           "c.LogLevel: the level the client asked for (mcptui's list of levels), and a key hint",
	"ui.buildServerDoc: c.LogLevel + \" \" + inert.Line(c.LogLevelErr) to (*ui.docWriter).own":  "c.LogLevel: the level the client asked for; the error is escaped",
	"ui.lintSection: r.Text to (*ui.docWriter).own":                                             "a rule's text from the rule table (the program's)",
	"ui.lintSection: r.Fix to (*ui.docWriter).own":                                              "a rule's fix from the rule table (the program's)",
	"(*internal/attach.Model).BreakLine: m.filter.View() to ui/kit.Fit":                         "the textinput of the person's own breakpoint filter (prefilled with the filter they armed)",
	"(*ui.Model).callLines: fmt.Sprintf(\"%*s\", ageW, fmtAge(c.Age(now))) to ui/kit.Own":       "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui.Model).callLines: fmt.Sprintf(\"%*s\", statusW, status) to ui/kit.Own":                "status is fmtAge of a duration, \"timed out\" or another of the program's words",
	"(*ui.Model).callLines: m.bar(barW, frac, det, now, !sel) to ui/kit.Txt":                    "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui/composer.Composer[H]).View: \" \" + msg to internal/inert.Truncate":                   "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui/composer.Composer[H]).View: l to ui/kit.Fit":                                          "rows of the params textarea: the person's typing, or kit.JSONSafe of the skeleton and form values (ui/composer: pick.go, argsview.go)",
	"(*ui/composer.Composer[H]).drawArgs: l to ui/kit.Fit":                                      "rows of the params textarea: the person's typing, or kit.JSONSafe of the form's values",
	"(*ui.editor).View: l to ui/kit.Fit":                                                        "rows of the answer editor: kit.JSONSafe of the answer (pending.go, answering.go) or the person's own $EDITOR text",
	"(*ui/dialog.Listen[H]).View: \" \" + check(d.kinds[i]) + name to ui/kit.Own":               "name ranges over listenKinds, the program's list",
	"(*ui/dialog.Listen[H]).View: \" \" + msg to ui/kit.Own":                                    "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui/dialog.Listen[H]).View: d.uri.View() to ui/kit.Txt":                                   "the person's own typed URI",
	"(*ui.Model).drawLog: msg to ui/kit.Own":                                                    "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui.Model).drawPanes: m.paneTitle(p) to ui/kit.ScrollBox":                                 "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui/dialog.Reject[H]).View: \" \" + msg to ui/kit.Own":                                    "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui/dialog.Reject[H]).View: d.code.View() to ui/kit.Txt":                                  "the default code, a number, or the person's typing",
	"(*ui/dialog.Reject[H]).View: d.msg.View() to ui/kit.Txt":                                   "the default message quotes the server's method through inert.Line (model.DefaultRejection, TestDefaultRejectionIsInert); the rest is the person's typing",
	"(*ui.Model).drawOverlay: o.Title(m) to ui/kit.Box":                                         "the Overlay interface's Title, which the check cannot follow: each is the program's words or escapes what it quotes with inert.Fit (viewer, editor, reject dialog), or answer.Editor's Title (listed before as drawRich's; not yet reviewed by hand, issue 25)",
	"(*ui.Model).drawServer: ansi.Strip(lines[i].text) to ui/kit.Fit":                           "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui.Model).drawServer: lines[i].text to ui/kit.Fit":                                       "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui.Model).drawSubs: \" \" + count to ui/kit.Own":                                         "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui.Model).drawTraffic: m.filterInput.View() to ui/kit.Txt":                               "the person's own typed traffic filter",
	"(*ui/dialog.Version[H]).View: \" \" + label to ui/kit.Own":                                 "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui.Model).footer: line to internal/inert.Pad":                                            "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui.Model).linkCell: link + \" \" to ui/kit.Own":                                          "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui.Model).networkRow: shortType(x.ContentType) to ui/kit.Own":                            "ContentType is mime.ParseMediaType's media type: token characters only, or empty",
	"(*ui.Model).networkRow: took to internal/inert.Pad":                                        "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui.Model).networkRow: x.Method to ui/kit.Own":                                            "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui.Model).questionRow: fmt.Sprintf(\"%*s \", ageW, fmtAge(q.Waited(now))) to ui/kit.Own": "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui/answer.Roots).View: \" ✗ \" + r.err to ui/kit.Own":                                    "the error of parsing the person's own typed root URI",
	"(*ui/answer.Sampling).View: l to ui/kit.Fit":                                               "the rows of a textarea holding the person's own reply (typed, or the raw JSON mcptui built from it)",
	"(*ui/catalog.Model).details: \" \" + later to ui/kit.Own":                                  "laterToolFields: spec field names and mcp.NotIn of the negotiated version (one mcptui speaks)",
	"(*ui/kit.LevelPicker).View: l to ui/kit.Own":                                               "an element of protocol.LogLevels(), the program's list of levels (the one level picker)",
	"(*ui/catalog.Model).optionsLine: \" options: \" + strings.Join(parts, \" · \") + \" (\" + keymap.Hint(keymap.Described(m.keys.Catalog.Options, \"changes them\")… to ui/kit.Own": "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui/catalog.Model).resultLine: it.head to ui/kit.Txt":            "ritem.head is set from literals and fmt.Sprintf of a kind word and a size (result.go)",
	"(*ui/catalog.Model).resultLine: lines[l.sub] as a kit.Seg's text": "ritem.wrap: kit.Wrap of the text, which escapes it",
	"(*ui/catalog.Model).runningView: mark to ui/kit.Txt":              "mcp.NotIn names the negotiated version, one mcptui speaks (negotiation refuses others)",
	"(*ui/catalog.Model).schemaLines: \" \" + label to ui/kit.Own":     "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"(*ui/form.Model).rawView: l to ui/kit.Fit":                        "rows of the raw textarea: kit.JSONSafe of the values (form.go)",
	"(ui/picker.Model).View: title to ui/kit.Box":                      "a count and the person's own typed filter",
	"ui.lintSection: f.Rule to ui/kit.Own":                             "a finding's rule id: an id of the rule table",
	"ui.lintSection: section to ui/kit.Own":                            "a rule's spec section from the rule table",
	"ui.spread: left to charmbracelet/x/ansi.Truncate":                 "headerLeft's drawn text; not followed through the call: not yet reviewed line by line",
	"ui.spread: right to charmbracelet/x/ansi.Truncate":                "the header's counters: styled fmt.Sprintf of numbers (its only caller, header)",
	"ui/catalog.boxLines: title to ui/kit.Box":                         "an existing use the check cannot follow (a field, a method through an interface, a bubbles component's View); not yet reviewed by hand (issue 25)",
	"ui/catalog.overlay: row to charmbracelet/x/ansi.Truncate":         "rows of a drawn screen (safe text), cut to lay a dialog over them",
	"ui/catalog.overlay: row to charmbracelet/x/ansi.TruncateLeft":     "rows of a drawn screen (safe text), cut to lay a dialog over them",
	"ui/kit.measure: l to internal/inert.Cells":                        "kit.JoinColumns and JoinRows take drawn rows (safe text) by contract",
}

// listed is one package as go list describes it.
type listed struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Export     string
	DepOnly    bool
	Standard   bool
}

// TestUntrustedTextReachesNoDrawingRaw type-checks the screens and
// reports every argument of a drawing call that takes safe text which is
// not shown to be the program's own text or the output of the inert path.
// DRAWCHECK_LIST=1 logs every finding, allowed ones included, with its
// place.
func TestUntrustedTextReachesNoDrawingRaw(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the screens")
	}
	root := moduleRoot(t)
	cmd := exec.Command("go", "list", "-e", "-export", "-deps", "-json=ImportPath,Dir,GoFiles,Export,DepOnly,Standard", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	exports := map[string]string{}
	var targets []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		exports[p.ImportPath] = p.Export
		if !p.DepOnly && !p.Standard && strings.HasPrefix(p.ImportPath, module) && !strings.Contains(p.ImportPath, "/testdata/") {
			targets = append(targets, p)
		}
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := exports[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})
	c := &checker{fset: fset, funcs: map[string]*funcInfo{}, safeParams: map[string][]int{}, fieldSets: map[string][]fieldSet{}}
	for _, p := range targets {
		var files []*ast.File
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
			Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
		conf := types.Config{Importer: imp, Error: func(error) {}}
		pkg, _ := conf.Check(p.ImportPath, fset, files, info)
		c.add(pkg, files, info)
	}
	c.collectSafeParams()
	findings := c.run()
	var unexpected []string
	seen := map[string]bool{}
	for _, f := range findings {
		if os.Getenv("DRAWCHECK_LIST") != "" {
			t.Logf("%s: %s (%s)", f.pos, f.key, allowed[f.key])
		}
		seen[f.key] = true
		if _, ok := allowed[f.key]; !ok {
			unexpected = append(unexpected, f.pos+": "+f.key)
		}
	}
	slices.Sort(unexpected)
	if len(unexpected) > 0 {
		t.Errorf("%d arguments of drawing calls that take safe text are not shown to be safe (escape them with inert, or list them in allowed with the reason):\n%s",
			len(unexpected), strings.Join(unexpected, "\n"))
	}
	for key := range allowed {
		if !seen[key] {
			t.Errorf("allowed lists %q, which is no longer found: remove it", key)
		}
	}
}

func moduleRoot(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// funcInfo is a function declared in a checked package.
type funcInfo struct {
	decl *ast.FuncDecl
	info *types.Info
	pkg  string
}

type checker struct {
	fset *token.FileSet
	// funcs by full name; safeParams: the parameters of each function that
	// take safe text (sinks and parameters named safe).
	funcs      map[string]*funcInfo
	safeParams map[string][]int
	// returns caches whether a function returns safe text when its
	// arguments are (in progress: false, so that recursion is not
	// trusted).
	returns map[string]bool
	// fieldSets are the values given to each struct field (by
	// "pkg.Type.field"), fields caches whether they are all safe.
	fieldSets map[string][]fieldSet
	fields    map[string]bool
}

// fieldSet is a value given to a field, in the function that gives it.
type fieldSet struct {
	fi    *funcInfo
	name  string
	value ast.Expr
}

type finding struct{ pos, key string }

func (c *checker) add(pkg *types.Package, files []*ast.File, info *types.Info) {
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			obj, ok := info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			fi := &funcInfo{decl: fd, info: info, pkg: pkg.Path()}
			c.funcs[obj.FullName()] = fi
			c.collectFieldSets(fi, obj.FullName())
		}
	}
}

// collectFieldSets notes every value fi gives a struct field: x.f = v,
// T{f: v}, T{v, ...}.
func (c *checker) collectFieldSets(fi *funcInfo, name string) {
	info := fi.info
	ast.Inspect(fi.decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
				if !ok {
					continue
				}
				key := fieldKey(info, sel)
				if key == "" {
					continue
				}
				var v ast.Expr
				if len(n.Rhs) == len(n.Lhs) {
					v = n.Rhs[i]
					if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
						v = &ast.BinaryExpr{X: l, Op: token.ADD, Y: n.Rhs[i]}
					}
				}
				c.fieldSets[key] = append(c.fieldSets[key], fieldSet{fi, name, v})
			}
		case *ast.CompositeLit:
			tv, ok := info.Types[n]
			if !ok {
				return true
			}
			t := tv.Type
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			st, ok := t.Underlying().(*types.Struct)
			if !ok {
				return true
			}
			for i, e := range n.Elts {
				var f *types.Var
				v := e
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					id, ok := kv.Key.(*ast.Ident)
					if !ok {
						continue
					}
					for k := 0; k < st.NumFields(); k++ {
						if st.Field(k).Name() == id.Name {
							f = st.Field(k)
						}
					}
					v = kv.Value
				} else if i < st.NumFields() {
					f = st.Field(i)
				}
				if f != nil {
					key := typeName(t) + "." + f.Name()
					c.fieldSets[key] = append(c.fieldSets[key], fieldSet{fi, name, v})
				}
			}
		}
		return true
	})
}

// fieldKey names the field sel selects, "pkg.Type.field", or "".
func fieldKey(info *types.Info, sel *ast.SelectorExpr) string {
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return ""
	}
	recv := s.Recv()
	// The field's own struct: the last step of the path.
	t := recv
	idx := s.Index()
	for k, i := range idx {
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return ""
		}
		if k == len(idx)-1 {
			return typeName(t) + "." + st.Field(i).Name()
		}
		t = st.Field(i).Type()
	}
	return ""
}

// fieldSafe reports whether every value the module gives the field is
// safe (a field never given one is not: it is decoded or copied in).
func (c *checker) fieldSafe(key string, depth int) bool {
	if v, ok := c.fields[key]; ok {
		return v
	}
	sets := c.fieldSets[key]
	c.fields[key] = true // in progress: decided by the other values
	ok := len(sets) > 0
	for _, fs := range sets {
		if fs.value == nil || !(&funcCheck{c: c, fi: fs.fi, name: fs.name}).safe(fs.value, depth+1) {
			ok = false
			break
		}
	}
	c.fields[key] = ok
	return ok
}

func (c *checker) collectSafeParams() {
	for name, idx := range sinks {
		c.safeParams[name] = idx
	}
	for name, fi := range c.funcs {
		i := 0
		for _, field := range fi.decl.Type.Params.List {
			n := max(len(field.Names), 1)
			for k := 0; k < n; k++ {
				if k < len(field.Names) && strings.HasPrefix(field.Names[k].Name, "safe") && !slices.Contains(c.safeParams[name], i) {
					c.safeParams[name] = append(c.safeParams[name], i)
				}
				i++
			}
		}
	}
}

// run checks every call to a sink, and every kit.Seg literal, in the
// checked packages.
func (c *checker) run() []finding {
	c.returns = map[string]bool{}
	c.fields = map[string]bool{}
	var out []finding
	names := make([]string, 0, len(c.funcs))
	for name := range c.funcs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		fi := c.funcs[name]
		if !inChecked(fi.pkg) {
			continue
		}
		fc := &funcCheck{c: c, fi: fi, name: name}
		ast.Inspect(fi.decl.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				callee := calleeName(fi.info, n)
				for _, i := range c.safeParams[callee] {
					args := n.Args[min(i, len(n.Args)):min(i+1, len(n.Args))]
					if variadicAt(fi.info, n, i) && !n.Ellipsis.IsValid() {
						args = n.Args[min(i, len(n.Args)):]
					}
					for _, a := range args {
						if !fc.safe(a, 0) {
							out = append(out, c.report(fi, name, a, "to "+shortName(callee)))
						}
					}
				}
			case *ast.CompositeLit:
				if tv, ok := fi.info.Types[n]; ok && typeName(tv.Type) == module+"/ui/kit.Seg" {
					for i, e := range n.Elts {
						v := e
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							if id, ok := kv.Key.(*ast.Ident); !ok || id.Name != "S" {
								continue
							}
							v = kv.Value
						} else if i != 0 {
							continue
						}
						if !fc.safe(v, 0) {
							out = append(out, c.report(fi, name, v, "as a kit.Seg's text"))
						}
					}
				}
			}
			return true
		})
	}
	return out
}

func inChecked(pkg string) bool {
	for _, p := range checked {
		if pkg == p || strings.HasPrefix(pkg, p+"/") {
			return true
		}
	}
	return false
}

func (c *checker) report(fi *funcInfo, fn string, e ast.Expr, where string) finding {
	return finding{pos: c.fset.Position(e.Pos()).String(), key: shortName(fn) + ": " + exprString(c.fset, e) + " " + where}
}

func shortName(full string) string {
	return strings.TrimPrefix(strings.ReplaceAll(full, module+"/", ""), "github.com/")
}

func typeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Path() + "." + n.Obj().Name()
	}
	return t.String()
}

func exprString(fset *token.FileSet, e ast.Expr) string {
	var b bytes.Buffer
	_ = printNode(&b, fset, e)
	s := strings.Join(strings.Fields(b.String()), " ")
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

// calleeName is the full name of the function a call calls statically,
// or "".
func calleeName(info *types.Info, call *ast.CallExpr) string {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	case *ast.IndexExpr: // a generic function
		if s, ok := f.X.(*ast.SelectorExpr); ok {
			id = s.Sel
		} else if i, ok := f.X.(*ast.Ident); ok {
			id = i
		}
	}
	if id == nil {
		return ""
	}
	if fn, ok := info.Uses[id].(*types.Func); ok {
		return fn.Origin().FullName()
	}
	return ""
}

// variadicAt reports whether parameter i of the called function is its
// variadic one.
func variadicAt(info *types.Info, call *ast.CallExpr, i int) bool {
	tv, ok := info.Types[call.Fun]
	if !ok {
		return false
	}
	sig, ok := tv.Type.Underlying().(*types.Signature)
	return ok && sig.Variadic() && i == sig.Params().Len()-1
}

// funcCheck follows expressions within one function.
type funcCheck struct {
	c    *checker
	fi   *funcInfo
	name string
	// visiting guards local variables against cycles.
	visiting map[types.Object]bool
	// paramsSafe: every parameter is taken to be safe (what the function
	// returns is then safe when its arguments are; they are checked at
	// each call).
	paramsSafe bool
	// litParams are the parameters of a local function being checked,
	// taken as safe (its arguments are checked at the call).
	litParams map[types.Object]bool
}

const maxDepth = 40

// safe reports whether e is shown to be safe text (or text made only of
// safe text, for a slice), or not text at all.
func (fc *funcCheck) safe(e ast.Expr, depth int) bool {
	if depth > maxDepth {
		return false
	}
	info := fc.fi.info
	tv, ok := info.Types[e]
	if ok && tv.Value != nil {
		return true // a constant: the program's words
	}
	if ok && !holdsText(tv.Type) {
		return true
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return fc.safe(e.X, depth+1)
	case *ast.BinaryExpr:
		return fc.safe(e.X, depth+1) && fc.safe(e.Y, depth+1)
	case *ast.SliceExpr:
		return fc.safe(e.X, depth+1)
	case *ast.IndexExpr:
		return fc.safe(e.X, depth+1)
	case *ast.CompositeLit:
		for _, el := range e.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			if !fc.safe(el, depth+1) {
				return false
			}
		}
		return true
	case *ast.Ident:
		return fc.safeIdent(e, depth)
	case *ast.CallExpr:
		return fc.safeCall(e, depth)
	case *ast.SelectorExpr:
		key := fieldKey(info, e)
		if key == "" {
			return false
		}
		pkg, _ := splitName(key)
		if key == module+"/ui/kit.Seg.S" {
			return true // a sink: every value given it is checked where it is given
		}
		if pkg == module+"/keymap" || pkg == module+"/themes" || pkg == "charm.land/bubbles/v2/key" {
			return true // the program's words: key help, theme names
		}
		return fc.c.fieldSafe(key, depth)
	case *ast.StarExpr:
		return fc.safe(e.X, depth+1)
	}
	return false
}

// holdsText reports whether values of t can carry text: strings, slices
// of runes or bytes, and slices, arrays and maps of them. (A lone rune or
// byte is taken for a number: go/types cannot tell rune from int32.)
func holdsText(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice:
		if b, ok := u.Elem().Underlying().(*types.Basic); ok && (b.Kind() == types.Int32 || b.Kind() == types.Uint8) {
			return true
		}
		return holdsText(u.Elem())
	case *types.Array:
		return holdsText(u.Elem())
	case *types.Map:
		return holdsText(u.Elem())
	}
	return false
}

func (fc *funcCheck) safeIdent(id *ast.Ident, depth int) bool {
	obj, ok := fc.fi.info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	if fc.litParams[obj] {
		return true
	}
	// A parameter of this function that takes safe text.
	params := fc.fi.decl.Type.Params
	i := 0
	for _, field := range params.List {
		for _, n := range field.Names {
			if fc.fi.info.Defs[n] == obj {
				return fc.paramsSafe || slices.Contains(fc.c.safeParams[fc.name], i)
			}
			i++
		}
		if len(field.Names) == 0 {
			i++
		}
	}
	if obj.Parent() == nil || obj.Parent() == obj.Pkg().Scope() {
		return false // a field or a package variable
	}
	if fc.visiting == nil {
		fc.visiting = map[types.Object]bool{}
	}
	if fc.visiting[obj] {
		return true // a cycle: decided by the other assignments
	}
	fc.visiting[obj] = true
	defer delete(fc.visiting, obj)
	return fc.assignmentsSafe(obj, depth)
}

// assignmentsSafe reports whether every value a local variable is given in
// this function is safe.
func (fc *funcCheck) assignmentsSafe(obj types.Object, depth int) bool {
	info := fc.fi.info
	ok := true
	is := func(e ast.Expr) bool {
		id, isID := ast.Unparen(e).(*ast.Ident)
		return isID && (info.Defs[id] == obj || info.Uses[id] == obj)
	}
	ast.Inspect(fc.fi.decl.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if !is(l) {
					continue
				}
				switch {
				case len(n.Rhs) == len(n.Lhs):
					ok = fc.safe(n.Rhs[i], depth+1)
				case len(n.Rhs) == 1:
					ok = fc.safeMulti(n.Rhs[0], i, depth+1)
				default:
					ok = false
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] != obj {
					continue
				}
				switch {
				case len(n.Values) == 0:
				case len(n.Values) == len(n.Names):
					ok = fc.safe(n.Values[i], depth+1)
				default:
					ok = fc.safeMulti(n.Values[0], i, depth+1)
				}
			}
		case *ast.RangeStmt:
			if n.Value != nil && is(n.Value) {
				ok = fc.safe(n.X, depth+1)
			}
			if n.Key != nil && is(n.Key) {
				if tv, found := info.Types[n.X]; found {
					_, isMap := tv.Type.Underlying().(*types.Map)
					ok = !isMap && !isString(tv.Type)
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND && is(n.X) {
				ok = false // its address escapes: anything may write it
			}
		}
		return ok
	})
	return ok
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// safeMulti is safe for result i of a call returning several values.
func (fc *funcCheck) safeMulti(e ast.Expr, i int, depth int) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false // a map index, a type assertion, a receive
	}
	return fc.producerCall(calleeName(fc.fi.info, call), call, depth)
}

func (fc *funcCheck) safeCall(call *ast.CallExpr, depth int) bool {
	info := fc.fi.info
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		// A conversion: string(runes) is as safe as the runes.
		return len(call.Args) == 1 && fc.safe(call.Args[0], depth+1)
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, builtin := info.Uses[id].(*types.Builtin); builtin {
			switch id.Name {
			case "append":
				for _, a := range call.Args {
					if !fc.safe(a, depth+1) {
						return false
					}
				}
				return true
			case "min", "max":
				return false
			}
			return true
		}
	}
	name := calleeName(info, call)
	if name == "" {
		return fc.closureCall(call, depth)
	}
	return fc.producerCall(name, call, depth)
}

// closureCall: a call of a local function (v := func(...) string {...})
// returns safe text when each of its bodies returns safe text (its
// parameters taken as safe) and the arguments are safe.
func (fc *funcCheck) closureCall(call *ast.CallExpr, depth int) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	obj := fc.fi.info.Uses[id]
	if obj == nil {
		return false
	}
	var lits []*ast.FuncLit
	other := false
	ast.Inspect(fc.fi.decl.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			lid, ok := l.(*ast.Ident)
			if !ok || (fc.fi.info.Defs[lid] != obj && fc.fi.info.Uses[lid] != obj) {
				continue
			}
			if i < len(as.Rhs) {
				if lit, ok := as.Rhs[i].(*ast.FuncLit); ok {
					lits = append(lits, lit)
					continue
				}
			}
			other = true
		}
		return true
	})
	if other || len(lits) == 0 {
		return false
	}
	for _, a := range call.Args {
		if !fc.safe(a, depth+1) {
			return false
		}
	}
	for _, lit := range lits {
		params := map[types.Object]bool{}
		for _, f := range lit.Type.Params.List {
			for _, n := range f.Names {
				params[fc.fi.info.Defs[n]] = true
			}
		}
		inner := &funcCheck{c: fc.c, fi: fc.fi, name: fc.name, litParams: params}
		ok := true
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if _, nested := n.(*ast.FuncLit); nested {
				return false
			}
			if r, isRet := n.(*ast.ReturnStmt); isRet {
				for _, e := range r.Results {
					if !inner.safe(e, depth+1) {
						ok = false
					}
				}
			}
			return ok
		})
		if !ok {
			return false
		}
	}
	return true
}

// producerCall reports whether the call (to name) returns safe text.
func (fc *funcCheck) producerCall(name string, call *ast.CallExpr, depth int) bool {
	args := func(from int) bool {
		for _, a := range call.Args[min(from, len(call.Args)):] {
			if !fc.safe(a, depth+1) {
				return false
			}
		}
		return true
	}
	pkg, fn := splitName(name)
	switch {
	case notSafe[name]:
		return false
	case slices.Contains(producers, pkg):
		return true
	case pkg == "charm.land/lipgloss/v2":
		// Render and the joins draw what they are given.
		return args(0)
	case pkg == "fmt" && (fn == "Sprintf" || fn == "Sprint" || fn == "Sprintln" || fn == "Errorf"):
		return args(0)
	case pkg == "strconv", pkg == "time", pkg == "unicode/utf8":
		return !strings.HasPrefix(fn, "Quote") || fn == "Quote" || fn == "QuoteToASCII"
	case name == "(*strings.Builder).String":
		return fc.builderSafe(call, depth)
	case pkg == "strings" && (fn == "Repeat" || fn == "TrimSpace" || fn == "TrimSuffix" || fn == "TrimPrefix" || fn == "ToUpper" ||
		fn == "ToLower" || fn == "Title" || fn == "TrimRight" || fn == "TrimLeft" || fn == "Trim" || fn == "Fields" || fn == "Split" ||
		fn == "SplitN" || fn == "Join" || fn == "Cut" || fn == "CutPrefix" || fn == "CutSuffix"):
		return args(0)
	case strings.HasPrefix(pkg, "github.com/charmbracelet/x/ansi"):
		return args(0)
	}
	if fi, ok := fc.c.funcs[name]; ok {
		return fc.c.returnsSafe(name, fi, depth) && args(0) && fc.receiverSafe(call, depth)
	}
	return false
}

// builderSafe: b.String() of a local strings.Builder is safe when
// everything written to it in this function is (WriteString, WriteByte,
// WriteRune, fmt.Fprint*).
func (fc *funcCheck) builderSafe(call *ast.CallExpr, depth int) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return false
	}
	obj := fc.fi.info.Uses[id]
	v, ok := obj.(*types.Var)
	if !ok || v.Parent() == nil || v.Parent() == v.Pkg().Scope() || fc.litParams[obj] {
		return false
	}
	for _, field := range fc.fi.decl.Type.Params.List {
		for _, n := range field.Names {
			if fc.fi.info.Defs[n] == obj {
				return false
			}
		}
	}
	refers := func(e ast.Expr) bool {
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = u.X
		}
		i, ok := ast.Unparen(e).(*ast.Ident)
		return ok && fc.fi.info.Uses[i] == obj
	}
	ok = true
	ast.Inspect(fc.fi.decl.Body, func(n ast.Node) bool {
		c, isCall := n.(*ast.CallExpr)
		if !isCall || !ok {
			return ok
		}
		if s, isSel := ast.Unparen(c.Fun).(*ast.SelectorExpr); isSel && refers(s.X) {
			switch s.Sel.Name {
			case "WriteString", "WriteByte", "WriteRune", "Write":
				for _, a := range c.Args {
					if !fc.safe(a, depth+1) {
						ok = false
					}
				}
			}
			return ok
		}
		if name := calleeName(fc.fi.info, c); strings.HasPrefix(name, "fmt.Fprint") && len(c.Args) > 0 && refers(c.Args[0]) {
			for _, a := range c.Args[1:] {
				if !fc.safe(a, depth+1) {
					ok = false
				}
			}
		}
		return ok
	})
	return ok
}

// receiverSafe: a method's receiver, when it is text itself (a named
// string type), must be safe too.
func (fc *funcCheck) receiverSafe(call *ast.CallExpr, depth int) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return true
	}
	if s, ok := fc.fi.info.Selections[sel]; ok && s.Kind() == types.MethodVal {
		return fc.safe(sel.X, depth+1)
	}
	return true
}

// splitName splits a full name, "path/pkg.Func" or "(*path/pkg.T).M",
// into the package path and the rest ("Func", "(*T).M" as "T).M").
func splitName(full string) (pkg, fn string) {
	s := strings.TrimLeft(full, "(*")
	slash := strings.LastIndex(s, "/")
	rest := s[slash+1:]
	i := strings.Index(rest, ".")
	if i < 0 {
		return s, ""
	}
	return s[:slash+1] + rest[:i], rest[i+1:]
}

// returnsSafe reports whether every return of the function returns safe
// text in its string results.
func (c *checker) returnsSafe(name string, fi *funcInfo, depth int) bool {
	if v, ok := c.returns[name]; ok {
		return v
	}
	c.returns[name] = false // in progress
	fc := &funcCheck{c: c, fi: fi, name: name, paramsSafe: true}
	ok := true
	ast.Inspect(fi.decl.Body, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		r, isRet := n.(*ast.ReturnStmt)
		if !isRet || !ok {
			return ok
		}
		for _, e := range r.Results {
			if !fc.safe(e, depth+1) {
				ok = false
			}
		}
		return ok
	})
	if fi.decl.Type.Results != nil {
		for _, f := range fi.decl.Type.Results.List {
			if len(f.Names) > 0 {
				ok = false // named results: assigned anywhere
			}
		}
	}
	c.returns[name] = ok
	return ok
}

func printNode(w io.Writer, fset *token.FileSet, e ast.Expr) error {
	return format.Node(w, fset, e)
}
