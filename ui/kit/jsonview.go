package kit

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/jsonscan"
	"github.com/mcptui/mcptui/themes"
)

// maxScalar is how much of one scalar (a long string) a JSONView keeps for
// drawing; copying takes the whole value from the raw bytes.
const maxScalar = 4 << 10

// jnode is one line of a JSON document: a scalar, a container's opening,
// or a container's closing.
type jnode struct {
	depth int
	key   string // member name (raw from the server) or "[i]"
	kind  jsontext.Kind
	text  string // a scalar's JSON text, cut to maxScalar
	size  int    // a scalar's full length in bytes
	end   int    // a container's closing node
	count int    // a container's members or items
	start int    // byte offsets of the value in the raw document
	stop  int
	close bool
}

// JSONView is a pretty, foldable view of a JSON document. It is built once
// (off the update loop, for a big document) and draws only the lines in
// view, so its cost per frame does not depend on the document's size.
type JSONView struct {
	raw     []byte
	nodes   []jnode
	folded  []bool
	visible []int
	cursor  int
	offset  int
}

// NewJSONView parses raw. Containers with many members, and everything
// deep in a large document, start folded.
func NewJSONView(raw []byte) (*JSONView, error) {
	v := &JSONView{raw: raw}
	dec := jsontext.NewDecoder(bytes.NewReader(raw))
	type frame struct {
		node  int
		isObj bool
		n     int
	}
	var stack []frame
	for {
		before := dec.InputOffset()
		tok, err := dec.ReadToken()
		if err != nil {
			if len(stack) == 0 && len(v.nodes) > 0 {
				break
			}
			return nil, fmt.Errorf("not valid JSON: %w", err)
		}
		kind := tok.Kind()
		key := ""
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			if kind != '}' && kind != ']' {
				if top.isObj {
					// tok is the member name; the value follows.
					key = tok.String()
					before = dec.InputOffset()
					if tok, err = dec.ReadToken(); err != nil {
						return nil, fmt.Errorf("not valid JSON: %w", err)
					}
					kind = tok.Kind()
				} else {
					key = "[" + strconv.Itoa(top.n) + "]"
				}
				top.n++
			}
		}
		start := tokenStart(raw, int(before))
		switch kind {
		case '{', '[':
			v.nodes = append(v.nodes, jnode{depth: len(stack), key: key, kind: kind, start: start})
			stack = append(stack, frame{node: len(v.nodes) - 1, isObj: kind == '{'})
		case '}', ']':
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			v.nodes = append(v.nodes, jnode{depth: len(stack), kind: kind, close: true})
			open := &v.nodes[top.node]
			open.end, open.count, open.stop = len(v.nodes)-1, top.n, int(dec.InputOffset())
		default:
			stop := int(dec.InputOffset())
			text := string(raw[start:stop])
			v.nodes = append(v.nodes, jnode{depth: len(stack), key: key, kind: kind,
				text: inert.Clip(text, maxScalar), size: stop - start, start: start, stop: stop})
		}
		if len(stack) == 0 {
			if _, err := dec.ReadToken(); err == nil {
				return nil, fmt.Errorf("not valid JSON: more than one value")
			}
			break
		}
	}
	v.folded = make([]bool, len(v.nodes))
	big := len(v.nodes) > 400
	for i, n := range v.nodes {
		if n.close || (n.kind != '{' && n.kind != '[') {
			continue
		}
		v.folded[i] = n.depth > 0 && (n.count > 50 || (big && n.depth >= 2))
	}
	v.refresh()
	return v, nil
}

// tokenStart returns where the token after offset i of a valid JSON text
// begins: past white space and the one ',' or ':' that may separate it from
// the token before.
func tokenStart(b []byte, i int) int {
	i = jsonscan.SkipSpace(b, i)
	if i < len(b) && (b[i] == ',' || b[i] == ':') {
		i = jsonscan.SkipSpace(b, i+1)
	}
	return i
}

// refresh recomputes the visible lines after folding changed.
func (v *JSONView) refresh() {
	v.visible = v.visible[:0]
	for i := 0; i < len(v.nodes); i++ {
		v.visible = append(v.visible, i)
		if v.folded[i] {
			i = v.nodes[i].end
		}
	}
	v.cursor = min(v.cursor, max(len(v.visible)-1, 0))
}

// Len is the number of visible lines.
func (v *JSONView) Len() int { return len(v.visible) }

// Cursor is the selected visible line.
func (v *JSONView) Cursor() int { return v.cursor }

