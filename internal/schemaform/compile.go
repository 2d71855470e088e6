package schemaform

import (
	"encoding/json"
	"fmt"
	"slices"
)

// maxDepth bounds how deep a form nests, whatever the schema says.
const maxDepth = 16

// builder turns one schema document into Fields.
type builder struct {
	root any
	// active are the $ref targets being expanded, to catch recursion.
	active map[string]bool
}

// build makes the Field for schema node s.
func (b *builder) build(s any, depth int) *Field {
	if depth > maxDepth {
		return &Field{Kind: Raw, Note: "nested too deep for a form"}
	}
	switch t := s.(type) {
	case bool:
		if !t {
			return &Field{Kind: Raw, Note: "the schema allows no value"}
		}
		return &Field{Kind: Raw}
	case *object:
		return b.buildObject(t, depth)
	}
	return &Field{Kind: Raw, Note: "not a schema"}
}

func (b *builder) buildObject(s *object, depth int) *Field {
	if ref := s.str("$ref"); ref != "" {
		return b.buildRef(s, ref, depth)
	}
	if all := s.arr("allOf"); len(all) > 0 {
		s = b.mergeAllOf(s, all)
	}
	f := &Field{Title: s.str("title"), Description: s.str("description"), Format: s.str("format")}
	if d, ok := s.get("default"); ok {
		f.Default = marshal(d)
	}
	constraints(f, s)
	types, nullable := typesOf(s)
	f.Nullable = nullable
	if v, ok := s.get("nullable"); ok && v == true {
		f.Nullable = true
	}
	// enum and const
	if e, ok := s.get("enum"); ok {
		if list, ok := e.([]any); ok {
			return enumField(f, s, list)
		}
	}
	if c, ok := s.get("const"); ok {
		f.Kind, f.Options = Enum, []Option{{Value: marshal(c), Label: labelOf(c)}}
		return f
	}
	// anyOf / oneOf: null alternatives make the field nullable; const
	// alternatives make an enum; others a union.
	for _, kw := range []string{"oneOf", "anyOf"} {
		alts := s.arr(kw)
		if len(alts) == 0 {
			continue
		}
		var rest []any
		for _, a := range alts {
			if isNullSchema(b.deref(a)) {
				f.Nullable = true
				continue
			}
			rest = append(rest, a)
		}
		if opts, ok := b.constOptions(rest); ok {
			f.Kind, f.Options = Enum, opts
			return f
		}
		if len(rest) == 1 {
			return b.overlay(f, s, rest[0], depth)
		}
		if len(rest) > 1 && len(types) == 0 {
			f.Kind = Union
			for _, a := range rest {
				v := b.build(a, depth+1)
				f.Variants = append(f.Variants, v)
			}
			return f
		}
	}
	switch {
	case len(types) == 0:
		switch {
		case s.obj("properties") != nil:
			types = []string{"object"}
		case s.obj("items") != nil:
			types = []string{"array"}
		default:
			f.Kind = Raw
			return f
		}
	case len(types) > 1:
		f.Kind = Union
		for _, t := range types {
			one := s.clone()
			one.set("type", t)
			delete(one.vals, "oneOf")
			delete(one.vals, "anyOf")
			v := b.buildObject(one, depth+1)
			v.Title, v.Description, v.Default = t, "", nil
			f.Variants = append(f.Variants, v)
		}
		return f
	}
	switch types[0] {
	case "string":
		f.Kind = String
	case "number":
		f.Kind = Number
	case "integer":
		f.Kind = Integer
	case "boolean":
		f.Kind = Boolean
	case "null":
		f.Kind, f.Nullable = Enum, false
		f.Options = []Option{{Value: json.RawMessage("null"), Label: "null"}}
	case "array":
		b.arrayField(f, s, depth)
	case "object":
		b.objectField(f, s, depth)
	default:
		f.Kind, f.Note = Raw, fmt.Sprintf("unknown type %q", types[0])
	}
	return f
}

// overlay builds the only non-null alternative of an anyOf/oneOf and puts
// the outer schema's annotations on it.
func (b *builder) overlay(f *Field, s *object, alt any, depth int) *Field {
	inner := b.build(alt, depth+1)
	if f.Title != "" {
		inner.Title = f.Title
	}
	if f.Description != "" {
		inner.Description = f.Description
	}
	if f.Default != nil {
		inner.Default = f.Default
	}
	inner.Nullable = inner.Nullable || f.Nullable
	return inner
}

// typesOf reads "type": a string or a list; "null" in a list makes the
// field nullable rather than a union.
func typesOf(s *object) (types []string, nullable bool) {
	v, _ := s.get("type")
	switch t := v.(type) {
	case string:
		return []string{t}, false
	case []any:
		for _, e := range t {
			name, _ := e.(string)
			if name == "null" && len(t) > 1 {
				nullable = true
				continue
			}
			if name != "" {
				types = append(types, name)
			}
		}
	}
	return types, nullable
}

