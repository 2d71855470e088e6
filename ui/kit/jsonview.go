package kit

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// JSONView is the one JSON viewer: a pretty, foldable view of a document
// with a cursor. Its document is read lazily (see doc), so it draws only
// the lines in view and what it costs per frame does not depend on the
// document's size. It has two faces:
//   - the lazy face (NewLazyJSONView, the traffic viewer) shows the JSON
//     text itself, commas and all, scrolls sideways and reads no further
//     than someone has looked;
//   - the outline face (NewJSONView, the catalog and the answer panes)
//     shows an outline with fold marks, item numbers and sizes, addressed
//     by visible line so it can sit among other rows.
type JSONView struct {
	doc *doc
	// top and cursor are doc line indices of visible lines.
	top, cursor int
	// folded are the open lines whose insides are hidden.
	folded map[int]bool
	// visible (outline face) are the doc lines shown, nil when folding
	// changed; offset is the first visible line drawn.
	visible []int
	offset  int
}

// NewLazyJSONView views src (which must not change): JSON when it starts
// with '{' or '[' (read only as far as it is looked at), else text lines.
func NewLazyJSONView(src []byte) *JSONView {
	return &JSONView{doc: newDoc(src), folded: map[int]bool{}}
}

// maxScalar is how much of one scalar (a long string) the outline face
// draws; copying takes the whole value.
const maxScalar = 4 << 10

// NewJSONView reads all of raw, which must be one valid JSON value, for
// the outline face. Containers with many members, and everything deep in a
// large document, start folded.
func NewJSONView(raw []byte) (*JSONView, error) {
	if err := validJSON(raw); err != nil {
		return nil, err
	}
	v := &JSONView{doc: newJSONDoc(raw), folded: map[int]bool{}}
	d := v.doc
	d.ensureAll()
	if d.err != nil || len(d.lines) == 0 {
		return nil, fmt.Errorf("not valid JSON: %v", d.err)
	}
	nodes := len(d.lines) // the old outline counted an empty container twice
	for i := range d.lines {
		if d.lines[i].kind == lineEmpty {
			nodes++
		}
	}
	big := nodes > 400
	for i := range d.lines {
		if ln := &d.lines[i]; ln.kind == lineOpen && ln.depth > 0 && (ln.count > 50 || (big && ln.depth >= 2)) {
			v.folded[i] = true
		}
	}
	return v, nil
}

