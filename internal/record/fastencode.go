package record

import (
	"encoding/base64"
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// The common entries (a line sent, received or discarded, stderr, notes,
// exits, the end) are written here field by field, without reflection: a
// tap encodes one for every line it shows, and json.Marshal was most of
// what that cost. The output is byte for byte what json.Marshal writes for
// the same entry (entry's tags, encoding/json's number and string
// formats): fastencode_test.go compares the two over many entries and
// FuzzFastEncode over any.

// plain reports whether e has only fields appendEntry writes; the others
// (a ready entry's server, capabilities and negotiation, a failed entry's
// stopped) go through json.Marshal.
func (e *entry) plain() bool {
	return e.Server == nil && e.Capabilities == nil && e.Negotiation == nil && e.GaveUp == nil && !e.Stopped
}

// writeEntry is encode for a plain entry, without reflection: t and ms
// are its Time and Ms, content as in encode, embed whether it is "msg".
func writeEntry(t time.Time, ms float64, e entry, content []byte, present, embed bool) []byte {
	b := make([]byte, 0, entrySizeHint(&e, content, present, embed))
	switch {
	case present && embed:
		b = appendEntry(b, t, ms, &e, e.textOr(), e.Text != nil, e.B64)
		b = append(b, `,"msg":`...)
		b = append(b, content...)
	case present && utf8.Valid(content):
		b = appendEntry(b, t, ms, &e, content, true, e.B64)
	case present:
		b = appendEntry(b, t, ms, &e, e.textOr(), e.Text != nil, content)
	default:
		b = appendEntry(b, t, ms, &e, e.textOr(), e.Text != nil, e.B64)
	}
	return append(b, '}', '\n')
}

// textOr is e's text, or "" without one.
func (e *entry) textOr() string {
	if e.Text == nil {
		return ""
	}
	return *e.Text
}

// entrySizeHint is room for the encoded entry, so that it is allocated
// once: its fields and its content, escaped text growing a little or b64
// by a third (a longer one grows the buffer as it goes).
func entrySizeHint(e *entry, content []byte, present, embed bool) int {
	n := 160 + len(e.Type) + len(e.Reason) + len(e.Mark) + len(e.Error) + len(e.textOr()) + len(e.B64)*4/3
	switch {
	case embed:
		n += len(content)
	case present:
		n += len(content) + len(content)/3
	}
	return n
}

// appendEntry appends e at t, ms after the start, as json.Marshal writes
// it once encode has set its Time and Ms, but without the closing brace,
// so that "msg" can follow. text (when hasText) and b64 (when not empty)
// are its "text" and "b64" in place of e's: a []byte or a string, written
// without being copied first.
func appendEntry[Text []byte | string](b []byte, t time.Time, ms float64, e *entry, text Text, hasText bool, b64 []byte) []byte {
	b = append(b, `{"type":`...)
	b = appendJSONString(b, e.Type)
	b = append(b, `,"t":`...)
	var stamp [64]byte
	b = appendJSONString(b, t.AppendFormat(stamp[:0], time.RFC3339Nano))
	b = append(b, `,"ms":`...)
	b = appendJSONFloat(b, ms)
	if e.Size != 0 {
		b = append(b, `,"size":`...)
		b = strconv.AppendInt(b, int64(e.Size), 10)
	}
	if e.Reason != "" {
		b = append(b, `,"reason":`...)
		b = appendJSONString(b, e.Reason)
	}
	if e.Mark != "" {
		b = append(b, `,"mark":`...)
		b = appendJSONString(b, e.Mark)
	}
	if e.Withheld {
		b = append(b, `,"withheld":true`...)
	}
	if e.Status != nil {
		b = append(b, `,"status":`...)
		b = appendJSONString(b, *e.Status)
	}
	if e.Error != "" {
		b = append(b, `,"error":`...)
		b = appendJSONString(b, e.Error)
	}
	if e.Count != 0 {
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, int64(e.Count), 10)
	}
	if e.Protocol != "" {
		b = append(b, `,"protocol":`...)
		b = appendJSONString(b, e.Protocol)
	}
	if e.PID != 0 {
		b = append(b, `,"pid":`...)
		b = strconv.AppendInt(b, int64(e.PID), 10)
	}
	if e.Instructions != "" {
		b = append(b, `,"instructions":`...)
		b = appendJSONString(b, e.Instructions)
	}
	if hasText {
		b = append(b, `,"text":`...)
		b = appendJSONString(b, text)
	}
	if len(b64) > 0 {
		b = append(b, `,"b64":"`...)
		b = base64.StdEncoding.AppendEncode(b, b64)
		b = append(b, '"')
	}
	return b
}

// appendJSONFloat appends f as encoding/json writes a float64 (f is
// finite: ms always is).
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// encoding/json writes e-9, not e-09.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// jsonHex is the digits of encoding/json's \u escapes.
const jsonHex = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json.Marshal writes a
// string: <, > and & escaped for HTML, \b \f \n \r \t and the other
// control characters escaped, invalid UTF-8 as \ufffd, U+2028 and U+2029
// escaped; strconv.AppendQuote's Go syntax is not JSON.
func appendJSONString[S []byte | string](b []byte, s S) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', jsonHex[c>>4], jsonHex[c&0xF])
			}
			i++
			start = i
			continue
		}
		// A few bytes as a string: no allocation (as in encoding/json).
		r, size := utf8.DecodeRuneInString(string(s[i : i+min(len(s)-i, utf8.UTFMax)]))
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', jsonHex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
