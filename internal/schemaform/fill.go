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
	mismatch := func(want string) Errors {
		return Errors{{Path: path, Message: fmt.Sprintf("the form expects %s here, not %s", want, jsonKind(d))}}
	}
	if d == nil {
		if f.Nullable || f.Kind == Raw {
			if f.Kind == Raw {
				v.SetText("null")
			} else {
				v.SetNull(true)
			}
			return nil
		}
		if f.Kind == Enum {
			if i := optionIndex(f.Options, d); i >= 0 {
				v.Choose(i)
				return nil
			}
		}
		return mismatch(f.Kind.String())
	}
	switch f.Kind {
	case String:
		s, ok := d.(string)
		if !ok {
			return mismatch("a string")
		}
		v.SetText(s)
	case Number, Integer:
		n, ok := d.(json.Number)
		if !ok {
			return mismatch("a number")
		}
		v.SetText(n.String())
	case Boolean:
		b, ok := d.(bool)
		if !ok {
			return mismatch("true or false")
		}
		v.SetBool(b)
	case Enum:
		i := optionIndex(f.Options, d)
		if i < 0 {
			return Errors{{Path: path, Message: fmt.Sprintf("%s is not one of the options", marshal(d))}}
		}
		v.Choose(i)
	case Multi:
		list, ok := d.([]any)
		if !ok {
			return mismatch("a list")
		}
		picked := make([]bool, len(f.Options))
		for _, e := range list {
			i := optionIndex(f.Options, e)
			if i < 0 {
				return Errors{{Path: path, Message: fmt.Sprintf("%s is not one of the options", marshal(e))}}
			}
			picked[i] = true
		}
		v.Picked, v.Set, v.Null = picked, true, false
	case Array:
		list, ok := d.([]any)
		if !ok {
			return mismatch("a list")
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
	case Object:
		o, ok := d.(*object)
		if !ok {
			return mismatch("an object")
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
				if f.Closed {
					errs = append(errs, FieldError{Path: path + "/" + escapeToken(k), Message: "the schema has no such property"})
				}
				continue
			}
			p.Unset()
			errs = append(errs, p.fill(o.vals[k], path+"/"+escapeToken(k))...)
		}
		v.Set, v.Null = true, false
		return errs
	case Union:
		for i, variant := range f.Variants {
			try := NewValue(variant)
			try.Unset()
			if len(try.fill(d, path)) == 0 {
				v.Choose(i)
				v.Variants[i] = try
				return nil
			}
		}
		return Errors{{Path: path, Message: fmt.Sprintf("%s fits none of the alternatives", jsonKind(d))}}
	default: // Raw
		v.SetText(string(marshal(d)))
	}
	return nil
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
