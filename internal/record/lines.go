package record

import (
	"bufio"
	"errors"
	"io"

	"github.com/mcptui/mcptui/internal/protocol"
)

// DefaultMaxLineBytes is the line limit of conn, and so of the lines a
// recording holds and of what replay --serve reads from its client.
const DefaultMaxLineBytes = protocol.MaxLineBytes

// ErrLineTooLong is what LineReader.Next returns for a line over its limit.
var ErrLineTooLong = errors.New("line longer than the limit")

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
// streams by (and its size counted), never held.
type LineReader struct {
	br  *bufio.Reader
	max int
	// StopOverLong makes Next return ErrLineTooLong as soon as a line
	// passes the limit, without reading to its end (which may never come:
	// /dev/zero); the reader is not to be used after that.
	StopOverLong bool
}

// NewLineReader reads lines of at most max bytes from r.
func NewLineReader(r io.Reader, max int) *LineReader {
	return &LineReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// Next returns the next line without its newline (and a carriage return
// before it), which the caller owns, and the bytes it had. A line over the
// limit comes back nil, with its full size and ErrLineTooLong; the one
// after it is read next. At the end of the input Next returns io.EOF (a
// last line without a newline comes first); other read errors as they are.
func (lr *LineReader) Next() ([]byte, int, error) {
	var acc []byte
	size, over := 0, false
	for {
		chunk, err := lr.br.ReadSlice('\n')
		complete := err == nil
		if complete {
			chunk = chunk[:len(chunk)-1]
		}
		size += len(chunk)
		if !over {
			if size > lr.max+1 { // one byte of slack for a '\r'
				if lr.StopOverLong {
					return nil, size, ErrLineTooLong
				}
				over, acc = true, nil
			} else {
				acc = appendDoubling(acc, chunk, lr.max+1)
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
		if n := len(acc); n > 0 && acc[n-1] == '\r' {
			acc = acc[:n-1]
		}
		if over || len(acc) > lr.max {
			return nil, size, ErrLineTooLong
		}
		if acc == nil {
			acc = []byte{}
		}
		return acc, size, nil
	}
}

// appendDoubling appends src to dst, doubling its capacity when it must
// grow, but never past limit (the most a line may hold).
func appendDoubling(dst, src []byte, limit int) []byte {
	if need := len(dst) + len(src); need > cap(dst) {
		grown := make([]byte, len(dst), min(max(need, 2*cap(dst)), max(need, limit)))
		copy(grown, dst)
		dst = grown
	}
	return append(dst, src...)
}
