package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// ErrNotObject is UnmarshalFields' answer for a value json.Unmarshal would
// not decode into a struct.
var ErrNotObject = errors.New("jsonscan: not a JSON object")

// Field is a struct field for UnmarshalFields: its name, as its json tag
// gives it, and where its value goes.
type Field struct {
	Name string
	// Dst is a *json.RawMessage, given the member in place (a sub-slice
	// of the object: copy it to keep it past the object), or any pointer
	// json.Unmarshal decodes the member into.
	Dst any
}

// UnmarshalFields is json.Unmarshal(raw, &s) for a struct s of the fields
// fs, without reading what it skips more than once and without copying
// json.RawMessage members: a member goes to the field whose name it
// matches, exactly or ignoring case (encoding/json's rule; no two fields'
// names may fold to one another), a later member over an earlier one; raw
// null leaves every field as it is. The error is non-nil where
// Unmarshal's would be: raw not an object, or a member that is not of its
// field's type. raw must be valid JSON (Valid): a megabyte result is then
// walked once, by its strings' quotes, rather than checked, decoded and
// copied.
func UnmarshalFields(raw []byte, fs ...Field) error {
	i := SkipSpace(raw, 0)
	if i >= len(raw) {
		return ErrNotObject
	}
	switch raw[i] {
	case 'n':
		return nil
	case '{':
	default:
		return ErrNotObject
	}
	var err error
	_ = EachMember(raw[i:], func(_, rawKey, value []byte) error {
		name := MemberName(rawKey)
		for _, f := range fs {
			if name != f.Name && !bytes.EqualFold([]byte(name), []byte(f.Name)) {
				continue
			}
			if d, ok := f.Dst.(*json.RawMessage); ok {
				*d = value
			} else if e := json.Unmarshal(value, f.Dst); e != nil && err == nil {
				err = e
			}
			break
		}
		return nil
	})
	return err
}

// MemberName is a member's name as encoding/json decodes its raw
// (quoted) key.
func MemberName(rawKey []byte) string {
	if s, ok := PlainString(rawKey); ok {
		return s
	}
	var s string
	_ = json.Unmarshal(rawKey, &s)
	return s
}

// PlainString is the text of a string literal that decodes to its bytes
// as they are (no escape, valid UTF-8): what json.Unmarshal gives it,
// without its passes.
func PlainString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') >= 0 || !utf8.Valid(inner) {
		return "", false
	}
	return string(inner), true
}
