package inert

// JSON that came from an untrusted server, made safe to print on a terminal:
// every character inside a string that a terminal could act on (controls,
// escape introducers, invisible and bidi characters, invalid UTF-8) is
// written as a \u escape. The value means the same to any JSON reader; only
// its spelling changes.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

// WriteJSON writes the JSON value raw and a newline, indented by two spaces (or
// compact), with its strings escaped as EscapeJSON does.
func WriteJSON(w io.Writer, raw []byte, indent bool) error {
	var buf bytes.Buffer
	var err error
	if indent {
		err = json.Indent(&buf, raw, "", "  ")
	} else {
		err = json.Compact(&buf, raw)
	}
	if err != nil {
		return fmt.Errorf("inert: %w", err)
	}
	out := EscapeJSON(buf.Bytes())
	out = append(out, '\n')
	_, err = w.Write(out)
	return err
}

// EscapeJSON rewrites the unsafe characters inside the JSON strings of b (a
// valid JSON text) as \u escapes; invalid UTF-8 becomes \ufffd.
func EscapeJSON(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inString := false
	for i := 0; i < len(b); {
		c := b[i]
		if !inString {
			out = append(out, c)
			if c == '"' {
				inString = true
			}
			i++
			continue
		}
		switch {
		case c == '\\':
			// An escape: copy it whole (\uXXXX or \x).
			n := 2
			if i+1 < len(b) && b[i+1] == 'u' {
				n = 6
			}
			n = min(n, len(b)-i)
			out = append(out, b[i:i+n]...)
			i += n
			continue
		case c == '"':
			inString = false
			out = append(out, c)
			i++
			continue
		case c < utf8.RuneSelf && c >= 0x20 && c != 0x7f:
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			out = append(out, `\ufffd`...)
		case Safe(string(r)):
			out = append(out, b[i:i+size]...)
		default:
			out = appendJSONEscape(out, r)
		}
		i += size
	}
	return out
}

// appendJSONEscape writes r as \uXXXX (a surrogate pair above the BMP).
func appendJSONEscape(out []byte, r rune) []byte {
	if r > 0xffff {
		r -= 0x10000
		out = fmt.Appendf(out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		return out
	}
	return fmt.Appendf(out, `\u%04x`, r)
}
