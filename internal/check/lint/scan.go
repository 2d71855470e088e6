package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"

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

// errNotObject is decodeFields' answer for a value json.Unmarshal would
// not decode into a struct.
var errNotObject = errors.New("lint: not a JSON object")

// field is a struct field for decodeFields: its name (as its json tag
// gives it) and where its value goes.
type field struct {
	name string
	// dst is a *json.RawMessage, given the member in place, or any
	// pointer json.Unmarshal decodes the member into.
	dst any
}

// decodeFields is json.Unmarshal(raw, &s) for a struct s of the fields fs:
// a member goes to the field whose name it matches, exactly or ignoring
// case (encoding/json's rule; the fields' names never fold to one
// another), a later member over an earlier one; raw null leaves every
// field as it is. The error is non-nil where Unmarshal's would be: raw not
// an object, or a member that is not of its field's type. raw must be
// valid JSON.
func decodeFields(raw []byte, fs ...field) error {
	i := jsonscan.SkipSpace(raw, 0)
	if i >= len(raw) {
		return errNotObject
	}
	switch raw[i] {
	case 'n':
		return nil
	case '{':
	default:
		return errNotObject
	}
	var err error
	_ = jsonscan.EachMember(raw[i:], func(_, rawKey, value []byte) error {
		name := memberName(rawKey)
		for _, f := range fs {
			if !equalFold(name, f.name) {
				continue
			}
			if d, ok := f.dst.(*json.RawMessage); ok {
				*d = value
			} else if e := json.Unmarshal(value, f.dst); e != nil && err == nil {
				err = e
			}
			break
		}
		return nil
	})
	return err
}

// equalFold is encoding/json's match of a member's name to a field's.
func equalFold(name, field string) bool {
	return name == field || bytes.EqualFold([]byte(name), []byte(field))
}

// memberName is a member's name as encoding/json decodes its key.
func memberName(rawKey []byte) string {
	if s, ok := plainString(rawKey); ok {
		return s
	}
	var s string
	_ = json.Unmarshal(rawKey, &s)
	return s
}

// plainString is the text of a string literal that decodes to its bytes
// as they are (no escape, valid UTF-8): what json.Unmarshal gives, without
// its pass.
func plainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') >= 0 || !utf8.Valid(inner) {
		return "", false
	}
	return string(inner), true
}

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
	if s, ok := plainString(raw); ok {
		return s
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}
