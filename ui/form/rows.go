package form

import (
	"strconv"

	"github.com/mcptui/mcptui/internal/schemaform"
)

// rowKind is what a row of the form stands for.
type rowKind int

const (
	// rowField is a field: its label and value (or a header for objects,
	// arrays, multi-selects and unions).
	rowField rowKind = iota
	// rowOption is one option of a multi-select, or of an open enum.
	rowOption
	// rowAdd adds an item to an array.
	rowAdd
)

// row is one line of the form (plus its error lines when drawn).
type row struct {
	kind  rowKind
	v     *schemaform.Value
	array *schemaform.Value // for an item: its array
	index int               // item index, or option index
	depth int
	path  string
	label string
}

// flatten lists the rows of the value tree in drawing order.
func (m *Model) flatten() []row {
	var rows []row
	var walk func(v *schemaform.Value, depth int, path, label string, array *schemaform.Value, index int)
	walk = func(v *schemaform.Value, depth int, path, label string, array *schemaform.Value, index int) {
		f := v.Field
		isRoot := path == "" && array == nil && depth == 0 && v == m.value
		if !(isRoot && f.Kind == schemaform.Object) {
			rows = append(rows, row{kind: rowField, v: v, array: array, index: index, depth: depth, path: path, label: label})
			depth++
		}
		if v.Null {
			return
		}
		switch f.Kind {
		case schemaform.Object:
			for _, p := range v.Props {
				walk(p, depth, path+"/"+escape(p.Field.Name), p.Field.Label(), nil, 0)
			}
		case schemaform.Multi:
			for i, o := range f.Options {
				rows = append(rows, row{kind: rowOption, v: v, index: i, depth: depth, path: path, label: o.Label})
			}
		case schemaform.Enum:
			if m.open[v] {
				for i, o := range f.Options {
					rows = append(rows, row{kind: rowOption, v: v, index: i, depth: depth, path: path, label: o.Label})
				}
			}
		case schemaform.Array:
			for i, it := range v.Items {
				walk(it, depth, path+"/"+strconv.Itoa(i), "["+strconv.Itoa(i)+"]", v, i)
			}
			rows = append(rows, row{kind: rowAdd, v: v, depth: depth, path: path, label: "+ add"})
		case schemaform.Union:
			vv := v.Variant()
			if vv == nil {
				return
			}
			if vv.Field.Kind == schemaform.Object {
				for _, p := range vv.Props {
					walk(p, depth, path+"/"+escape(p.Field.Name), p.Field.Label(), nil, 0)
				}
				return
			}
			walk(vv, depth, path, "value", nil, 0)
		}
	}
	walk(m.value, 0, "", "", nil, 0)
	return rows
}

// escape escapes one JSON pointer token.
func escape(t string) string {
	out := make([]byte, 0, len(t))
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '~':
			out = append(out, '~', '0')
		case '/':
			out = append(out, '~', '1')
		default:
			out = append(out, t[i])
		}
	}
	return string(out)
}

// textual reports whether a value is edited as text.
func textual(v *schemaform.Value) bool {
	switch v.Field.Kind {
	case schemaform.String, schemaform.Number, schemaform.Integer, schemaform.Raw:
		return true
	}
	return false
}
