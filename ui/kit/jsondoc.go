package kit

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// lineKind is what a docLine holds.
type lineKind uint8

const (
	// lineScalar is a string, number or literal (with its key, if any).
	lineScalar lineKind = iota
	// lineOpen opens a non-empty object or array.
	lineOpen
	// lineClose closes one.
	lineClose
	// lineEmpty is an empty object or array, drawn "{}" or "[]".
	lineEmpty
	// lineText is a line of a source that is not JSON.
	lineText
)

// docLine is one line of a pretty-printed JSON document, kept small: key
// and value are offsets into the document's source, so a document of
// millions of lines costs tens of bytes per line and no copies.
type docLine struct {
	kind  lineKind
	brace byte  // '{' or '[' for lineOpen, lineClose and lineEmpty
	depth int32 // nesting depth
	// parent is the line index of the innermost open line containing this
	// one (a close line's parent is its own open line); -1 at the top.
	parent int32
	// end is, for an open line, the index of its close line, -1 until
	// it is produced; count its members or elements once closed.
	end, count     int32
	keyOff, keyLen int32 // keyLen 0: no key
	nth            int32 // position among its container's members or items
	valOff, valLen int32
}

// doc pretty-prints a JSON value lazily: lines are produced only as far as
// someone has looked (or folded), so opening a 16 MiB line costs what the
// first screen needs. A source that is not JSON is shown as text lines.
type doc struct {
	src   []byte
	dec   *jsontext.Decoder
	lines []docLine
	stack []int32 // open line indices of the containers being read
	done  bool
	err   error
	text  bool // not JSON: lines split on newlines
	pos   int  // text mode: next byte to split
}

var decodeOpts = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// maxDocBytes bounds the source a doc reads (offsets are 32-bit); past it
// the document is cut.
const maxDocBytes = 1<<31 - 1

// newDoc prepares a document over src (which must not change): JSON when
// it starts with '{' or '[', else text lines.
func newDoc(src []byte) *doc {
	if k := firstByte(src); k != '{' && k != '[' {
		return &doc{src: cut(src), text: true}
	}
	return newJSONDoc(src)
}

// newJSONDoc prepares src as JSON whatever it starts with (a lone scalar
// is one line).
func newJSONDoc(src []byte) *doc {
	src = cut(src)
	return &doc{src: src, dec: jsontext.NewDecoder(bytes.NewReader(src), decodeOpts...)}
}

// cut bounds src to maxDocBytes.
func cut(src []byte) []byte {
	if len(src) > maxDocBytes {
		return src[:maxDocBytes]
	}
	return src
}