// validJSON reports whether raw is exactly one JSON value.
func validJSON(raw []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.ReadValue(); err != nil {
		return fmt.Errorf("not valid JSON: %w", err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return fmt.Errorf("not valid JSON: more than one value")
	}
	return nil
}

// outline lists the visible lines (the document is complete).
func (v *JSONView) outline() []int {
	if v.visible != nil {
		return v.visible
	}
	v.visible = make([]int, 0, len(v.doc.lines))
	for i, ok := 0, len(v.doc.lines) > 0; ok; i, ok = v.after(i) {
		v.visible = append(v.visible, i)
	}
	return v.visible
}

// Len is the number of visible lines.
func (v *JSONView) Len() int { return len(v.outline()) }

// Cursor is the selected visible line.
func (v *JSONView) Cursor() int {
	vis := v.outline()
	if k, ok := slices.BinarySearch(vis, v.cursor); ok {
		return k
	}
	return 0
}

// SetCursor moves the cursor to visible line k.
func (v *JSONView) SetCursor(k int) {
	vis := v.outline()
	if len(vis) == 0 {
		return
	}
	v.cursor = vis[max(min(k, len(vis)-1), 0)]
}

// Move moves the cursor by delta visible lines.
func (v *JSONView) Move(delta int) { v.SetCursor(v.Cursor() + delta) }

// Toggle folds or unfolds the container at the cursor (on a closing line,
// its opening); elsewhere it does nothing.
func (v *JSONView) Toggle() {
	d := v.doc
	if len(d.lines) == 0 {
		return
	}
	i := v.cursor
	if d.lines[i].kind == lineClose {
		i = d.parentOf(i)
	}
	if d.lines[i].kind != lineOpen {
		return
	}
	if v.folded[i] {
		delete(v.folded, i)
	} else {
		d.ensureEnd(i)
		v.folded[i] = true
	}
	v.cursor, v.visible = i, nil
}

// SetFoldAll folds (or unfolds) every container below the top.
func (v *JSONView) SetFoldAll(fold bool) {
	if fold {
		v.FoldAll()
	} else {
		v.UnfoldAll()
	}
}

// Selected is the raw JSON of the value at the cursor (nil on a closing
// line).
func (v *JSONView) Selected() []byte { return v.valueAt() }

// Clone is a copy with its own folding and cursor (the document is
// shared: the outline face reads it whole, so it never changes).
func (v *JSONView) Clone() *JSONView {
	c := *v
	c.folded = make(map[int]bool, len(v.folded))
	for i := range v.folded {
		c.folded[i] = true
	}
	c.visible = nil
	return &c
}

// MoveBy moves the cursor n visible lines (negative: up), reading the
// document as far as needed.
func (v *JSONView) MoveBy(n int) { v.moveBy(n); v.visible = nil }

// Home puts the cursor and the view at the first line.
func (v *JSONView) Home() { v.cursor, v.top = 0, 0 }

// End puts the cursor on the last visible line (reading the whole
// document).
func (v *JSONView) End() { v.cursor = v.lastVisible() }

// ToggleFold folds or unfolds the container at the cursor: an open line
// itself, else the container the cursor is in (and the cursor moves to
// it). It reports false when there is nothing to fold.
func (v *JSONView) ToggleFold() bool { v.visible = nil; return v.toggleFold() }

// FoldAll folds every container below the top level.
func (v *JSONView) FoldAll() { v.foldAll(); v.visible = nil }

// UnfoldAll shows every line again.
func (v *JSONView) UnfoldAll() { v.unfoldAll(); v.visible = nil }

// ValueAt is the raw JSON of the value at the cursor (a whole container
// on an open line), for copying; nil on a closing line.
func (v *JSONView) ValueAt() []byte { return v.valueAt() }

// CursorLine is the document line of the cursor.
func (v *JSONView) CursorLine() int { return v.cursor }

// CursorText is the raw key (nil: none) and value text of the cursor's
// line ("{" for an open line).
func (v *JSONView) CursorText() (key, val []byte) {
	if len(v.doc.lines) == 0 {
		return nil, nil
	}
	return v.doc.key(v.cursor), v.doc.val(v.cursor)
}

// CursorFolded reports whether the cursor is on a folded container.
func (v *JSONView) CursorFolded() bool { return v.folded[v.cursor] }

// LinesRead is how many lines of the document have been read so far.
func (v *JSONView) LinesRead() int { return len(v.doc.lines) }

// itemLabel is the outline's "[i] " before an array's item, or "".
func (v *JSONView) itemLabel(i int) string {
	ln := &v.doc.lines[i]
	if ln.parent < 0 || ln.kind == lineClose || v.doc.lines[ln.parent].brace != '[' {
		return ""
	}
	return "[" + strconv.Itoa(int(ln.nth)) + "] "
}

// quotedKey is a member name as the outline draws it: decoded, then
// quoted again.
func quotedKey(raw []byte) string {
	var name string
	if err := jsontextUnquote(raw, &name); err != nil {
		return string(raw)
	}
	return strconv.Quote(name)
}

// jsontextUnquote decodes the JSON string raw into name.
func jsontextUnquote(raw []byte, name *string) error {
	tok, err := jsontext.NewDecoder(bytes.NewReader(raw), decodeOpts...).ReadToken()
	if err != nil {
		return err
	}
	*name = tok.String()
	return nil
}
