// Package lines reads newline-terminated lines of at most a limit, in
// memory bounded by the limit whatever the input: a longer line is
// skipped as it streams by (its size counted, its start kept if asked),
// never held. It is the stdio transport's line reader (conn), shared with
// the recordings, replay and verify, which read the same lines.
package lines

import (
	"bufio"
	"errors"
	"io"
)

// ReadBufferSize is how much of the input is read at once; a line longer
// than this is reassembled in a separate buffer.
const ReadBufferSize = 64 << 10

// ErrTooLong is what Next returns for a line over the limit.
var ErrTooLong = errors.New("line longer than the limit")

// Reader splits a stream into lines without their newline (and without a
// carriage return before it).
type Reader struct {
	r   *bufio.Reader
	max int
	acc []byte // the line being reassembled when it spans reads
	// head is the start of the last over-long line (at most KeepHead).
	head []byte
	// KeepHead is how much of an over-long line's start Head keeps (0:
	// none), so that an observer can tell what it was (a response's id).
	KeepHead int
	// StopOverLong makes Next return ErrTooLong as soon as a line passes
	// the limit, without reading to its end (which may never come:
	// /dev/zero); the reader is not to be used after that.
	StopOverLong bool
}

// NewReader reads lines of at most max bytes from r.
func NewReader(r io.Reader, max int) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, ReadBufferSize), max: max}
}

// Head is the start of the last over-long line Next skipped (at most
// KeepHead bytes; shared: copy it to keep it past the next call).
func (lr *Reader) Head() []byte { return lr.head }

// AtEOF reports whether nothing follows the line just read (the input
// ended, or failed).
func (lr *Reader) AtEOF() bool {
	_, err := lr.r.Peek(1)
	return err != nil
}

// Next returns the next line, which the caller owns, and the number of
// bytes it had before its newline. An over-long line comes back as a nil
// line, its full size and ErrTooLong; the one after it is read next. At
// the end of the input Next returns io.EOF (a last line without a newline
// is returned first); any other read error is returned as it is.
func (lr *Reader) Next() ([]byte, int, error) {
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
				h := append(make([]byte, 0, lr.KeepHead), lr.acc[:min(len(lr.acc), lr.KeepHead)]...)
				lr.head = append(h, chunk[:min(len(chunk), lr.KeepHead-len(h))]...)
				discarding, lr.acc = true, nil
				if lr.StopOverLong {
					return nil, size, ErrTooLong
				}
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
			return nil, size, ErrTooLong
		}
		line := lr.acc
		lr.acc = nil
		return lr.finish(line, size)
	}
}

// finish trims the carriage return and applies the limit to what is left.
func (lr *Reader) finish(line []byte, size int) ([]byte, int, error) {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if len(line) > lr.max {
		lr.head = append([]byte(nil), line[:min(len(line), lr.KeepHead)]...)
		return nil, size, ErrTooLong
	}
	return line, size, nil
}

// appendCapped appends src to dst, growing geometrically but never past
// limit, so a line near the limit does not cost twice the limit in memory.
func appendCapped(dst, src []byte, limit int) []byte {
	need := len(dst) + len(src)
	if need > cap(dst) {
		newCap := max(2*cap(dst), need, ReadBufferSize)
		if newCap > limit {
			newCap = max(limit, need)
		}
		grown := make([]byte, len(dst), newCap)
		copy(grown, dst)
		dst = grown
	}
	return append(dst, src...)
}
