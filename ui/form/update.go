package form

import (
	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/schemaform"
)

// Update handles a key (or a paste). Keys the form does not use (ctrl+s,
// esc) are left to the host, which should check Handled.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.PasteMsg:
		if m.raw {
			var cmd tea.Cmd
			m.ta, cmd = m.ta.Update(msg)
			return cmd
		}
		if m.editOf != nil {
			m.edit.Insert(msg.Content)
			m.textChanged()
		}
	case tea.KeyPressMsg:
		m.key(msg)
		if m.raw && msg.String() != "ctrl+r" {
			var cmd tea.Cmd
			m.ta, cmd = m.ta.Update(msg)
			return cmd
		}
	}
	return nil
}

// Handled reports whether Update acts on this key (so a host can give the
// others their own meaning).
func (m *Model) Handled(msg tea.KeyPressMsg) bool {
	switch msg.String() {
	case "ctrl+s", "esc", "ctrl+c":
		return false
	}
	return true
}

// key applies one key to the form.
func (m *Model) key(msg tea.KeyPressMsg) {
	k := msg.String()
	if k == "ctrl+r" {
		m.SetRaw(!m.raw)
		return
	}
	if m.raw {
		return
	}
	switch k {
	case "up", "shift+tab", "ctrl+p":
		m.move(-1)
		return
	case "down", "tab", "ctrl+n":
		m.move(1)
		return
	case "pgup":
		m.move(-10)
		return
	case "pgdown":
		m.move(10)
		return
	}
	r := m.current()
	if r == nil {
		return
	}
	switch k {
	case "ctrl+d":
		m.unset(r)
		return
	case "ctrl+o":
		if r.kind == rowField && r.v.Field.Nullable {
			r.v.SetNull(!r.v.Null)
			m.changed()
		}
		return
	case "ctrl+t":
		m.fillNow(r)
		return
	}
	switch r.kind {
	case rowAdd:
		if k == "enter" || k == "space" || k == "+" {
			m.addItem(r.v)
		}
	case rowOption:
		if k == "enter" || k == "space" || k == "x" {
			m.pick(r)
		}
	case rowField:
		m.fieldKey(r, msg)
	}
}

// fieldKey handles a key on a field's own row.
func (m *Model) fieldKey(r *row, msg tea.KeyPressMsg) {
	v, k := r.v, msg.String()
	if textual(v) && !v.Null {
		if k == "enter" {
			m.move(1)
			return
		}
		if changed, _ := m.edit.Key(msg); changed {
			m.textChanged()
		}
		return
	}
	step := 0
	switch k {
	case "left", "h":
		step = -1
	case "right", "l":
		step = 1
	}
	switch v.Field.Kind {
	case schemaform.Boolean:
		switch {
		case k == "enter" || k == "space" || k == "x":
			v.SetBool(!v.Bool || !v.Set)
		case step != 0:
			v.SetBool(step > 0)
		default:
			return
		}
		m.changed()
	case schemaform.Enum:
		switch {
		case k == "enter":
			m.open[v] = !m.open[v]
			m.rebuild()
		case step != 0 || k == "space":
			if step == 0 {
				step = 1
			}
			m.cycle(v, len(v.Field.Options), step)
		}
	case schemaform.Union:
		if step != 0 || k == "space" || k == "enter" {
			if step == 0 {
				step = 1
			}
			m.cycle(v, len(v.Field.Variants), step)
		}
	case schemaform.Array:
		if k == "enter" || k == "+" {
			m.addItem(v)
		}
	case schemaform.Object:
		if (k == "enter" || k == "space") && !v.Present() {
			v.Set = true
			m.changed()
		}
	}
}

// cycle moves an enum or union to its next (or previous) choice, wrapping
// around (ctrl+d leaves an optional one out).
func (m *Model) cycle(v *schemaform.Value, n, step int) {
	if n == 0 {
		return
	}
	c := v.Choice + step
	if v.Null || v.Choice < 0 {
		c = 0
		if step < 0 {
			c = n - 1
		}
	}
	v.Choose((c%n + n) % n)
	m.changed()
}

// pick chooses an option row: toggles a multi-select's, chooses an open
// enum's (and closes it).
func (m *Model) pick(r *row) {
	if r.v.Field.Kind == schemaform.Multi {
		r.v.Toggle(r.index)
		m.changed()
		return
	}
	r.v.Choose(r.index)
	delete(m.open, r.v)
	// Back to the enum's own row.
	for m.cursor > 0 && m.rows[m.cursor].kind == rowOption {
		m.cursor--
	}
	m.changed()
}

// addItem appends an item and moves to it.
func (m *Model) addItem(array *schemaform.Value) {
	array.AddItem()
	m.changed()
	n := len(array.Items) - 1
	for i, r := range m.rows {
		if r.array == array && r.index == n && r.kind == rowField {
			m.cursor = i
			if array.Items[n].Field.Kind == schemaform.Object && i+1 < len(m.rows) && m.rows[i+1].depth > r.depth {
				m.cursor = i + 1
			}
		}
	}
	m.bindEditor()
}

// unset leaves a field out (or removes an array item).
func (m *Model) unset(r *row) {
	switch {
	case r.kind == rowField && r.array != nil:
		r.array.RemoveItem(r.index)
	case r.kind == rowField:
		r.v.Unset()
		if r.v.Field.Kind == schemaform.Multi {
			r.v.Picked = make([]bool, len(r.v.Field.Options))
		}
		if r.v.Field.Kind == schemaform.Array {
			r.v.Items = nil
		}
		if textual(r.v) {
			m.edit.Set("")
		}
	default:
		return
	}
	m.changed()
}

// fillNow fills a date or date-time field with today or now.
func (m *Model) fillNow(r *row) {
	if r.kind != rowField || r.v.Field.Kind != schemaform.String {
		return
	}
	switch r.v.Field.Format {
	case "date":
		m.edit.Set(m.now().Format("2006-01-02"))
	case "date-time":
		m.edit.Set(m.now().Format("2006-01-02T15:04:05Z07:00"))
	case "time":
		m.edit.Set(m.now().Format("15:04:05Z07:00"))
	default:
		return
	}
	m.textChanged()
}

// textChanged copies the editor's text into the value: empty text leaves
// the field out.
func (m *Model) textChanged() {
	if m.editOf == nil {
		return
	}
	if t := m.edit.Value(); t == "" {
		m.editOf.Unset()
	} else {
		m.editOf.SetText(t)
	}
	m.revalidate()
}

// changed rebuilds the rows and the errors after a value changed.
func (m *Model) changed() {
	m.rebuild()
	m.revalidate()
}

// move moves the cursor by delta rows.
func (m *Model) move(delta int) {
	m.cursor = max(min(m.cursor+delta, len(m.rows)-1), 0)
	m.bindEditor()
}
