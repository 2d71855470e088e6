package form

// Where the cursor is, for a host that puts the form among fields of its
// own (the composer): tab past the last row leaves the form, and entering
// it starts at one end.

// AtFirst reports whether the cursor is on the first row.
func (m *Model) AtFirst() bool { return m.cursor <= 0 }

// AtLast reports whether the cursor is on the last row.
func (m *Model) AtLast() bool { return m.cursor >= len(m.rows)-1 }

// First puts the cursor on the first row; its prefilled text is selected,
// so typing replaces it.
func (m *Model) First() { m.enter(0) }

// Last puts the cursor on the last row, its text selected.
func (m *Model) Last() { m.enter(len(m.rows) - 1) }

// enter moves the cursor to row i as if the field were entered afresh.
func (m *Model) enter(i int) {
	m.cursor = max(min(i, len(m.rows)-1), 0)
	m.editOf = nil
	m.bindEditor()
}

// Blur draws the form without its cursor, for a host whose focus is on
// a field of its own; Focus draws it again.
func (m *Model) Blur() { m.blurred = true }

// Focus draws the cursor again (see Blur).
func (m *Model) Focus() { m.blurred = false }
