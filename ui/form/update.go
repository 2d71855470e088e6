package form

import (
	"charm.land/bubbles/v2/key"
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
		if m.raw && !key.Matches(msg, m.keys.Form.Raw) {
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
	return !key.Matches(msg, m.send, m.keys.Overlay.Close, m.keys.Global.Quit) || msg.Text != ""
}

// key applies one key to the form.
func (m *Model) key(msg tea.KeyPressMsg) {
	f := m.keys.Form
	if key.Matches(msg, f.Raw) {
		m.SetRaw(!m.raw)
		return
	}
	if m.raw {
		return
	}
	switch {
	case key.Matches(msg, f.Reset):
		m.Reset()
		return
	case key.Matches(msg, f.Prev) && msg.Text == "":
		m.move(-1)
		return
	case key.Matches(msg, f.Next) && msg.Text == "":
		m.move(1)
		return
	case key.Matches(msg, f.PageUp):
		m.move(-10)
		return
	case key.Matches(msg, f.PageDown):
		m.move(10)
		return
	}
	r := m.current()
	if r == nil {
		return
	}
	switch {
	case key.Matches(msg, f.Clear):
		m.unset(r)
		return
	case key.Matches(msg, f.Null):
		if r.kind == rowField && r.v.Field.Nullable {
			r.v.SetNull(!r.v.Null)
			m.changed()
		}
		return
	case key.Matches(msg, f.Now):
		m.fillNow(r)
		return
	}
	switch r.kind {
	case rowAdd:
		if key.Matches(msg, f.Choose, f.Toggle, f.Add) {
			m.addItem(r.v)
		}
	case rowOption:
		if key.Matches(msg, f.Choose, f.Toggle) {
			m.pick(r)
		}
	case rowField:
		m.fieldKey(r, msg)
	}
}

// fieldKey handles a key on a field's own row.
func (m *Model) fieldKey(r *row, msg tea.KeyPressMsg) {
	v, f := r.v, m.keys.Form
	if textual(v) && !v.Null {
		if key.Matches(msg, f.Choose) {
			m.move(1)
			return
		}
		if changed, _ := m.edit.Key(msg, m.keys.Text); changed {
			m.forget(v)
			m.textChanged()
		}
		return
	}
	step := 0
	switch {
	case key.Matches(msg, f.Left):
		step = -1
	case key.Matches(msg, f.Right):
		step = 1
	}
	choose, toggle := key.Matches(msg, f.Choose), key.Matches(msg, f.Toggle)
	switch v.Field.Kind {
	case schemaform.Boolean:
		switch {
		case choose || toggle:
			v.SetBool(!v.Bool || !v.Set)
		case step != 0:
			v.SetBool(step > 0)
		default:
			return
		}
		m.forget(v)
		m.changed()
	case schemaform.Enum:
		switch {
		case choose:
			m.open[v] = !m.open[v]
			m.rebuild()
		case step != 0 || toggle:
			if step == 0 {
				step = 1
			}
			m.forget(v)
			m.cycle(v, len(v.Field.Options), step)
		}
	case schemaform.Union:
		if step != 0 || toggle || choose {
			if step == 0 {
				step = 1
			}
			m.forget(v)
			m.cycle(v, len(v.Field.Variants), step)
		}
	case schemaform.Array:
		if choose || key.Matches(msg, f.Add) {
			m.addItem(v)
		}
	case schemaform.Object:
		if (choose || toggle) && !v.Present() {
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
