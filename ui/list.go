package ui

// listState is the selection and scroll position of a list of n rows shown
// h rows at a time.
type listState struct {
	cursor, offset int
}

// clamp keeps the cursor on a row and the offset in range.
func (l *listState) clamp(n int) {
	l.cursor = min(max(l.cursor, 0), max(n-1, 0))
	l.offset = min(max(l.offset, 0), max(n-1, 0))
}

// move moves the cursor by delta rows.
func (l *listState) move(delta, n int) {
	l.cursor += delta
	l.clamp(n)
}

// show scrolls so the cursor is among the h visible rows.
func (l *listState) show(h int) {
	if h <= 0 {
		return
	}
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.cursor >= l.offset+h {
		l.offset = l.cursor - h + 1
	}
}

// shift moves both by -d after d rows were removed from the top.
func (l *listState) shift(d int) {
	l.cursor -= d
	l.offset -= d
	if l.cursor < 0 {
		l.cursor = 0
	}
	if l.offset < 0 {
		l.offset = 0
	}
}