func firstByte(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// key and val are the raw text of line i's key (nil: none) and value.
func (d *doc) key(i int) []byte {
	ln := &d.lines[i]
	if ln.keyLen == 0 {
		return nil
	}
	return d.src[ln.keyOff : ln.keyOff+ln.keyLen]
}

func (d *doc) val(i int) []byte {
	ln := &d.lines[i]
	if ln.kind == lineEmpty {
		return []byte{ln.brace, closer(jsontext.Kind(ln.brace))}
	}
	return d.src[ln.valOff : ln.valOff+ln.valLen]
}

// ensure produces lines until there are at least n or the document ends.
func (d *doc) ensure(n int) {
	for len(d.lines) < n && !d.done {
		d.step()
	}
}

// ensureEnd produces lines until the open line i's close line exists.
func (d *doc) ensureEnd(i int) {
	for d.lines[i].kind == lineOpen && d.lines[i].end < 0 && !d.done {
		d.step()
	}
}

// ensureAll produces every line.
func (d *doc) ensureAll() {
	for !d.done {
		d.step()
	}
}

func (d *doc) step() {
	if d.text {
		d.nextText()
	} else {
		d.next()
	}
}

// complete reports whether every line is known, and how many there are.
func (d *doc) complete() (int, bool) { return len(d.lines), d.done }

// nextText splits the next text line.
func (d *doc) nextText() {
	if d.pos >= len(d.src) {
		d.done = true
		return
	}
	rest := d.src[d.pos:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		i = len(rest)
	}
	d.lines = append(d.lines, docLine{kind: lineText, parent: -1, end: -1, valOff: int32(d.pos), valLen: int32(i)})
	d.pos += i + 1
}

// span is the offset and length of src[start:end] without leading
// separators and whitespace.
func (d *doc) span(start, end int64) (int32, int32) {
	for start < end {
		switch d.src[start] {
		case ' ', '\t', '\r', '\n', ':', ',':
			start++
			continue
		}
		break
	}
	return int32(start), int32(end - start)
}

// next produces one line of JSON (or ends the document).
func (d *doc) next() {
	ln := docLine{depth: int32(len(d.stack)), parent: -1, end: -1}
	if n := len(d.stack); n > 0 {
		top := d.stack[n-1]
		ln.parent = top
		if k := d.dec.PeekKind(); k == '}' || k == ']' {
			d.close()
			return
		}
		if d.lines[top].brace == '{' {
			start := d.dec.InputOffset()
			if _, err := d.dec.ReadValue(); err != nil {
				d.fail(err)
				return
			}
			ln.keyOff, ln.keyLen = d.span(start, d.dec.InputOffset())
		}
		ln.nth = d.lines[top].count
		d.lines[top].count++
	}
	switch k := d.dec.PeekKind(); k {
	case '{', '[':
		start := d.dec.InputOffset()
		if _, err := d.dec.ReadToken(); err != nil {
			d.fail(err)
			return
		}
		ln.brace = byte(k)
		ln.valOff, ln.valLen = d.span(start, d.dec.InputOffset())
		if p := d.dec.PeekKind(); (k == '{' && p == '}') || (k == '[' && p == ']') {
			_, _ = d.dec.ReadToken()
			ln.kind = lineEmpty
			d.emit(ln)
			return
		}
		ln.kind = lineOpen
		d.lines = append(d.lines, ln)
		d.stack = append(d.stack, int32(len(d.lines)-1))
	default:
		start := d.dec.InputOffset()
		if _, err := d.dec.ReadValue(); err != nil {
			d.fail(err)
			return
		}
		ln.kind = lineScalar
		ln.valOff, ln.valLen = d.span(start, d.dec.InputOffset())
		d.emit(ln)
	}
}

// emit adds a scalar (or empty container) line; its comma is drawn once
// the next sibling appears.
func (d *doc) emit(ln docLine) {
	d.lines = append(d.lines, ln)
	if ln.depth == 0 {
		d.done = true
	}
}

// close ends the innermost container.
func (d *doc) close() {
	start := d.dec.InputOffset()
	tok, err := d.dec.ReadToken()
	if err != nil {
		d.fail(err)
		return
	}
	open := d.stack[len(d.stack)-1]
	d.stack = d.stack[:len(d.stack)-1]
	ln := docLine{kind: lineClose, brace: d.lines[open].brace, depth: int32(len(d.stack)), parent: open, end: -1}
	ln.valOff, ln.valLen = d.span(start, d.dec.InputOffset())
	_ = tok
	d.lines = append(d.lines, ln)
	d.lines[open].end = int32(len(d.lines) - 1)
	if ln.depth == 0 {
		d.done = true
	}
}

// fail ends the document with an error.
func (d *doc) fail(err error) {
	if !errors.Is(err, io.EOF) {
		d.err = err
	}
	d.done = true
}

func closer(k jsontext.Kind) byte {
	if k == '{' {
		return '}'
	}
	return ']'
}

// hasComma reports whether line i is followed by a sibling, which is known
// once line i+1 exists.
func (d *doc) hasComma(i int) bool {
	if d.text || i+1 >= len(d.lines) {
		return false
	}
	cur, nxt := &d.lines[i], &d.lines[i+1]
	if cur.kind == lineOpen {
		return false
	}
	return nxt.depth == cur.depth && nxt.kind != lineClose
}
