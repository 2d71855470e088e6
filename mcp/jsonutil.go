package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/jsonscan"
)

// member is one name/value pair of a JSON object, the value kept verbatim.
type member struct {
	name  string
	value json.RawMessage
}

// object is a JSON object as an ordered list of members whose values are
// kept byte for byte as they came, so that rebuilding it never re-escapes a
// string the server asked to have echoed.
type object []member

// parseObject splits a JSON object into its members, values verbatim (they
// share raw's memory). null or empty input is the empty object. Duplicate
// names are an error.
func parseObject(raw json.RawMessage) (object, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if k := jsontext.Value(raw).Kind(); k != '{' && k != 0 {
		return nil, fmt.Errorf("not a JSON object: %s", kindName(k))
	}
	dec := jsontext.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.ReadValue(); err != nil {
		return nil, fmt.Errorf("reading JSON object: %w", err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, errors.New("trailing data after JSON object")
	}
	var obj object
	_ = jsonscan.EachMember(raw, func(name, _, value []byte) error {
		obj = append(obj, member{name: string(name), value: json.RawMessage(value[:len(value):len(value)])})
		return nil
	})
	return obj, nil
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "invalid"
}

// get returns the value of the member called name, or nil.
func (o object) get(name string) json.RawMessage {
	for _, m := range o {
		if m.name == name {
			return m.value
		}
	}
	return nil
}

// has reports whether the object has a member called name.
func (o object) has(name string) bool { return o.get(name) != nil }

// set replaces the member called name, or appends it; a nil value removes it.
func (o object) set(name string, value json.RawMessage) object {
	for i, m := range o {
		if m.name == name {
			if value == nil {
				return slices.Delete(slices.Clone(o), i, i+1)
			}
			out := slices.Clone(o)
			out[i].value = value
			return out
		}
	}
	if value == nil {
		return o
	}
	return append(slices.Clone(o), member{name: name, value: value})
}

// merge returns o with every member of over set on it (over wins).
func (o object) merge(over object) object {
	out := slices.Clone(o)
	for _, m := range over {
		out = out.set(m.name, m.value)
	}
	return out
}

// encode writes the object, member values verbatim.
func (o object) encode() json.RawMessage {
	buf := make([]byte, 0, 64)
	buf = append(buf, '{')
	for i, m := range o {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf, _ = jsontext.AppendQuote(buf, m.name)
		buf = append(buf, ':')
		buf = append(buf, m.value...)
	}
	buf = append(buf, '}')
	return buf
}

// quote is a JSON string literal for s.
func quote(s string) json.RawMessage {
	b, _ := jsontext.AppendQuote(nil, s)
	return b
}

// toRaw turns a caller's value into JSON: a json.RawMessage is used as it is
// (after a validity check), anything else is marshalled. nil stays nil.
func toRaw(v any) (json.RawMessage, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		if v == nil {
			return nil, nil
		}
		if !jsontext.Value(v).IsValid() {
			return nil, fmt.Errorf("invalid JSON: %.80q", v)
		}
		return slices.Clone(v), nil
	case jsontext.Value:
		return toRaw(json.RawMessage(v))
	}
	b, err := jsonv2.Marshal(v, jsonv2.Deterministic(true))
	if err != nil {
		return nil, fmt.Errorf("encoding %T as JSON: %w", v, err)
	}
	return b, nil
}

// mustMarshal encodes values this package builds itself (never fails for them).
func mustMarshal(v any) json.RawMessage {
	b, err := jsonv2.Marshal(v, jsonv2.Deterministic(true))
	if err != nil {
		panic(fmt.Sprintf("mcp: encoding %T: %v", v, err))
	}
	return b
}

// unmarshal decodes JSON into v with go-json-experiment's strict defaults
// (names matched exactly, duplicate names rejected, unknown names ignored).
func unmarshal(raw []byte, v any) error {
	return jsonv2.Unmarshal(raw, v)
}

// jsonKind names the kind of a raw JSON value ("object", "array", ...).
func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "absent"
	}
	return kindName(jsontext.Value(raw).Kind())
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool { return jsonKind(raw) == "object" }

// stringMember returns the string value of a member, and whether it was one.
func stringMember(o object, name string) (string, bool) {
	v := o.get(name)
	if jsonKind(v) != "string" {
		return "", false
	}
	var s string
	if err := unmarshal(v, &s); err != nil {
		return "", false
	}
	return s, true
}

// mergeDeep merges over into base: objects member by member, recursively;
// anything else in over replaces what base has.
func mergeDeep(base, over json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(over)) == 0 {
		return base, nil
	}
	if !isObject(base) || !isObject(over) {
		return over, nil
	}
	b, err := parseObject(base)
	if err != nil {
		return nil, err
	}
	o, err := parseObject(over)
	if err != nil {
		return nil, err
	}
	for _, m := range o {
		cur := b.get(m.name)
		if cur != nil {
			merged, err := mergeDeep(cur, m.value)
			if err != nil {
				return nil, err
			}
			b = b.set(m.name, merged)
		} else {
			b = b.set(m.name, m.value)
		}
	}
	return b.encode(), nil
}
