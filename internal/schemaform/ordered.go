package schemaform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// object is a JSON object that remembers the order of its members.
type object struct {
	keys []string
	vals map[string]any
}

// get returns a member's value and whether it is there.
func (o *object) get(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[k]
	return v, ok
}

// str returns a string member, "" when absent or not a string.
func (o *object) str(k string) string {
	v, _ := o.get(k)
	s, _ := v.(string)
	return s
}

// obj returns an object member, nil when absent or not an object.
func (o *object) obj(k string) *object {
	v, _ := o.get(k)
	ob, _ := v.(*object)
	return ob
}

// arr returns an array member, nil when absent or not an array.
func (o *object) arr(k string) []any {
	v, _ := o.get(k)
	a, _ := v.([]any)
	return a
}

// num returns a numeric member.
func (o *object) num(k string) (float64, bool) {
	v, _ := o.get(k)
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// set adds or replaces a member, keeping the first position.
func (o *object) set(k string, v any) {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

// clone is a shallow copy.
func (o *object) clone() *object {
	c := &object{keys: append([]string(nil), o.keys...), vals: make(map[string]any, len(o.vals))}
	for k, v := range o.vals {
		c.vals[k] = v
	}
	return c
}

// parse decodes JSON into ordered values: *object, []any, string,
// json.Number, bool and nil.
func parse(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &object{vals: map[string]any{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				if _, dup := o.vals[k]; dup {
					return nil, fmt.Errorf("duplicate member %q", k)
				}
				o.set(k, v)
			}
			_, err := dec.Token()
			return o, err
		case '[':
			a := []any{}
			for dec.More() {
				v, err := parseValue(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token()
			return a, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}

// marshal encodes an ordered value back to JSON, members in order.
func marshal(v any) json.RawMessage {
	var b bytes.Buffer
	writeValue(&b, v)
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v any) {
	switch t := v.(type) {
	case *object:
		b.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			writeValue(b, t.vals[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			writeValue(b, e)
		}
		b.WriteByte(']')
	case json.RawMessage:
		b.Write(t)
	default:
		eb, err := json.Marshal(t)
		if err != nil {
			eb = []byte("null")
		}
		b.Write(eb)
	}
}

// plain converts ordered values to what encoding/json produces
// (map[string]any, []any, json.Number...), for the validator.
func plain(v any) any {
	switch t := v.(type) {
	case *object:
		m := make(map[string]any, len(t.keys))
		for _, k := range t.keys {
			m[k] = plain(t.vals[k])
		}
		return m
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = plain(e)
		}
		return out
	}
	return v
}
