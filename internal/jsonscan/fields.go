package jsonscan

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// Fields sets vals[i] to the raw value of the member named want[i] of the
// JSON object raw (its first such member), a sub-slice of raw, or nil when
// there is none; other members are skipped, not decoded. Unlike the rest of
// the package it takes any bytes, leniently (duplicate names and invalid
// UTF-8 are allowed, as the inspector shows what a server sent even when it
// is not quite right): every value it passes is checked to be JSON, and it
// reports false, with the values read so far, when a name or a value is
// not; what follows the last whole member (the closing brace, or anything
// else) ends the object. It allocates nothing and reads each byte once, so
// the hot path of every line can afford it; vals must be as long as want.
func Fields(raw []byte, vals [][]byte, want ...string) bool {
	ok, _ := FieldsValid(raw, vals, want...)
	return ok
}

// FieldsValid is Fields, and also reports whether raw is one valid JSON
// object, as Valid would (then whoever reads raw next need not check it
// again); valid is false for an object nested too deep for its pass.
func FieldsValid(raw []byte, vals [][]byte, want ...string) (ok, valid bool) {
	clear(vals)
	i := SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return false, false
	}
	if i = SkipSpace(raw, i+1); i < len(raw) && raw[i] == '}' {
		return true, SkipSpace(raw, i+1) == len(raw)
	}
	var unquoted [64]byte
	for i < len(raw) && raw[i] == '"' {
		end := validString(raw, i)
		if end < 0 {
			return false, false
		}
		name := raw[i+1 : end-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			name, _ = jsontext.AppendUnquote(unquoted[:0], raw[i:end])
		}
		i = SkipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return false, false
		}
		start := SkipSpace(raw, i+1)
		end = validValue(raw, start, 0)
		if end == tooDeep {
			return fieldsDecoded(raw, vals, want...), false
		}
		if end < 0 {
			return false, false
		}
		for k, w := range want {
			if w == string(name) && vals[k] == nil {
				vals[k] = raw[start:end]
				break
			}
		}
		i = SkipSpace(raw, end)
		if i >= len(raw) || raw[i] != ',' {
			return true, i < len(raw) && raw[i] == '}' && SkipSpace(raw, i+1) == len(raw)
		}
		i = SkipSpace(raw, i+1)
	}
	return true, false // a ',' not followed by a member, or no member at all
}

// tooDeep is validValue's answer for values nested past maxDepth, which
// Fields leaves to the decoder.
const (
	tooDeep  = -2
	maxDepth = 64
)

// validValue returns the index just past the JSON value starting at b[i],
// -1 when there is none, or tooDeep.
func validValue(b []byte, i, depth int) int {
	if i >= len(b) {
		return -1
	}
	switch c := b[i]; {
	case c == '"':
		return validString(b, i)
	case c == '{' || c == '[':
		if depth == maxDepth {
			return tooDeep
		}
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		i = SkipSpace(b, i+1)
		if i < len(b) && b[i] == closing {
			return i + 1
		}
		for {
			if c == '{' {
				if i = validString(b, i); i < 0 {
					return -1
				}
				if i = SkipSpace(b, i); i >= len(b) || b[i] != ':' {
					return -1
				}
				i = SkipSpace(b, i+1)
			}
			if i = validValue(b, i, depth+1); i < 0 {
				return i
			}
			if i = SkipSpace(b, i); i >= len(b) {
				return -1
			}
			switch b[i] {
			case ',':
				i = SkipSpace(b, i+1)
			case closing:
				return i + 1
			default:
				return -1
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		return validNumber(b, i)
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	}
	return -1
}

// validString returns the index just past the string literal starting at
// b[i], or -1 when it is not one (unclosed, a raw control byte, a bad
// escape). Invalid UTF-8 passes.
func validString(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for i++; i < len(b); i++ {
		i = plainRun(b, i)
		if i >= len(b) {
			break
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			if i++; i >= len(b) {
				return -1
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) || !isHex(b[i+1]) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) {
					return -1
				}
				i += 4
			default:
				return -1
			}
		}
	}
	return -1
}

