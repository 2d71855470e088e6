package inert

import (
	"strings"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// mode says which characters an escaping pass keeps.
type mode int

const (
	modeLine mode = iota // one line: LF and TAB are escaped too
	modeText             // several lines: LF kept, TAB expanded to spaces
)

// Line returns s with every control character, escape sequence introducer,
// dangerous invisible character and invalid UTF-8 byte spelled visibly, so the
// result is one line that a terminal prints as it reads. Newlines and tabs are
// escaped as \n and \t.
func Line(s string) string {
	out, _ := escape(s, modeLine, nil, -1)
	return out
}

// Text is Line for text of several lines: newlines stay, a tab becomes
// spaces up to the next multiple of 8 columns of its line (counted in bytes
// of the escaped text, which is exact for ASCII), and a carriage return
// before a newline is dropped. Everything else is escaped as in Line.
func Text(s string) string {
	out, _ := escape(s, modeText, nil, -1)
	return out
}

// Styled is Line with each escape passed through mark (for example a faint or
// coloured style) so it can be told apart from the same characters typed by
// the server. mark gets the escape's spelling, such as `\x1b`.
func Styled(s string, mark func(string) string) string {
	out, _ := escape(s, modeLine, mark, -1)
	return out
}

// Safe reports whether s would come back from Line unchanged.
func Safe(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return false
		}
		if dangerous(r) {
			return false
		}
		if r >= utf8.RuneSelf && joinsBadly(s[i:]) {
			return false
		}
		if r >= utf8.RuneSelf || i+size < len(s) && s[i+size] >= utf8.RuneSelf {
			c, agree := cluster(s[i:])
			if !agree || !clusterRestSafe(c[size:]) {
				return false
			}
			size = len(c)
		}
		i += size
	}
	return true
}

// clusterRestSafe is Safe for the rest of a grapheme cluster: no rune dangerous, no
// byte invalid (the widths were checked for the whole cluster).
func clusterRestSafe(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || dangerous(r) {
			return false
		}
	}
	return true
}

// Clip returns at most maxBytes bytes of s, cut on a UTF-8 boundary when s is
// valid there. It does not escape; combine it with Line to bound the work
// done on huge input.
func Clip(s string, maxBytes int) string {
	if maxBytes <= 0 {
		return ""
	}
	if len(s) <= maxBytes {
		return s
	}
	cut := maxBytes
	for back := 0; back < utf8.UTFMax && cut > 0 && !utf8.RuneStart(s[cut]); back++ {
		cut--
	}
	if cut == 0 {
		cut = maxBytes
	}
	return s[:cut]
}

// escape does the work of Line, Text and Styled. It stops once it has
// written more than limit bytes of output (limit < 0: no limit) and reports
// whether it read all of s.
func escape(s string, m mode, mark func(string) string, limit int) (string, bool) {
	if m == modeLine && mark == nil && (limit < 0 || len(s) <= limit) && Safe(s) {
		return s, true
	}
	var b strings.Builder
	b.Grow(min(len(s), max(limit, 0)+16) + 16)
	lineStart := 0
	put := func(esc string) {
		if mark != nil {
			esc = mark(esc)
		}
		b.WriteString(esc)
	}
	i := 0
	for i < len(s) {
		if limit >= 0 && b.Len() > limit {
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			put(`\x` + string([]byte{hexDigits[s[i]>>4], hexDigits[s[i]&0xf]}))
		case m == modeText && r == '\n':
			b.WriteByte('\n')
			lineStart = b.Len()
		case m == modeText && r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CRLF: the newline that follows does the work.
		case m == modeText && r == '\t':
			n := 8 - (b.Len()-lineStart)%8
			b.WriteString("        "[:n])
		case dangerous(r):
			put(spell(r))
		case r >= utf8.RuneSelf || i+size < len(s) && s[i+size] >= utf8.RuneSelf:
			size = clusterAt(&b, s[i:], size, put)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String(), i >= len(s)
}

// spell is the visible spelling of one escaped rune.
func spell(r rune) string {
	switch r {
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	}
	if r < 0x100 {
		return `\x` + string([]byte{hexDigits[r>>4], hexDigits[r&0xf]})
	}
	if r < 0x10000 {
		return `\u` + string([]byte{hexDigits[r>>12], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf]})
	}
	out := []byte(`\U`)
	for shift := 28; shift >= 0; shift -= 4 {
		out = append(out, hexDigits[r>>uint(shift)&0xf])
	}
	return string(out)
}

// dangerous reports whether r must not reach a terminal as it is.
func dangerous(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f: // C0 controls, DEL
		return true
	case r < 0x80:
		return false
	case r <= 0x9f: // C1 controls, among them CSI (0x9b) and OSC (0x9d)
		return true
	case r == 0xad: // soft hyphen: invisible
		return true
	case r == 0x061c: // Arabic letter mark
		return true
	case r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0: // Hangul fillers: blank "letters"
		return true
	case r == 0x180e: // Mongolian vowel separator
		return true
	case r == 0x200b: // zero-width space (200C ZWNJ and 200D ZWJ stay)
		return true
	case r == 0x200e || r == 0x200f: // LRM, RLM
		return true
	case r >= 0x2028 && r <= 0x202e: // line/paragraph separators, bidi embeddings and overrides
		return true
	case r >= 0x2060 && r <= 0x206f: // word joiner, invisible operators, bidi isolates, deprecated formats
		return true
	case r == 0xfeff: // byte order mark / zero-width no-break space
		return true
	case r >= 0xfff9 && r <= 0xfffb: // interlinear annotation
		return true
	case r >= 0x1d173 && r <= 0x1d17a: // musical format controls
		return true
	case r >= 0xe0000 && r <= 0xe007f: // tag characters: invisible ASCII
		return true
	}
	return false
}
