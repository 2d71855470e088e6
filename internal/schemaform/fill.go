package schemaform

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Fill sets the value from an instance (remembered arguments, or what a
// person wrote in the raw JSON editor). What fits the form is filled; the
// error lists what does not (the rest keeps its previous value), so a
// caller can keep the raw text instead.
func (v *Value) Fill(inst json.RawMessage) error {
	d, err := parse(inst)
	if err != nil {
		return fmt.Errorf("not valid JSON: %w", err)
	}
	if v.Field.Kind == Object {
		v.Unset()
	}
	if errs := v.fill(d, ""); len(errs) > 0 {
		return errs
	}
	return nil
}

// fill sets the value from ordered JSON d, returning what did not fit.
func (v *Value) fill(d any, path string) Errors {
	f := v.Field
	if d == nil {
		return v.fillNull(path)
	}
	switch f.Kind {
	case String:
		s, ok := d.(string)
		if !ok {
			return mismatch(path, "a string", d)
		}
		v.SetText(s)
	case Number, Integer:
		n, ok := d.(json.Number)
		if !ok {
			return mismatch(path, "a number", d)
		}
		v.SetText(n.String())
	case Boolean:
		b, ok := d.(bool)
		if !ok {
			return mismatch(path, "true or false", d)
		}
		v.SetBool(b)
	case Enum:
		i := optionIndex(f.Options, d)
		if i < 0 {
			return notAnOption(path, d)
		}
		v.Choose(i)
	case Multi:
		return v.fillMulti(d, path)
	case Array:
		return v.fillArray(d, path)
	case Object:
		return v.fillObject(d, path)
	case Union:
		return v.fillUnion(d, path)
	default: // Raw
		v.SetText(string(marshal(d)))
	}
	return nil
}

// mismatch is the error for a value of another kind than the form's.
func mismatch(path, want string, d any) Errors {
	return Errors{{Path: path, Message: fmt.Sprintf("the form expects %s here, not %s", want, jsonKind(d))}}
}

// notAnOption is the error for a value none of the options has.
func notAnOption(path string, d any) Errors {
	return Errors{{Path: path, Message: fmt.Sprintf("%s is not one of the options", marshal(d))}}
}

// fillNull sets a field to JSON null: null itself where the field takes it,
// or the option that is null.
func (v *Value) fillNull(path string) Errors {
	f := v.Field
	switch {
	case f.Kind == Raw:
		v.SetText("null")
		return nil
	case f.Nullable:
		v.SetNull(true)
		return nil
	case f.Kind == Enum:
		if i := optionIndex(f.Options, nil); i >= 0 {
			v.Choose(i)
			return nil
		}
	}
	return mismatch(path, f.Kind.String(), nil)
}

// fillMulti picks the options a list names.
func (v *Value) fillMulti(d any, path string) Errors {
	list, ok := d.([]any)
	if !ok {
		return mismatch(path, "a list", d)
	}
	picked := make([]bool, len(v.Field.Options))
	for _, e := range list {
		i := optionIndex(v.Field.Options, e)
		if i < 0 {
			return notAnOption(path, e)
		}
		picked[i] = true
	}
	v.Picked, v.Set, v.Null = picked, true, false
	return nil
}

// fillArray makes one item for each element of a list and fills it.
func (v *Value) fillArray(d any, path string) Errors {
	list, ok := d.([]any)
	if !ok {
		return mismatch(path, "a list", d)
	}
	var errs Errors
	v.Items = nil
	for i, e := range list {
		it := v.AddItem()
		it.Unset()
		errs = append(errs, it.fill(e, path+"/"+strconv.Itoa(i))...)
	}
	v.Set, v.Null = true, false
	return errs
}

// fillObject fills the properties an object has; members the schema does
// not name are kept aside (an error when the schema is closed).
func (v *Value) fillObject(d any, path string) Errors {
	o, ok := d.(*object)
	if !ok {
		return mismatch(path, "an object", d)
	}
	var errs Errors
	v.Extra = nil
	for _, k := range o.keys {
		p := v.prop(k)
		if p == nil {
			if v.Extra == nil {
				v.Extra = &object{vals: map[string]any{}}
			}
			v.Extra.set(k, o.vals[k])
			if v.Field.Closed {
				errs = append(errs, FieldError{Path: path + "/" + escapeToken(k), Message: "the schema has no such property"})
			}
			continue
		}
		p.Unset()
		errs = append(errs, p.fill(o.vals[k], path+"/"+escapeToken(k))...)
	}
	v.Set, v.Null = true, false
	return errs
}

// fillUnion chooses the first alternative the value fits without error.
func (v *Value) fillUnion(d any, path string) Errors {
	for i, variant := range v.Field.Variants {
		try := NewValue(variant)
		try.Unset()
		if len(try.fill(d, path)) == 0 {
			v.Choose(i)
			v.Variants[i] = try
			return nil
		}
	}
	return Errors{{Path: path, Message: fmt.Sprintf("%s fits none of the alternatives", jsonKind(d))}}
}

// prop is the Object field named k.
func (v *Value) prop(k string) *Value {
	for _, p := range v.Props {
		if p.Field.Name == k {
			return p
		}
	}
	return nil
}

// Prop returns an Object's field by property name, or nil.
func (v *Value) Prop(name string) *Value { return v.prop(name) }

// optionIndex finds the option whose value equals d.
func optionIndex(opts []Option, d any) int {
	want := string(marshal(d))
	for i, o := range opts {
		od, err := parse(o.Value)
		if err == nil && string(marshal(od)) == want {
			return i
		}
	}
	return -1
}

// jsonKind names the kind of an ordered JSON value.
func jsonKind(d any) string {
	switch d.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case *object:
		return "an object"
	}
	return "a value"
}
