package lint

import (
	"encoding/json"

	"github.com/mcptui/mcptui/internal/jsonscan"
)

// A result can be megabytes (a 15 MiB tool result is one line), and the
// rules read it at several depths: its members, its content array, each
// item's members. Decoding each of those with encoding/json would check
// and copy the whole result every time, so a line is checked once
// (jsonscan.Valid, in received) and every reading below it walks the
// valid text in place with jsonscan, the values sub-slices of the line:
// members, array, str and decodeFields answer exactly what json.Unmarshal
// would, without its passes and copies. Their input must be valid JSON
// (a value of a line received has checked, or one jsonscan.Fields
// passed); nothing they return is kept past the line without a copy.

// field and decodeFields are jsonscan's: json.Unmarshal into a struct,
// in place.
type field = jsonscan.Field

// at is the field called name, decoded into dst.
func at(name string, dst any) field { return field{Name: name, Dst: dst} }

func decodeFields(raw []byte, fs ...field) error { return jsonscan.UnmarshalFields(raw, fs...) }

func memberName(rawKey []byte) string { return jsonscan.MemberName(rawKey) }

// members is the members of a JSON object, by name (nil when raw is not
// one): json.Unmarshal into a map, the values in place.
func members(raw json.RawMessage) map[string]json.RawMessage {
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	m := map[string]json.RawMessage{}
	_ = jsonscan.EachMember(raw, func(_, rawKey, value []byte) error {
		m[memberName(rawKey)] = value
		return nil
	})
	return m
}

// array is the elements of a JSON array (nil when raw is not one), in
// place.
func array(raw json.RawMessage) []json.RawMessage {
	if len(raw) == 0 || raw[0] != '[' {
		return nil
	}
	a := []json.RawMessage{}
	_ = jsonscan.EachElement(raw, func(v []byte) error {
		a = append(a, v)
		return nil
	})
	return a
}

// str is a JSON string's text ("" when raw is not a string).
func str(raw json.RawMessage) string {
	if s, ok := jsonscan.PlainString(raw); ok {
		return s
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}