func isNullSchema(s any) bool {
	o, ok := s.(*object)
	if !ok {
		return false
	}
	if o.str("type") == "null" {
		return true
	}
	if c, ok := o.get("const"); ok && c == nil {
		return true
	}
	if e := o.arr("enum"); len(e) == 1 && e[0] == nil {
		return true
	}
	return false
}

// constOptions turns alternatives that are all {"const": v, "title": t}
// into titled options.
func (b *builder) constOptions(alts []any) ([]Option, bool) {
	if len(alts) == 0 {
		return nil, false
	}
	var opts []Option
	for _, a := range alts {
		o, ok := b.deref(a).(*object)
		if !ok {
			return nil, false
		}
		c, ok := o.get("const")
		if !ok {
			if e := o.arr("enum"); len(e) == 1 {
				c, ok = e[0], true
			}
		}
		if !ok {
			return nil, false
		}
		opt := Option{Value: marshal(c), Label: labelOf(c)}
		if t := o.str("title"); t != "" {
			opt.Label, opt.Titled = t, true
		}
		opts = append(opts, opt)
	}
	return opts, true
}

// enumField makes an Enum from "enum", titled by enumNames when present;
// a null member makes the field nullable instead.
func enumField(f *Field, s *object, list []any) *Field {
	names := s.arr("enumNames")
	f.Kind = Enum
	for i, v := range list {
		if v == nil {
			f.Nullable = true
			continue
		}
		opt := Option{Value: marshal(v), Label: labelOf(v)}
		if i < len(names) {
			if n, ok := names[i].(string); ok && n != "" {
				opt.Label, opt.Titled = n, true
			}
		}
		f.Options = append(f.Options, opt)
	}
	return f
}

// labelOf is how an untitled option shows: strings bare, others as JSON.
func labelOf(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(marshal(v))
}

// arrayField fills an array: a Multi when its items are an enum, else an
// Array of items.
func (b *builder) arrayField(f *Field, s *object, depth int) {
	if _, ok := s.get("prefixItems"); ok {
		f.Kind, f.Note = Raw, "a tuple (prefixItems)"
		return
	}
	items, ok := s.get("items")
	if _, isList := items.([]any); isList {
		f.Kind, f.Note = Raw, "a tuple (items list)"
		return
	}
	if !ok {
		items = true
	}
	it := b.build(items, depth+1)
	if it.Kind == Enum && !it.Nullable {
		f.Kind, f.Options = Multi, it.Options
		return
	}
	f.Kind, f.Item = Array, it
}

// objectField fills an object's properties, in schema order.
func (b *builder) objectField(f *Field, s *object, depth int) {
	props := s.obj("properties")
	addl, hasAddl := s.get("additionalProperties")
	if props == nil || len(props.keys) == 0 {
		if hasAddl && addl == false {
			f.Kind, f.Closed = Object, true
			return
		}
		if _, ok := s.get("patternProperties"); ok || hasAddl {
			f.Kind, f.Note = Raw, "an object with any keys"
			return
		}
		f.Kind = Object
		return
	}
	f.Kind = Object
	f.Closed = hasAddl && addl == false
	var required []string
	for _, r := range s.arr("required") {
		if name, ok := r.(string); ok {
			required = append(required, name)
		}
	}
	for _, name := range props.keys {
		child := b.build(props.vals[name], depth+1)
		child.Name = name
		child.Required = slices.Contains(required, name)
		f.Fields = append(f.Fields, child)
	}
}

// constraints copies the bounds a form can show.
func constraints(f *Field, s *object) {
	num := func(k string) *float64 {
		if v, ok := s.num(k); ok {
			return &v
		}
		return nil
	}
	count := func(k string) *int {
		if v, ok := s.num(k); ok {
			n := int(v)
			return &n
		}
		return nil
	}
	f.Minimum, f.Maximum = num("minimum"), num("maximum")
	// exclusiveMinimum is a number since draft 6, a boolean before.
	if v, ok := s.get("exclusiveMinimum"); ok {
		if v == true {
			f.ExclusiveMinimum = true
		} else if n := num("exclusiveMinimum"); n != nil {
			f.Minimum, f.ExclusiveMinimum = n, true
		}
	}
	if v, ok := s.get("exclusiveMaximum"); ok {
		if v == true {
			f.ExclusiveMaximum = true
		} else if n := num("exclusiveMaximum"); n != nil {
			f.Maximum, f.ExclusiveMaximum = n, true
		}
	}
	f.MinLength, f.MaxLength = count("minLength"), count("maxLength")
	f.MinItems, f.MaxItems = count("minItems"), count("maxItems")
	f.Pattern = s.str("pattern")
}
