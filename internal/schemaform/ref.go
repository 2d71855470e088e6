package schemaform

import (
	"fmt"
	"slices"
	"strings"
)

// buildRef follows a local $ref; sibling annotations win over the target's.
func (b *builder) buildRef(s *object, ref string, depth int) *Field {
	target, ok := b.resolve(ref)
	if !ok {
		return &Field{Kind: Raw, Title: s.str("title"), Description: s.str("description"),
			Note: "unresolved $ref " + ref}
	}
	if b.active[ref] {
		return &Field{Kind: Raw, Title: s.str("title"), Description: s.str("description"),
			Note: "recursive $ref " + ref}
	}
	b.active[ref] = true
	defer delete(b.active, ref)
	// Siblings of $ref (2019-09 and later) apply too: merge them in.
	merged := any(target)
	if len(s.keys) > 1 {
		if to, ok := target.(*object); ok {
			m := to.clone()
			for _, k := range s.keys {
				if k != "$ref" {
					m.set(k, s.vals[k])
				}
			}
			merged = m
		}
	}
	return b.build(merged, depth+1)
}

// deref returns the schema a $ref points at, or s.
func (b *builder) deref(s any) any {
	for range maxDepth {
		o, ok := s.(*object)
		if !ok {
			return s
		}
		ref := o.str("$ref")
		if ref == "" {
			return s
		}
		t, ok := b.resolve(ref)
		if !ok {
			return s
		}
		s = t
	}
	return s
}

// resolve finds a local reference: "#", "#/json/pointer" (the usual
// "#/$defs/X" and "#/definitions/X"), or "#anchor". Anything else (other
// documents, the network) is not followed.
func (b *builder) resolve(ref string) (any, bool) {
	if !strings.HasPrefix(ref, "#") {
		return nil, false
	}
	frag := ref[1:]
	if frag == "" {
		return b.root, true
	}
	if !strings.HasPrefix(frag, "/") {
		return findAnchor(b.root, frag)
	}
	cur := b.root
	for _, tok := range strings.Split(frag[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(unescapePct(tok), "~1", "/"), "~0", "~")
		switch t := cur.(type) {
		case *object:
			v, ok := t.get(tok)
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(t) {
				return nil, false
			}
			cur = t[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// unescapePct undoes the URI percent-encoding of a fragment token.
func unescapePct(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			var c byte
			if _, err := fmt.Sscanf(s[i+1:i+3], "%02x", &c); err == nil {
				out.WriteByte(c)
				i += 2
				continue
			}
		}
		out.WriteByte(s[i])
	}
	return out.String()
}

// findAnchor looks for a schema whose $anchor is name.
func findAnchor(v any, name string) (any, bool) {
	switch t := v.(type) {
	case *object:
		if t.str("$anchor") == name {
			return t, true
		}
		for _, k := range t.keys {
			if r, ok := findAnchor(t.vals[k], name); ok {
				return r, true
			}
		}
	case []any:
		for _, e := range t {
			if r, ok := findAnchor(e, name); ok {
				return r, true
			}
		}
	}
	return nil, false
}

// mergeAllOf folds allOf's subschemas into s: properties and required are
// united, and the first of each other keyword wins.
func (b *builder) mergeAllOf(s *object, all []any) *object {
	m := s.clone()
	delete(m.vals, "allOf")
	m.keys = slices.DeleteFunc(m.keys, func(k string) bool { return k == "allOf" })
	props := &object{vals: map[string]any{}}
	if p := s.obj("properties"); p != nil {
		props = p.clone()
	}
	required := append([]any(nil), s.arr("required")...)
	for _, sub := range all {
		so, ok := b.deref(sub).(*object)
		if !ok {
			continue
		}
		if inner := so.arr("allOf"); len(inner) > 0 {
			so = b.mergeAllOf(so, inner)
		}
		if p := so.obj("properties"); p != nil {
			for _, k := range p.keys {
				if _, have := props.get(k); !have {
					props.set(k, p.vals[k])
				}
			}
		}
		required = append(required, so.arr("required")...)
		for _, k := range so.keys {
			if k == "properties" || k == "required" {
				continue
			}
			if _, have := m.get(k); !have {
				m.set(k, so.vals[k])
			}
		}
	}
	if len(props.keys) > 0 {
		m.set("properties", props)
	}
	if len(required) > 0 {
		m.set("required", required)
	}
	return m
}
