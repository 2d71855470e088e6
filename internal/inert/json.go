package inert

// JSON that came from an untrusted server, made safe to print on a terminal:
// every character inside a string that a terminal could act on (controls,
// escape introducers, invisible and bidi characters, invalid UTF-8) is
// written as a \u escape. The value means the same to any JSON reader; only
// its spelling changes.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/mcptui/mcptui/internal/jsonscan"
)

// MaxIndentDepth is how deep WriteJSON indents: members nested deeper are
// written on the line of their container, compact, so that the output stays
// linear in the input however deep it nests (indenting 10,000 levels would
// turn 50 KB into 200 MB).
const MaxIndentDepth = 32

// WriteJSON writes the JSON value raw and a newline, indented by two spaces
// down to MaxIndentDepth (or compact), with its strings escaped as EscapeJSON
// does. It streams: its memory is that of a buffered writer, and its output
// at most a constant times raw's size.
func WriteJSON(w io.Writer, raw []byte, indent bool) error {
	if !json.Valid(raw) {
		var buf bytes.Buffer
		err := json.Compact(&buf, raw)
		// Nesting past encoding/json's limit is still printed (flat):
		// every string is escaped whatever the structure.
		if err == nil || !strings.Contains(err.Error(), "exceeded max depth") {
			return fmt.Errorf("inert: %w", err)
		}
	}
	bw := bufio.NewWriterSize(w, 32<<10)
	writeSpaced(bw, raw, indent)
	bw.WriteByte('\n')
	return bw.Flush()
}

// writeSpaced writes valid JSON without its insignificant whitespace,
// indented when indent is set (see MaxIndentDepth), strings escaped.
func writeSpaced(w *bufio.Writer, raw []byte, indent bool) {
	depth := 0
	newline := func(d int) {
		if !indent || d > MaxIndentDepth {
			return
		}
		w.WriteByte('\n')
		for range min(d, MaxIndentDepth) {
			w.WriteString("  ")
		}
	}
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch c {
		case ' ', '\t', '\r', '\n':
		case '"':
			end := jsonscan.SkipString(raw, i)
			w.Write(EscapeJSON(raw[i:end]))
			i = end - 1
		case '{', '[':
			w.WriteByte(c)
			depth++
			if j := jsonscan.SkipSpace(raw, i+1); j < len(raw) && (raw[j] == '}' || raw[j] == ']') {
				w.WriteByte(raw[j])
				depth--
				i = j
				continue
			}
			newline(depth)
		case '}', ']':
			depth--
			if depth < MaxIndentDepth {
				newline(depth)
			}
			w.WriteByte(c)
		case ',':
			w.WriteByte(c)
			newline(depth)
		case ':':
			w.WriteByte(c)
			if indent && depth <= MaxIndentDepth {
				w.WriteByte(' ')
			}
		default:
			w.WriteByte(c)
		}
	}
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
