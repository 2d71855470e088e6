// Package jsonscan finds things in JSON text in place, without decoding it:
// the end of a string or a value, the members of an object, the value at a
// path. It is the one JSON scanner of the program; conn's hot path runs on
// it, so it allocates nothing but what Unquote returns.
//
// Every function expects valid JSON: check it first (jsontext.Value.IsValid,
// or encoding/json.Valid for lenient input). On anything else the results
// are unspecified.
package jsonscan

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

// SkipSpace returns the index of the first byte at or after i that is not
// JSON white space (space, tab, newline, carriage return).
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// SkipString returns the index just past the string literal starting at
// b[i] (the opening quote), or len(b) when it is not closed.
func SkipString(b []byte, i int) int {
	for i++; i < len(b); {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return len(b)
		}
		end := i + j
		// The quote is escaped when an odd number of backslashes precede it.
		k := end
		for k > i && b[k-1] == '\\' {
			k--
		}
		if (end-k)%2 == 0 {
			return end + 1
		}
		i = end + 1
	}
	return len(b)
}

// DeeperThan reports whether the arrays and objects of b nest deeper than
// limit. Unlike the rest of the package it takes any bytes: it is how a
// line a parser refused is told to be too deep rather than broken.
func DeeperThan(b []byte, limit int) bool {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = SkipString(b, i) - 1
		case '{', '[':
			if depth++; depth > limit {
				return true
			}
		case '}', ']':
			depth--
		}
	}
	return false
}

// SkipValue returns the index just past the JSON value starting at b[i].
func SkipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return SkipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = SkipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return i
	default:
		for ; i < len(b); i++ {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
		}
		return i
	}
}

// EachMember calls fn with the decoded name, the raw (quoted) key and the
// raw value of each member of obj, a JSON object starting at obj[0], in
// order; it stops at the first error fn returns and returns it. The slices
// share obj's memory (name only when the key has no escapes).
func EachMember(obj []byte, fn func(name, rawKey, value []byte) error) error {
	i := SkipSpace(obj, 1)
	if obj[i] == '}' {
		return nil
	}
	for {
		end := SkipString(obj, i)
		rawKey := obj[i:end]
		name := rawKey[1 : len(rawKey)-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			name = []byte(Unquote(rawKey))
		}
		i = SkipSpace(obj, end)
		i = SkipSpace(obj, i+1) // past ':'
		vend := SkipValue(obj, i)
		if err := fn(name, rawKey, obj[i:vend]); err != nil {
			return err
		}
		i = SkipSpace(obj, vend)
		if obj[i] == '}' {
			return nil
		}
		i = SkipSpace(obj, i+1) // past ','
	}
}

// EachElement calls fn with each element of arr, a JSON array starting at
// arr[0], in order; it stops at the first error fn returns and returns it.
// The elements share arr's memory.
func EachElement(arr []byte, fn func(value []byte) error) error {
	i := SkipSpace(arr, 1)
	if arr[i] == ']' {
		return nil
	}
	for {
		end := SkipValue(arr, i)
		if err := fn(arr[i:end]); err != nil {
			return err
		}
		i = SkipSpace(arr, end)
		if arr[i] == ']' {
			return nil
		}
		i = SkipSpace(arr, i+1) // past ','
	}
}

// Member returns the raw value of the member called key in obj (the last
// one, should the name repeat), or nil when obj is not an object or has no
// such member.
func Member(obj []byte, key string) []byte {
	i := SkipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil
	}
	var found []byte
	_ = EachMember(obj[i:], func(name, _, v []byte) error {
		if string(name) == key {
			found = v
		}
		return nil
	})
	return found
}

// Path returns the span b[start:end] of the value reached from the JSON
// value b through the object members named by path (the first member of a
// name, should it repeat), and whether there is one. An empty path finds
// nothing.
func Path(b []byte, path ...string) (start, end int, ok bool) {
	i := SkipSpace(b, 0)
	for depth, key := range path {
		if i >= len(b) || b[i] != '{' {
			return 0, 0, false
		}
		found := false
		_ = EachMember(b[i:], func(name, _, v []byte) error {
			if string(name) != key {
				return nil
			}
			// v is a slice of b: its offset is what the capacities differ by.
			i = cap(b) - cap(v)
			end = i + len(v)
			found = true
			return errStop
		})
		if !found {
			return 0, 0, false
		}
		if depth == len(path)-1 {
			return i, end, true
		}
	}
	return 0, 0, false
}

// errStop ends an EachMember walk early.
var errStop = stopError{}

type stopError struct{}

func (stopError) Error() string { return "jsonscan: stop" }

// Unquote decodes a JSON string literal; one it cannot decode comes back as
// its text between the quotes.
func Unquote(s []byte) string {
	if bytes.IndexByte(s, '\\') < 0 {
		return string(s[1 : len(s)-1])
	}
	out, err := jsontext.AppendUnquote(nil, s)
	if err != nil {
		return string(s[1 : len(s)-1])
	}
	return string(out)
}