// plainRun returns the index of the first byte at or after i that ends
// or escapes a string, or is a raw control byte — eight bytes at a time
// (every line of a flood is mostly strings) — or len(b) when there is none.
func plainRun(b []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		quote, slash := x^(ones*'"'), x^(ones*'\\')
		// A byte of quote or slash is zero where x has that byte; a byte
		// of x below 0x20 borrows in x - 0x20 and has its high bit clear.
		special := (quote-ones) & ^quote | (slash-ones) & ^slash | (x-ones*0x20) & ^x
		if special&highs != 0 {
			return i + bits.TrailingZeros64(special&highs)/8
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return i
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// validNumber returns the index just past the number starting at b[i], or
// -1 when it is not one.
func validNumber(b []byte, i int) int {
	digits := func(i int) int {
		j := i
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	default:
		if i = digits(i); i < 0 {
			return -1
		}
	}
	if i < len(b) && b[i] == '.' {
		if i = digits(i + 1); i < 0 {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i = digits(i); i < 0 {
			return -1
		}
	}
	return i
}

// literal returns the index just past word at b[i], or -1.
func literal(b []byte, i int, word string) int {
	if !bytes.HasPrefix(b[i:], []byte(word)) {
		return -1
	}
	return i + len(word)
}

// fieldsDecoded is Fields by the decoder, for values nested too deep for
// validValue's recursion.
func fieldsDecoded(raw []byte, vals [][]byte, want ...string) bool {
	clear(vals)
	i := SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return false
	}
	dec := GetDecoder(raw)
	defer PutDecoder(dec)
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return false
	}
	var unquoted [64]byte
	for dec.PeekKind() == '"' {
		key, err := dec.ReadValue()
		if err != nil {
			return false
		}
		name := key[1 : len(key)-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			name, _ = jsontext.AppendUnquote(unquoted[:0], key)
		}
		idx := -1
		for k, w := range want {
			if w == string(name) && vals[k] == nil {
				idx = k
				break
			}
		}
		start := dec.InputOffset()
		if err := dec.SkipValue(); err != nil {
			return false
		}
		if idx >= 0 {
			vals[idx] = bytes.TrimLeft(raw[start:dec.InputOffset()], " \t\r\n:,")
		}
	}
	return true
}

// lenient decoding: duplicate names and invalid UTF-8 are read, not refused.
// It is never written after init.
var lenient = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// Lenient are the options of a decoder that reads duplicate names and
// invalid UTF-8 rather than refusing them (what an inspector shows). The
// caller must not change the slice.
func Lenient() []jsontext.Options { return lenient }

// decoders are reused: a flood parses several values per line.
var decoders = sync.Pool{New: func() any { return &Decoder{} }}

// Decoder is a pooled lenient jsontext.Decoder over a byte slice.
type Decoder struct {
	jsontext.Decoder
	r bytes.Reader
}

// GetDecoder is a lenient decoder reading raw; give it back with
// PutDecoder.
func GetDecoder(raw []byte) *Decoder {
	d := decoders.Get().(*Decoder)
	d.r.Reset(raw)
	d.Reset(&d.r, lenient...)
	return d
}

// PutDecoder returns a decoder to the pool.
func PutDecoder(d *Decoder) {
	d.r.Reset(nil)
	d.Reset(&d.r)
	decoders.Put(d)
}

// Valid reports whether b is exactly one JSON value, with white space
// around it allowed: what encoding/json.Valid reports (neither checks
// UTF-8), in one pass that skips plain string bytes eight at a time. A
// value nested past maxDepth is left to encoding/json.Valid.
func Valid(b []byte) bool {
	end := validValue(b, SkipSpace(b, 0), 0)
	if end == tooDeep {
		return json.Valid(b)
	}
	return end >= 0 && SkipSpace(b, end) == len(b)
}
