package tap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/record"
)

// maxFeedQueue is how many relayed bytes may wait for the feed; past it
// they are not shown (the viewers are told how many).
const maxFeedQueue = 16 << 20

// DefaultMaxLineBytes is the longest line viewers are shown whole; a longer
// one is shown by its size only. It does not apply to relaying.
const DefaultMaxLineBytes = 16 << 20

// chunk is bytes relayed one way, or one whole line a breakpoint held.
type chunk struct {
	dir  Direction
	data []byte
	t    time.Time
	// whole marks a line a breakpoint held, with what was done to it.
	whole    bool
	mark     string
	withheld bool
}

// feed turns what the pumps relayed into recording entries, off the relay's
// goroutines: the pumps queue copies (bounded), one goroutine splits them
// into lines and hands them to the recorder.
type feed struct {
	rec     *record.Recorder
	maxLine int

	mu     sync.Mutex
	queue  []chunk
	queued int
	gap    [2]int // bytes not queued since the last chunk, per direction
	closed bool
	wake   chan struct{}
	done   chan struct{}

	split [2]splitter // only the feed's goroutine touches them
}

func newFeed(rec *record.Recorder, maxLine int) *feed {
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	f := &feed{rec: rec, maxLine: maxLine, wake: make(chan struct{}, 1), done: make(chan struct{})}
	for d := range f.split {
		f.split[d].dir = Direction(d)
	}
	go f.loop()
	return f
}

// push queues a copy of relayed bytes, or counts them as not shown.
func (f *feed) push(dir Direction, data []byte) {
	if f == nil {
		return
	}
	f.mu.Lock()
	if f.closed || f.queued+len(data) > maxFeedQueue {
		f.gap[dir] += len(data)
		f.mu.Unlock()
		return
	}
	f.queue = append(f.queue, chunk{dir: dir, data: bytes.Clone(data), t: time.Now()})
	f.queued += len(data)
	f.mu.Unlock()
	f.signal()
}

// pushLine queues a whole line a breakpoint held, with its mark; it is
// never dropped (the relay was waiting on it anyway).
func (f *feed) pushLine(dir Direction, line []byte, mark string, withheld bool) {
	if f == nil {
		return
	}
	f.mu.Lock()
	if !f.closed {
		f.queue = append(f.queue, chunk{dir: dir, data: bytes.Clone(line), t: time.Now(), whole: true, mark: mark, withheld: withheld})
		f.queued += len(line)
	}
	f.mu.Unlock()
	f.signal()
}

func (f *feed) signal() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// close feeds what is queued, then the last line of each direction, and
// stops.
func (f *feed) close() {
	if f == nil {
		return
	}
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	f.signal()
	<-f.done
}

func (f *feed) loop() {
	defer close(f.done)
	for range f.wake {
		for {
			f.mu.Lock()
			batch, gap, closed := f.queue, f.gap, f.closed
			f.queue, f.queued, f.gap = nil, 0, [2]int{}
			f.mu.Unlock()
			for d, n := range gap {
				if n > 0 {
					f.split[d].reset()
					f.rec.Note(fmt.Sprintf("the tap's feed fell behind: %d bytes %s not shown (they were relayed)", n, Direction(d).words()))
				}
			}
			for _, c := range batch {
				f.take(c)
			}
			if len(batch) > 0 {
				continue
			}
			if closed {
				for d := range f.split {
					if ev, ok := f.split[d].rest(); ok {
						f.observe(ev, "", false)
					}
				}
				return
			}
			break
		}
	}
}

// take feeds one chunk.
func (f *feed) take(c chunk) {
	s := &f.split[c.dir]
	if c.whole {
		if ev, ok := s.rest(); ok { // cannot happen: holds start at a line's start
			f.observe(ev, "", false)
		}
		line := trimEOL(c.data)
		ev := conn.Event{Time: c.t, Kind: s.kind(line), Line: line, Size: len(line)}
		if len(line) > f.maxLine {
			ev.Line = nil
		}
		f.observe(ev, c.mark, c.withheld)
		return
	}
	data := c.data
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			s.add(data, f.maxLine)
			return
		}
		s.add(data[:i], f.maxLine)
		f.observe(s.end(c.t), "", false)
		data = data[i+1:]
	}
}

func (f *feed) observe(ev conn.Event, mark string, withheld bool) {
	if ev.Kind == conn.Discarded && ev.Err == nil {
		if ev.Line == nil {
			ev.Err = fmt.Errorf("line longer than the viewer limit: %d bytes > %d (relayed whole)", ev.Size, f.maxLine)
		} else {
			ev.Err = errNotJSON
		}
	}
	f.rec.ObserveMarked(ev, mark, withheld)
}

var errNotJSON = errors.New("not JSON (relayed as it was)")

// words is the direction for a sentence.
func (d Direction) words() string {
	if d == ToServer {
		return "to the server"
	}
	return "to the host"
}

// splitter cuts one direction's bytes into lines, keeping at most maxLine
// bytes of each.
type splitter struct {
	dir     Direction
	buf     []byte
	size    int
	tooLong bool
	started bool
}

func (s *splitter) add(p []byte, maxLine int) {
	s.started = true
	s.size += len(p)
	if s.tooLong {
		return
	}
	if len(s.buf)+len(p) > maxLine+1 { // +1: a CR before the newline
		s.tooLong, s.buf = true, nil
		return
	}
	s.buf = append(s.buf, p...)
}

// end is the line that just ended at t.
func (s *splitter) end(t time.Time) conn.Event {
	line := bytes.TrimSuffix(s.buf, []byte{'\r'})
	size := s.size
	if len(line) < len(s.buf) {
		size--
	}
	ev := conn.Event{Time: t, Size: size}
	if !s.tooLong {
		ev.Line = bytes.Clone(line)
	}
	ev.Kind = s.kind(ev.Line)
	if s.tooLong {
		ev.Kind = s.kind(nil)
	}
	s.reset()
	return ev
}

// rest is a last line without newline, if there is one.
func (s *splitter) rest() (conn.Event, bool) {
	if !s.started {
		return conn.Event{}, false
	}
	return s.end(time.Now()), true
}

func (s *splitter) reset() { s.buf, s.size, s.tooLong, s.started = s.buf[:0], 0, false, false }

// kind is how a line is recorded: a line to the server is "sent" whatever
// it is; one to the host is "received" when it is JSON and "discarded"
// otherwise (what the host makes of it is up to the host).
func (s *splitter) kind(line []byte) conn.EventKind {
	if s.dir == ToServer {
		return conn.Sent
	}
	if line == nil || !json.Valid(line) {
		return conn.Discarded
	}
	return conn.Received
}
