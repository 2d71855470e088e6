package ui

import (
	tea "charm.land/bubbletea/v2"
)

// click focuses the pane under the pointer and selects the row clicked.
func (m *Model) click(ms tea.Mouse) {
	if m.top() != nil {
		return
	}
	rs := m.rects()
	for p, r := range rs {
		if !r.contains(ms.X, ms.Y) {
			continue
		}
		m.focusPane(pane(p))
		if p == int(paneTraffic) || p == int(paneStderr) || p == int(paneLog) || p == int(paneServer) {
			l := m.list(pane(p))
			row := ms.Y - r.y - 1
			if row >= 0 && row < r.inner() {
				l.cursor = l.offset + row
				n := m.rowsOf(pane(p))
				l.clamp(n)
				m.followIfAtEnd(l, n)
			}
		}
		return
	}
}

// wheel scrolls the pane under the pointer, or the overlay over them if
// it scrolls (the viewer, an answer editor); over one that does not, it
// does nothing: the panes are hidden.
func (m *Model) wheel(ms tea.Mouse) {
	delta := 3
	if ms.Button == tea.MouseWheelUp {
		delta = -3
	}
	if o := m.top(); o != nil {
		if w, ok := o.(overlayWheel); ok {
			w.Wheel(m, delta)
		}
		return
	}
	if m.richWheel(delta) {
		return
	}
	rs := m.rects()
	for p, r := range rs {
		if r.contains(ms.X, ms.Y) {
			m.focus = pane(p)
			l, n := m.list(pane(p)), m.rowsOf(pane(p))
			l.move(delta, n)
			m.followIfAtEnd(l, n)
			return
		}
	}
}
