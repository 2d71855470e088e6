package httpconn

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"sync"
)

// sseEvent is one server-sent event.
type sseEvent struct {
	event string // the event field ("" is "message")
	id    string
	hasID bool
	data  []byte // nil when over the limit
	size  int    // bytes of data, even when over the limit
	// head is the start of the data of an event over the limit (at most
	// headBytes), to tell what it was.
	head []byte
	over bool
	// hasData is false for an event of only id or retry fields (it is not
	// a message, but its id and retry still count).
	hasData bool
	retry   int // milliseconds; -1 when absent
}

// sseReader reads events from a text/event-stream body keeping at most max
// bytes of one event's data: a longer event is read to its end and
// discarded, so memory stays bounded whatever the server sends.
type sseReader struct {
	r   *bufio.Reader
	max int
}

// sseBuffers keeps the readers' 32 KiB buffers between streams: every POST
// answered as a stream needs one, and allocating it each time was most of
// a call's garbage.
var sseBuffers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 32<<10) }}

func newSSEReader(r io.Reader, max int) *sseReader {
	br := sseBuffers.Get().(*bufio.Reader)
	br.Reset(r)
	return &sseReader{r: br, max: max}
}

// release gives the buffer back once the stream is done with; the reader
// must not be used after it (the events it returned own their bytes).
func (s *sseReader) release() {
	if s.r == nil {
		return
	}
	s.r.Reset(nil)
	sseBuffers.Put(s.r)
	s.r = nil
}

// line returns the next line without its end, or nil with long=true for a
// line longer than the buffer (its bytes are passed to spill, then dropped).
func (s *sseReader) line(spill func([]byte)) (line []byte, long bool, err error) {
	b, err := s.r.ReadSlice('\n')
	if err == nil || (err == io.EOF && len(b) > 0) {
		return bytes.TrimRight(b, "\r\n"), false, nil
	}
	if err != bufio.ErrBufferFull {
		return nil, false, err
	}
	spill(b)
	for {
		b, err = s.r.ReadSlice('\n')
		switch err {
		case nil:
			spill(bytes.TrimRight(b, "\r\n"))
			return nil, true, nil
		case bufio.ErrBufferFull:
			spill(b)
		default:
			spill(b)
			return nil, true, err
		}
	}
}

// next returns the next event (one with data, an id or a retry), io.EOF at the end of the
// stream.
func (s *sseReader) next() (sseEvent, error) {
	ev := sseEvent{retry: -1}
	var data []byte
	seen := false
	add := func(part []byte) {
		ev.size += len(part)
		if ev.over {
			return
		}
		if len(data)+len(part) > s.max {
			head := make([]byte, 0, headBytes)
			head = append(head, data[:min(len(data), headBytes)]...)
			head = append(head, part[:min(len(part), headBytes-len(head))]...)
			ev.over, ev.head, data = true, head, nil
			return
		}
		if cap(data)-len(data) < len(part) {
			// Double, up to the limit: append's growth of large slices
			// (1.25x) allocated five times a big event's size.
			grown := make([]byte, len(data), len(data)+min(max(len(part), cap(data)), s.max-len(data)))
			copy(grown, data)
			data = grown
		}
		data = append(data, part...)
	}
	for {
		// A line longer than the buffer is a data line or junk; its first
		// bytes say which.
		var head []byte
		longData := false
		line, long, err := s.line(func(b []byte) {
			if head == nil {
				head = append([]byte(nil), b[:min(len(b), 6)]...)
				if bytes.HasPrefix(head, []byte("data:")) {
					longData = true
					if seen {
						add([]byte{'\n'})
					}
					seen = true
					b = bytes.TrimPrefix(b, []byte("data:"))
					b = bytes.TrimPrefix(b, []byte(" "))
				}
			}
			if longData {
				add(b)
			}
		})
		if long {
			if err != nil {
				return ev, err
			}
			continue
		}
		if err != nil {
			if err == io.EOF && seen {
				err = io.ErrUnexpectedEOF // an event without its blank line is not dispatched
			}
			return ev, err
		}
		if len(line) == 0 {
			if seen || ev.hasID || ev.retry >= 0 {
				ev.hasData = seen
				if seen && !ev.over {
					ev.data = data
				}
				return ev, nil
			}
			continue
		}
		if line[0] == ':' {
			continue
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(name) {
		case "data":
			if seen {
				add([]byte{'\n'})
			}
			seen = true
			add(value)
		case "event":
			ev.event = string(value)
		case "id":
			if bytes.IndexByte(value, 0) < 0 {
				ev.id, ev.hasID = string(value), true
			}
		case "retry":
			if n, err := strconv.Atoi(string(value)); err == nil && n >= 0 {
				ev.retry = n
			}
		}
	}
}
