package tap

import (
	"bytes"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
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
	seq  uint64 // taken before the bytes were written on
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

	seq atomic.Uint64

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

// stamp is taken before bytes are written on: their time, and their place
// in the feed. The feed orders chunks by it, so that an answer the host
// wrote after reading a line comes after that line even when its pump
// queued it first.
func (f *feed) stamp() (uint64, time.Time) {
	if f == nil {
		return 0, time.Time{}
	}
	return f.seq.Add(1), time.Now()
}

// push queues a copy of relayed bytes, or counts them as not shown.
func (f *feed) push(dir Direction, data []byte, seq uint64, t time.Time) {
	if f == nil {
		return
	}
	f.mu.Lock()
	if f.closed || f.queued+len(data) > maxFeedQueue {
		f.gap[dir] += len(data)
		f.mu.Unlock()
		return
	}
	f.insert(chunk{dir: dir, data: bytes.Clone(data), t: t, seq: seq})
	f.queued += len(data)
	f.mu.Unlock()
	f.signal()
}

// insert queues c in stamp order (it is nearly always the last); f.mu is
// held.
func (f *feed) insert(c chunk) {
	i := len(f.queue)
	for i > 0 && f.queue[i-1].seq > c.seq {
		i--
	}
	f.queue = slices.Insert(f.queue, i, c)
}

// pushLine queues a whole line a breakpoint held, with its mark; it is
// never dropped (the relay was waiting on it anyway).
func (f *feed) pushLine(dir Direction, line []byte, mark string, withheld bool) {
	if f == nil {
		return
	}
	seq, t := f.stamp()
	f.mu.Lock()
	if !f.closed {
		f.insert(chunk{dir: dir, data: bytes.Clone(line), t: t, seq: seq, whole: true, mark: mark, withheld: withheld})
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
		line := bytes.TrimSuffix(c.data, nl)
		f.observe(s.line(line, len(line), len(line) > f.maxLine+1, c.t), c.mark, c.withheld)
		return
	}
	data := c.data
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			s.add(data, f.maxLine)
			return
		}
		if !s.started {
			// The whole line is in this chunk (the feed owns it): no copy.
			f.observe(s.whole(data[:i], c.t, f.maxLine), "", false)
		} else {
			s.add(data[:i], f.maxLine)
			f.observe(s.end(c.t), "", false)
		}
		data = data[i+1:]
	}
}

func (f *feed) observe(ev conn.Event, mark string, withheld bool) {
	if ev.Kind == conn.Discarded && ev.Err == nil {
		ev.Err = fmt.Errorf("line longer than the viewer limit: %d bytes > %d (relayed whole)", ev.Size, f.maxLine)
	}
	f.rec.ObserveMarked(ev, mark, withheld)
}

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

// end is the line that just ended at t. Its Line is the splitter's
// buffer: valid until the next add (the recorder copies what it keeps).
func (s *splitter) end(t time.Time) conn.Event {
	ev := s.line(s.buf, s.size, s.tooLong, t)
	s.reset()
	return ev
}

// whole is a line that began and ended in one chunk.
func (s *splitter) whole(b []byte, t time.Time, maxLine int) conn.Event {
	return s.line(b, len(b), len(b) > maxLine+1, t)
}

// line is the event of a line of size bytes whose content is b (a CR
// before the newline left out).
func (s *splitter) line(b []byte, size int, tooLong bool, t time.Time) conn.Event {
	ev := conn.Event{Time: t, Size: size}
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b, ev.Size = b[:len(b)-1], size-1
	}
	if !tooLong {
		ev.Line = b
	}
	ev.Kind = s.kind(ev.Line, tooLong)
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

// kind is how a line is recorded: "sent" to the server, "received" to the
// host, whatever they hold (what the other side makes of a line that is
// not JSON is up to it; the inspector shows it as invalid); a line to the
// host over the viewer limit is "discarded" with its size.
func (s *splitter) kind(line []byte, tooLong bool) conn.EventKind {
	if s.dir == ToServer {
		return conn.Sent
	}
	if tooLong {
		return conn.Discarded
	}
	return conn.Received
}
