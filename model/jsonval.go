package model

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/mcptui/mcptui/internal/jsonscan"
)

// members returns, for each wanted name of the JSON object raw, the bytes of
// its value as a sub-slice of raw (no copy). Values of other members are
// skipped, not decoded. ok is false when raw is not an object. Hot paths
// call jsonscan.Fields with an array of their own instead: it allocates
// nothing.
func members(raw []byte, want ...string) (vals [][]byte, ok bool) {
	vals = make([][]byte, len(want))
	return vals, jsonscan.Fields(raw, vals, want...)
}

// eachElement calls fn with each element of the JSON array raw (a
// sub-slice, no copy) until fn returns false.
func eachElement(raw []byte, fn func(el []byte) bool) {
	if kind(raw) != '[' {
		return
	}
	dec := jsonscan.GetDecoder(raw)
	defer jsonscan.PutDecoder(dec)
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '[' {
		return
	}
	for dec.PeekKind() != ']' && dec.PeekKind() != 0 {
		start := dec.InputOffset()
		if err := dec.SkipValue(); err != nil {
			return
		}
		if !fn(trimValue(raw[start:dec.InputOffset()])) {
			return
		}
	}
}

// member is members for one name.
func member(raw []byte, name string) []byte {
	v, _ := members(raw, name)
	return v[0]
}

// trimValue drops the separator and whitespace before a value.
func trimValue(b []byte) []byte {
	return bytes.TrimLeft(b, " \t\r\n:,")
}

// str decodes a JSON string.
func str(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	// Most strings have no escapes: take them as they are.
	if inner := raw[1 : len(raw)-1]; raw[len(raw)-1] == '"' && bytes.IndexByte(inner, '\\') < 0 && bytes.IndexByte(inner, '"') < 0 && utf8.Valid(inner) && !hasControl(inner) {
		return string(inner), true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// hasControl reports whether b holds a byte JSON forbids raw in a string.
func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

// num decodes a JSON number.
func num(raw []byte) (float64, bool) {
	f, err := strconv.ParseFloat(string(raw), 64)
	return f, err == nil
}

// kind is the JSON kind of raw: '{', '[', '"', '0', 'n', 't', 'f', or 0 when
// absent or invalid.
func kind(raw []byte) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	switch c := raw[0]; {
	case c == '{' || c == '[' || c == '"' || c == 'n' || c == 't' || c == 'f':
		return c
	case c == '-' || (c >= '0' && c <= '9'):
		return '0'
	}
	return 0
}

// clone copies raw so it outlives the buffer it came from; nil stays nil.
func clone(raw []byte) json.RawMessage {
	if raw == nil {
		return nil
	}
	return bytes.Clone(raw)
}

// eachMember calls fn for each member of the JSON object raw, in order,
// with the value's bytes as a sub-slice of raw. It reports false when raw is
// not an object.
func eachMember(raw []byte, fn func(name string, val []byte)) bool {
	if kind(raw) != '{' {
		return false
	}
	dec := jsonscan.GetDecoder(raw)
	defer jsonscan.PutDecoder(dec)
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return false
	}
	for dec.PeekKind() == '"' {
		tok, err := dec.ReadToken()
		if err != nil {
			return false
		}
		name := tok.String() // the token is only valid until the next read
		start := dec.InputOffset()
		if err := dec.SkipValue(); err != nil {
			return false
		}
		fn(name, trimValue(raw[start:dec.InputOffset()]))
	}
	return true
}
