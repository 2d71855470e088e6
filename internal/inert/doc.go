// Package inert makes untrusted text safe to draw in a terminal.
//
// Everything an MCP server sends (names, descriptions, log lines, stderr,
// JSON strings) may carry control characters and escape sequences that would
// move the cursor, clear the screen, set the window title, write the
// clipboard (OSC 52) or forge hyperlinks (OSC 8). The functions here replace
// every such character with a visible, printable spelling, so the sequence
// is shown rather than interpreted:
//
//	ESC [ 2 J   →   \x1b[2J
//	U+202E      →   \u202e
//	byte 0x9b   →   \x9b   (invalid UTF-8)
//
// What is escaped: C0 controls (U+0000–U+001F, including ESC, BEL, CR and,
// in Line, LF and TAB), DEL, C1 controls (U+0080–U+009F, among them CSI and
// OSC as single code points), every byte that is not valid UTF-8, and the
// invisible format characters that can disguise text: bidi embeddings,
// overrides and isolates, marks, zero-width space, word joiner and other
// invisible operators, the byte order mark, interlinear annotation, Unicode
// tag characters (used to smuggle hidden text), and the line and paragraph
// separators. Zero-width joiner and non-joiner stay, because emoji sequences
// and several scripts need them; variation selectors stay too, except in a
// grapheme cluster whose width terminals disagree on: measured as one
// cluster (mode 2027) and code point by code point (wcwidth, as tmux 3.3
// draws), an emoji ZWJ sequence, VS16 after a text-default character, a
// skin tone or a spacing mark differ, so the cluster keeps its first
// character and its next code point is spelled (👨\u200d👩\u200d👧,
// ❤\ufe0f, ก\u0e33). Every string Line returns is as wide both ways.
//
// A backslash is left as it is, so a server can write text that looks like
// an escape; callers that must tell the two apart use Styled, which marks
// each escape.
//
// The width helpers measure in terminal cells (grapheme aware, through
// github.com/charmbracelet/x/ansi) and only look at as much of the input as
// the requested width needs, so a 16 MiB line costs no more than a short one.
//
// WriteJSON and EscapeJSON write a JSON value with the same characters
// escaped inside its strings as \u escapes, so it stays valid JSON with the
// same meaning.
package inert
