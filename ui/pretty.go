package ui

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// docLine is one line of a pretty-printed JSON document. key and val are raw
// JSON text (val may be an opening or closing bracket); the text they point
// to belongs to the document's source.
type docLine struct {
	depth int
	key   []byte
	val   []byte
}

// doc pretty-prints a JSON value lazily: lines are produced only as far as
// someone has looked, so opening a 16 MiB line costs what the first screen
// needs. A source that is not JSON is shown as text lines instead.
type doc struct {
	src   []byte
	dec   *jsontext.Decoder
	lines []docLine
	stack []frame
	done  bool
	err   error
	text  bool // not JSON: lines split on newlines
	pos   int  // text mode: next byte to split
}

type frame struct {
	kind  byte // '{' or '['
	count int  // members or elements so far
}

var decodeOpts = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// newDoc prepares a document over src (which must not change).
func newDoc(src []byte) *doc {
	d := &doc{src: src}
	if k := firstByte(src); k != '{' && k != '[' {
		d.text = true
		return d
	}
	d.dec = jsontext.NewDecoder(bytes.NewReader(src), decodeOpts...)
	return d
}

func firstByte(b []byte) byte {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// ensure produces lines until there are at least n or the document ends.
func (d *doc) ensure(n int) {
	for len(d.lines) < n && !d.done {
		if d.text {
			d.nextText()
		} else {
			d.next()
		}
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
	d.lines = append(d.lines, docLine{val: rest[:i]})
	d.pos += i + 1
}

// next produces one line of JSON (or ends the document).
func (d *doc) next() {
	var key []byte
	depth := len(d.stack)
	if depth > 0 {
		top := &d.stack[depth-1]
		if d.dec.PeekKind() == '}' || d.dec.PeekKind() == ']' {
			d.close()
			return
		}
		if top.kind == '{' {
			start := d.dec.InputOffset()
			if _, err := d.dec.ReadValue(); err != nil {
				d.fail(err)
				return
			}
			key = trimLead(d.src[start:d.dec.InputOffset()])
		}
		top.count++
	}
	switch d.dec.PeekKind() {
	case '{', '[':
		start := d.dec.InputOffset()
		tok, err := d.dec.ReadToken()
		if err != nil {
			d.fail(err)
			return
		}
		k := tok.Kind()
		open := trimLead(d.src[start:d.dec.InputOffset()])
		if p := d.dec.PeekKind(); (k == '{' && p == '}') || (k == '[' && p == ']') {
			_, _ = d.dec.ReadToken()
			d.emit(depth, key, []byte(string(open)+string(closer(k))))
			return
		}
		d.lines = append(d.lines, docLine{depth: depth, key: key, val: open})
		d.stack = append(d.stack, frame{kind: byte(k)})
	default:
		start := d.dec.InputOffset()
		if _, err := d.dec.ReadValue(); err != nil {
			d.fail(err)
			return
		}
		d.emit(depth, key, trimLead(d.src[start:d.dec.InputOffset()]))
	}
}

// emit adds a scalar (or empty container) line; its comma is set when the
// next sibling appears.
func (d *doc) emit(depth int, key, val []byte) {
	d.lines = append(d.lines, docLine{depth: depth, key: key, val: val})
	if depth == 0 {
		d.done = true
	}
}

// close ends the innermost container.
func (d *doc) close() {
	tok, err := d.dec.ReadToken()
	if err != nil {
		d.fail(err)
		return
	}
	d.stack = d.stack[:len(d.stack)-1]
	depth := len(d.stack)
	d.lines = append(d.lines, docLine{depth: depth, val: []byte{byte(tok.Kind())}})
	if depth == 0 {
		d.done = true
	}
}

// fail ends the document with an error line.
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

// trimLead drops separators and whitespace before a token.
func trimLead(b []byte) []byte { return bytes.TrimLeft(b, " \t\r\n:,") }

// hasComma reports whether line i is followed by a sibling, which is known
// once line i+1 exists.
func (d *doc) hasComma(i int) bool {
	if d.text || i+1 >= len(d.lines) {
		return false
	}
	cur, nxt := d.lines[i], d.lines[i+1]
	if isOpen(cur.val) && len(cur.val) == 1 {
		return false
	}
	return nxt.depth == cur.depth && !isClose(nxt.val)
}

func isOpen(v []byte) bool  { return len(v) > 0 && (v[0] == '{' || v[0] == '[') }
func isClose(v []byte) bool { return len(v) == 1 && (v[0] == '}' || v[0] == ']') }
