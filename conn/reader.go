package conn

import (
	"io"

	"github.com/mcptui/mcptui/internal/lines"
	"github.com/mcptui/mcptui/internal/rpccall"
)

// readBufferSize is how much of stdout is read at once; a line longer than
// this is reassembled in a separate buffer.
const readBufferSize = lines.ReadBufferSize

// errLineTooLong is the reason an over-long line was discarded.
var errLineTooLong = lines.ErrTooLong

// lineReader splits stdout into lines without their newline (and without a
// trailing carriage return). A line longer than the limit is discarded as
// it arrives, so memory stays near the limit plus one read buffer whatever
// the line's length; its head (headBytes) is kept for the observer.
type lineReader = lines.Reader

// headBytes is how much of an over-long line is kept as its head.
const headBytes = rpccall.HeadBytes

func newLineReader(r io.Reader, maxLine int) *lineReader {
	lr := lines.NewReader(r, maxLine)
	lr.KeepHead = headBytes
	return lr
}
