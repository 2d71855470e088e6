package form

import (
	"encoding/json"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/schemaform"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/kit"
)

// Model edits one value of a form.
type Model struct {
	form  *schemaform.Form
	value *schemaform.Value
	st    *themes.Styles
	now   func() time.Time

	rows []row
	// labelCols is the widest label's width (see widestLabel).
	labelCols int
	cursor    int
	offset    int
	// open enums show their options as rows.
	open map[*schemaform.Value]bool

	// edit is the text editor of the text row under the cursor.
	edit   kit.LineEdit
	editOf *schemaform.Value

	// errs are the errors of the last submission, kept up to date as the
	// person fixes them.
	errs      schemaform.Errors
	submitted bool

	raw    bool
	ta     textarea.Model
	rawErr string

	keys keymap.KeyMap
	// send is the host's key that sends the form (named in hints).
	send key.Binding
	// remembered are the fields filled from an earlier call, until the
	// person changes them (see Remember).
	remembered map[*schemaform.Value]bool
	// scroll is what the last View left out above and below (the marker
	// on the rule under the fields).
	scroll kit.Scroll
	// blurred draws no cursor (the host's focus is elsewhere; see Blur).
	blurred bool
}

// New starts a form on value (nil: a new value with the schema's
// defaults).
func New(f *schemaform.Form, value *schemaform.Value, st *themes.Styles) *Model {
	if value == nil {
		value = f.New()
	}
	keys := keymap.Default()
	m := &Model{form: f, value: value, st: st, now: time.Now, open: map[*schemaform.Value]bool{}, keys: keys, send: keys.Overlay.Submit}
	m.rebuild()
	return m
}

// SetKeys sets the bindings (the user's) and the host's key that sends
// the form, which the hints name.
func (m *Model) SetKeys(k keymap.KeyMap, send key.Binding) {
	m.keys, m.send = k, send
}

// Remember marks the fields that are set now as remembered from an
// earlier call (the form says so beside each, until it is changed).
func (m *Model) Remember() {
	m.remembered = map[*schemaform.Value]bool{}
	for _, p := range m.value.Props {
		if p.Present() {
			m.remembered[p] = true
		}
	}
}

// Remembered is how many fields still hold a remembered value.
func (m *Model) Remembered() int { return len(m.remembered) }

// forget drops v's remembered mark once the person changes it.
func (m *Model) forget(v *schemaform.Value) { delete(m.remembered, v) }

// isRemembered reports whether a row's value (or the field it belongs to)
// is remembered.
func (m *Model) isRemembered(v *schemaform.Value) bool { return m.remembered[v] }

// Reset puts every field back to the schema's defaults and forgets the
// remembered values.
func (m *Model) Reset() {
	m.value = m.form.New()
	m.remembered = nil
	m.open = map[*schemaform.Value]bool{}
	m.editOf = nil
	m.cursor = 0
	m.rebuild()
	m.revalidate()
}

// SetStyles changes the theme.
func (m *Model) SetStyles(st *themes.Styles) { m.st = st }

// SetClock sets the clock used to fill dates (tests).
func (m *Model) SetClock(now func() time.Time) { m.now = now }

// Value is the value being edited.
func (m *Model) Value() *schemaform.Value { return m.value }

// Form is the compiled schema.
func (m *Model) Form() *schemaform.Form { return m.form }

// Raw reports whether the raw JSON editor is open.
func (m *Model) Raw() bool { return m.raw }

// Errors are the errors of the last submission (updated as fields change).
func (m *Model) Errors() schemaform.Errors { return m.errs }

// Fields reports whether the form has anything to fill in.
func (m *Model) Fields() bool { return len(m.rows) > 0 }

// rebuild recomputes the rows after a structural change, keeping the
// cursor in range and the editor on the row under it.
func (m *Model) rebuild() {
	m.rows = m.flatten()
	m.labelCols = m.widestLabel()
	m.cursor = max(min(m.cursor, len(m.rows)-1), 0)
	m.bindEditor()
}

// current is the row under the cursor, or nil.
func (m *Model) current() *row {
	if m.cursor < 0 || m.cursor >= len(m.rows) {
		return nil
	}
	return &m.rows[m.cursor]
}

// bindEditor points the line editor at the text field under the cursor.
func (m *Model) bindEditor() {
	r := m.current()
	if r == nil || r.kind != rowField || !textual(r.v) || r.v.Null {
		m.editOf = nil
		return
	}
	if m.editOf != r.v {
		m.editOf = r.v
		text := ""
		if r.v.Set {
			text = r.v.Text
		}
		if k := r.v.Field.Kind; k == schemaform.Number || k == schemaform.Integer {
			text = kit.NumberText(text) // 1048576, not 1.048576e+06
		}
		m.edit = kit.NewLineEdit(text)
		// A prefilled value (a default, a remembered argument) is
		// selected: typing replaces it, an arrow keeps it.
		m.edit.SelectAll()
	}
}

// Submit validates the value (or the raw JSON) and returns the instance
// to send; on errors it shows them on their fields and returns false.
func (m *Model) Submit() (json.RawMessage, bool) {
	m.submitted = true
	if m.raw {
		text := []byte(m.ta.Value())
		if errs := m.form.Validate(text); len(errs) > 0 {
			m.errs = errs
			m.rawErr = errs.Error()
			return nil, false
		}
		m.errs, m.rawErr = nil, ""
		return compact(text), true
	}
	inst, errs := m.form.Submit(m.value)
	m.errs = errs
	return inst, len(errs) == 0
}

// revalidate refreshes the errors after a change, once the person has
// tried to submit.
func (m *Model) revalidate() {
	if m.submitted && !m.raw {
		_, m.errs = m.form.Submit(m.value)
	}
}

// SetRaw opens or closes the raw JSON editor. Opening shows the value as
// pretty JSON; closing fills the form from the JSON, and stays open with
// an error when the JSON does not fit the form.
func (m *Model) SetRaw(on bool) tea.Cmd {
	if on == m.raw {
		return nil
	}
	if on {
		inst, _ := m.value.JSON()
		m.ta = kit.NewTextArea(kit.JSONSafe(pretty(inst)), m.st, true)
		m.raw, m.rawErr = true, ""
		return nil
	}
	text := []byte(m.ta.Value())
	fresh := m.form.New()
	if err := fresh.Fill(text); err != nil {
		m.rawErr = "the form cannot show this JSON (" + err.Error() + "); fix it or send it from here"
		return nil
	}
	m.value, m.raw, m.rawErr = fresh, false, ""
	m.open = map[*schemaform.Value]bool{}
	m.editOf = nil
	m.rebuild()
	m.revalidate()
	return nil
}

// pretty indents JSON for the raw editor.
func pretty(b []byte) string {
	v := jsontext.Value(append([]byte(nil), b...))
	if err := v.Indent(jsontext.WithIndent("  ")); err != nil {
		return string(b)
	}
	return string(v)
}

// compact removes insignificant whitespace.
func compact(b []byte) json.RawMessage {
	v := jsontext.Value(append([]byte(nil), b...))
	if err := v.Compact(); err != nil {
		return b
	}
	return json.RawMessage(v)
}

// Focused is the value of the text field under the cursor, or nil.
func (m *Model) Focused() *schemaform.Value {
	if m.raw {
		return nil
	}
	return m.editOf
}

// SetFocusedText replaces the text of the field under the cursor (a
// completion the person accepted).
func (m *Model) SetFocusedText(s string) {
	if m.editOf == nil || m.raw {
		return
	}
	m.edit.Set(s)
	m.textChanged()
}
