package record

import (
	"io"

	"github.com/mcptui/mcptui/internal/lines"
	"github.com/mcptui/mcptui/internal/protocol"
)

// DefaultMaxLineBytes is the line limit of conn, and so of the lines a
// recording holds and of what replay --serve reads from its client.
const DefaultMaxLineBytes = protocol.MaxLineBytes

// ErrLineTooLong is what a LineReader's Next returns for a line over its
// limit.
var ErrLineTooLong = lines.ErrTooLong

// MaxEntryBytes is the longest recording line read for a wire line limit
// of maxLine (0: the default): twice it and 64 KiB, room for a line at the
// limit as "msg", "text" (escaped) or "b64" and the entry around it.
func MaxEntryBytes(maxLine int) int {
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	return 2*maxLine + 64<<10
}

// LineReader reads newline-terminated lines of at most a limit, in memory
// bounded by the limit whatever the input: a longer line is skipped as it
// streams by (and its size counted), never held. It is conn's reader.
type LineReader = lines.Reader

// NewLineReader reads lines of at most max bytes from r.
func NewLineReader(r io.Reader, max int) *LineReader { return lines.NewReader(r, max) }