// Move moves the cursor by delta lines.
func (v *JSONView) Move(delta int) {
	v.cursor = max(min(v.cursor+delta, len(v.visible)-1), 0)
}

// Toggle folds or unfolds the container at the cursor (on a closing line,
// its opening).
func (v *JSONView) Toggle() {
	if len(v.visible) == 0 {
		return
	}
	i := v.visible[v.cursor]
	if v.nodes[i].close {
		for j := i - 1; j >= 0; j-- {
			if !v.nodes[j].close && v.nodes[j].end == i && (v.nodes[j].kind == '{' || v.nodes[j].kind == '[') {
				i = j
				break
			}
		}
	}
	n := v.nodes[i]
	if n.kind != '{' && n.kind != '[' {
		return
	}
	v.folded[i] = !v.folded[i]
	v.refresh()
	for k, vi := range v.visible {
		if vi == i {
			v.cursor = k
		}
	}
}

// SetFoldAll folds (or unfolds) every container below the top.
func (v *JSONView) SetFoldAll(fold bool) {
	for i, n := range v.nodes {
		if !n.close && (n.kind == '{' || n.kind == '[') && n.depth > 0 {
			v.folded[i] = fold
		}
	}
	v.refresh()
}

// Selected is the raw JSON of the value at the cursor.
func (v *JSONView) Selected() []byte {
	if len(v.visible) == 0 {
		return nil
	}
	n := v.nodes[v.visible[v.cursor]]
	if n.close {
		return nil
	}
	return v.raw[n.start:n.stop]
}

// Lines draws h lines of width w around the cursor (highlighted when
// focused).
func (v *JSONView) Lines(st *themes.Styles, w, h int, focused bool) []string {
	v.offset = Window(v.offset, v.cursor, len(v.visible), h)
	var out []string
	for k := v.offset; k < len(v.visible) && len(out) < h; k++ {
		out = append(out, v.line(st, v.visible[k], w, focused && k == v.cursor))
	}
	return Pad(out, w, h)
}

func (v *JSONView) line(st *themes.Styles, i, w int, sel bool) string {
	n := v.nodes[i]
	segs := []Seg{Own(strings.Repeat("  ", min(n.depth, 20)), min(n.depth, 20)*2, st.Text)}
	gutter := "  "
	if !n.close && (n.kind == '{' || n.kind == '[') {
		gutter = "▾ "
		if v.folded[i] {
			gutter = "▸ "
		}
	}
	segs = append(segs, Txt(gutter, st.Muted))
	if n.key != "" {
		if strings.HasPrefix(n.key, "[") {
			segs = append(segs, Txt(n.key+" ", st.Muted))
		} else {
			segs = append(segs, SrvFree(strconv.Quote(n.key), max(w/2, 8), st.JSONKey), Txt(": ", st.JSONPunct))
		}
	}
	switch {
	case n.close:
		segs = append(segs, Txt(string(n.kind), st.JSONPunct))
	case n.kind == '{' || n.kind == '[':
		closer := "}"
		unit := "keys"
		if n.kind == '[' {
			closer, unit = "]", "items"
		}
		if v.folded[i] {
			segs = append(segs, Txt(string(n.kind)+"…"+closer, st.JSONPunct),
				Txt(fmt.Sprintf("  %d %s", n.count, unit), st.Muted))
		} else {
			segs = append(segs, Txt(string(n.kind), st.JSONPunct))
		}
	default:
		sty := st.JSONLiteral
		switch n.kind {
		case '"':
			sty = st.JSONString
		case '0':
			sty = st.JSONNumber
		}
		segs = append(segs, SrvFree(n.text, max(w-2*n.depth-10, 8), sty))
		if n.size > len(n.text) {
			segs = append(segs, Txt(fmt.Sprintf("  (%d bytes)", n.size), st.Muted))
		}
	}
	return Row(st, w, sel, segs...)
}

// DrawLine draws visible line k (0 <= k < Len) in w cells.
func (v *JSONView) DrawLine(st *themes.Styles, k, w int, sel bool) string {
	if k < 0 || k >= len(v.visible) {
		return Blank(w)
	}
	return v.line(st, v.visible[k], w, sel)
}

// SetCursor moves the cursor to visible line k.
func (v *JSONView) SetCursor(k int) {
	v.cursor = max(min(k, len(v.visible)-1), 0)
}

// Clone is a copy with its own folding and cursor (the parsed document is
// shared: it never changes).
func (v *JSONView) Clone() *JSONView {
	c := *v
	c.folded = append([]bool(nil), v.folded...)
	c.visible = append([]int(nil), v.visible...)
	return &c
}
