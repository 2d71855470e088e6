package kit

// Folding: a viewer hides the inside of the containers a person folded.
// Positions (top, cursor) are always indices of visible doc lines; moving
// between them skips folded ranges using the doc's parent and end links,
// so nothing but the lines walked over is looked at.

// parentOf is the open line containing line i, or -1.
func (d *doc) parentOf(i int) int { return int(d.lines[i].parent) }

// visibleOf is the line that stands for line i: i itself, or the outermost
// folded container that hides it.
func (v *JSONView) visibleOf(i int) int {
	rep := i
	for p := v.doc.parentOf(i); p >= 0; p = v.doc.parentOf(p) {
		if v.folded[p] {
			rep = p
		}
	}
	return rep
}

// after is the visible line after visible line i, and false at the end of
// the document. It produces lines as needed.
func (v *JSONView) after(i int) (int, bool) {
	d := v.doc
	j := i + 1
	if v.folded[i] {
		d.ensureEnd(i)
		if e := d.lines[i].end; e >= 0 {
			j = int(e) + 1
		}
	}
	d.ensure(j + 1)
	if j >= len(d.lines) {
		return i, false
	}
	return j, true
}

// before is the visible line before visible line i, and false at the top.
func (v *JSONView) before(i int) (int, bool) {
	if i <= 0 {
		return 0, false
	}
	return v.visibleOf(i - 1), true
}

// moveBy moves the cursor n visible lines (negative: up).
func (v *JSONView) moveBy(n int) {
	for ; n > 0; n-- {
		j, ok := v.after(v.cursor)
		if !ok {
			break
		}
		v.cursor = j
	}
	for ; n < 0; n++ {
		j, ok := v.before(v.cursor)
		if !ok {
			break
		}
		v.cursor = j
	}
}

// scroll keeps the cursor among the h rows shown from top.
func (v *JSONView) scroll(h int) {
	v.top = v.visibleOf(v.top)
	if v.cursor <= v.top {
		v.top = v.cursor
		return
	}
	i, rows := v.top, 1
	for i != v.cursor && rows <= h {
		j, ok := v.after(i)
		if !ok {
			break
		}
		i, rows = j, rows+1
	}
	if rows <= h && i == v.cursor {
		return
	}
	v.top = v.cursor
	for range h - 1 {
		j, ok := v.before(v.top)
		if !ok {
			break
		}
		v.top = j
	}
}

// toggleFold folds or unfolds the container at the cursor: an open line
// itself, else the container the cursor is in (and the cursor moves to it).
func (v *JSONView) toggleFold() bool {
	d := v.doc
	if d.text || len(d.lines) == 0 {
		return false
	}
	i := v.cursor
	if d.lines[i].kind == lineOpen {
		if v.folded[i] {
			delete(v.folded, i)
		} else {
			d.ensureEnd(i)
			v.folded[i] = true
		}
		return true
	}
	p := d.parentOf(i)
	if p < 0 {
		return false
	}
	d.ensureEnd(p)
	v.folded[p] = true
	v.cursor = p
	return true
}

// foldAll folds every container below the top level; it reads the whole
// document (but draws only what is visible).
func (v *JSONView) foldAll() {
	d := v.doc
	d.ensureAll()
	for i := range d.lines {
		if ln := &d.lines[i]; ln.kind == lineOpen && ln.depth >= 1 && ln.end >= 0 {
			v.folded[i] = true
		}
	}
	v.cursor = v.visibleOf(v.cursor)
	v.top = v.visibleOf(v.top)
}

// unfoldAll shows every line again.
func (v *JSONView) unfoldAll() { clear(v.folded) }

// lastVisible is the last visible line of the whole document.
func (v *JSONView) lastVisible() int {
	v.doc.ensureAll()
	if len(v.doc.lines) == 0 {
		return 0
	}
	return v.visibleOf(len(v.doc.lines) - 1)
}

// valueAt is the raw JSON of the value at the cursor (a whole container
// for an open line), for copying.
func (v *JSONView) valueAt() []byte {
	d := v.doc
	if len(d.lines) == 0 {
		return nil
	}
	i := v.cursor
	ln := &d.lines[i]
	switch ln.kind {
	case lineOpen:
		d.ensureEnd(i)
		if ln.end < 0 {
			return nil
		}
		end := &d.lines[ln.end]
		return d.src[ln.valOff : end.valOff+end.valLen]
	case lineClose:
		return nil
	}
	return d.val(i)
}
