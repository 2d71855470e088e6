package schemaform

import (
	"encoding/json"
	"strconv"
)

// Value is what a person entered for a Field. The zero-valued parts that do
// not apply to the field's kind are unused.
type Value struct {
	Field *Field
	// Set says the value is present in the instance. The root object is
	// always present; a nested object also when any of its fields is.
	Set bool
	// Null is set when a nullable field is null.
	Null bool
	// Text is the text of String, Number, Integer and Raw fields.
	Text string
	// Bool is a Boolean's value.
	Bool bool
	// Choice is the Option of an Enum, or the Variant of a Union; -1 for
	// none.
	Choice int
	// Picked says which Options of a Multi are chosen.
	Picked []bool
	// Items are an Array's items.
	Items []*Value
	// Props are an Object's fields, parallel to Field.Fields.
	Props []*Value
	// Extra are members of a filled instance that the schema does not
	// list; they are kept and sent back.
	Extra *object
	// Variants hold a Union's value per variant, made when first chosen.
	Variants []*Value
}

// NewValue makes a value for f with the schema's defaults filled in (an
// enum with a single option that is required is chosen too).
func NewValue(f *Field) *Value {
	v := &Value{Field: f, Choice: -1}
	switch f.Kind {
	case Multi:
		v.Picked = make([]bool, len(f.Options))
	case Object:
		for _, c := range f.Fields {
			v.Props = append(v.Props, NewValue(c))
		}
	case Union:
		v.Variants = make([]*Value, len(f.Variants))
	case Enum:
		if len(f.Options) == 1 && f.Required {
			v.Choice, v.Set = 0, true
		}
	}
	if f.Default != nil {
		if d, err := parse(f.Default); err == nil {
			_ = v.fill(d, "")
		}
	}
	return v
}

// Present reports whether the value is part of the instance.
func (v *Value) Present() bool {
	if v.Set || v.Null {
		return true
	}
	if v.Field.Kind == Object {
		for _, p := range v.Props {
			if p.Present() {
				return true
			}
		}
		return v.Extra != nil && len(v.Extra.keys) > 0
	}
	return false
}

// SetText sets the text of a String, Number, Integer or Raw field.
func (v *Value) SetText(s string) {
	v.Text, v.Set, v.Null = s, true, false
}

// SetBool sets a Boolean.
func (v *Value) SetBool(b bool) {
	v.Bool, v.Set, v.Null = b, true, false
}

// Choose picks an Enum option or a Union variant (-1 for none).
func (v *Value) Choose(i int) {
	v.Choice, v.Null = i, false
	v.Set = i >= 0
	if v.Field.Kind == Union && i >= 0 && v.Variants[i] == nil {
		v.Variants[i] = NewValue(v.Field.Variants[i])
	}
}

// Toggle flips option i of a Multi.
func (v *Value) Toggle(i int) {
	v.Picked[i] = !v.Picked[i]
	v.Set, v.Null = true, false
}

// SetNull makes a nullable value null, or not null.
func (v *Value) SetNull(null bool) {
	v.Null = null
	if null {
		v.Set = true
	}
}

// Unset leaves the value out of the instance (for an object, every field
// in it).
func (v *Value) Unset() {
	v.Set, v.Null = false, false
	for _, p := range v.Props {
		p.Unset()
	}
	v.Extra = nil
}

// AddItem appends a new item (with the item schema's defaults) to an
// Array and returns it.
func (v *Value) AddItem() *Value {
	it := NewValue(v.Field.Item)
	if v.Field.Item.Kind == Object {
		it.Set = true
	}
	v.Items = append(v.Items, it)
	v.Set, v.Null = true, false
	return it
}

// RemoveItem removes item i of an Array.
func (v *Value) RemoveItem(i int) {
	if i >= 0 && i < len(v.Items) {
		v.Items = append(v.Items[:i], v.Items[i+1:]...)
	}
}

// Variant is the chosen variant's value of a Union, or nil.
func (v *Value) Variant() *Value {
	if v.Field.Kind != Union || v.Choice < 0 || v.Choice >= len(v.Variants) {
		return nil
	}
	return v.Variants[v.Choice]
}

// JSON builds the instance. A value that cannot be built (a number that
// does not parse, raw JSON that is not JSON) is an error at its path;
// required fields left empty are not (the schema's validation says so).
func (v *Value) JSON() (json.RawMessage, Errors) {
	var errs Errors
	val, ok := v.build("", &errs)
	if !ok {
		val = &object{vals: map[string]any{}}
	}
	return marshal(val), errs
}

// build returns the value's JSON (ordered), and false when it is absent.
func (v *Value) build(path string, errs *Errors) (any, bool) {
	f := v.Field
	if v.Null {
		return nil, true
	}
	isRoot := path == ""
	switch f.Kind {
	case Object:
		if !isRoot && !v.Present() {
			return nil, false
		}
		o := &object{vals: map[string]any{}}
		for _, p := range v.Props {
			if pv, ok := p.build(path+"/"+escapeToken(p.Field.Name), errs); ok {
				o.set(p.Field.Name, pv)
			}
		}
		if v.Extra != nil {
			for _, k := range v.Extra.keys {
				if _, have := o.get(k); !have {
					o.set(k, v.Extra.vals[k])
				}
			}
		}
		return o, true
	}
	if !v.Set {
		return nil, false
	}
	switch f.Kind {
	case String:
		return v.Text, true
	case Number, Integer:
		n, err := parseNumber(v.Text, f.Kind == Integer)
		if err != "" {
			*errs = append(*errs, FieldError{Path: path, Message: err})
			return nil, false
		}
		return n, true
	case Boolean:
		return v.Bool, true
	case Enum:
		if v.Choice < 0 || v.Choice >= len(f.Options) {
			return nil, false
		}
		return f.Options[v.Choice].Value, true
	case Multi:
		list := []any{}
		for i, p := range v.Picked {
			if p {
				list = append(list, f.Options[i].Value)
			}
		}
		return list, true
	case Array:
		list := []any{}
		for i, it := range v.Items {
			iv, ok := it.build(path+"/"+strconv.Itoa(i), errs)
			if !ok {
				iv = nil
			}
			list = append(list, iv)
		}
		return list, true
	case Union:
		if vv := v.Variant(); vv != nil {
			if vv.Field.Kind == Object {
				vv.Set = true
			}
			return vv.build(path+"", errs)
		}
		return nil, false
	}
	// Raw
	if v.Text == "" {
		return nil, false
	}
	d, err := parse([]byte(v.Text))
	if err != nil {
		*errs = append(*errs, FieldError{Path: path, Message: "not valid JSON: " + err.Error()})
		return nil, false
	}
	return d, true
}

// parseNumber reads a number typed by a person; the message says why not.
func parseNumber(s string, integer bool) (json.Number, string) {
	if integer {
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			if f, ferr := strconv.ParseFloat(s, 64); ferr == nil && f == float64(int64(f)) {
				return json.Number(strconv.FormatInt(int64(f), 10)), ""
			}
			return "", "not an integer"
		}
		return json.Number(s), ""
	}
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return "", "not a number"
	}
	// Go accepts forms JSON does not (hex, "Inf", leading "+"): normalise.
	var n json.Number
	if err := json.Unmarshal([]byte(s), &n); err != nil {
		f, _ := strconv.ParseFloat(s, 64)
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), ""
	}
	return n, ""
}
