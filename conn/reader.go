package conn

import (
	"bufio"
	"errors"
	"io"

	"github.com/mcptui/mcptui/internal/rpccall"
)

// readBufferSize is how much of stdout is read at once; a line longer than
// this is reassembled in a separate buffer.
const readBufferSize = 64 << 10

// errLineTooLong is the reason an over-long line was discarded.
var errLineTooLong = errors.New("line longer than the limit")

// lineReader splits a stream into lines without their newline (and without a
// trailing carriage return). A line longer than max is discarded as it
// arrives, so memory stays near max plus one read buffer whatever the line's
// length.
type lineReader struct {
	r   *bufio.Reader
	max int
	acc []byte // the line being reassembled when it spans reads
	// head is the start of the last over-long line (at most headBytes),
	// so that an observer can tell what it was (a response's id).
	head []byte
}

// headBytes is how much of an over-long line is kept as its head.
const headBytes = rpccall.HeadBytes

func newLineReader(r io.Reader, maxLine int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, readBufferSize), max: maxLine}
}

// next returns the next line, which the caller owns, and the number of bytes
// it had on the wire before its newline. An over-long line comes back as a nil
// line, its full size and errLineTooLong. At the end of the stream it returns
// io.EOF (a last line without a newline is returned first); any other read
// error is returned as it is.
func (lr *lineReader) next() ([]byte, int, error) {
	size := 0
	discarding := false
	lr.acc = nil
	for {
		chunk, err := lr.r.ReadSlice('\n')
		complete := err == nil
		if complete {
			chunk = chunk[:len(chunk)-1]
		}
		size += len(chunk)
		if !discarding {
			// One byte of slack: a trailing '\r' is not part of the line.
			if size > lr.max+1 {
				h := append(make([]byte, 0, headBytes), lr.acc[:min(len(lr.acc), headBytes)]...)
				lr.head = append(h, chunk[:min(len(chunk), headBytes-len(h))]...)
				discarding, lr.acc = true, nil
			} else if complete && lr.acc == nil {
				return lr.finish(append(make([]byte, 0, len(chunk)), chunk...), size)
			} else {
				lr.acc = appendCapped(lr.acc, chunk, lr.max+1)
			}
		}
		switch {
		case complete:
		case err == bufio.ErrBufferFull:
			continue
		case size == 0:
			return nil, 0, err
		case err != io.EOF:
			return nil, size, err
		}
		// A complete line, or the last one before EOF.
		if discarding {
			return nil, size, errLineTooLong
		}
		line := lr.acc
		lr.acc = nil
		return lr.finish(line, size)
	}
}

// finish trims the carriage return and applies the limit to what is left.
func (lr *lineReader) finish(line []byte, size int) ([]byte, int, error) {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if len(line) > lr.max {
		lr.head = append([]byte(nil), line[:min(len(line), headBytes)]...)
		return nil, size, errLineTooLong
	}
	return line, size, nil
}

// appendCapped appends src to dst, growing geometrically but never past
// limit, so a line near the limit does not cost twice the limit in memory.
func appendCapped(dst, src []byte, limit int) []byte {
	need := len(dst) + len(src)
	if need > cap(dst) {
		newCap := max(2*cap(dst), need, readBufferSize)
		if newCap > limit {
			newCap = max(limit, need)
		}
		grown := make([]byte, len(dst), newCap)
		copy(grown, dst)
		dst = grown
	}
	return append(dst, src...)
}
