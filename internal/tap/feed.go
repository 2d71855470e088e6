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

	"github.com/mcptui/mcptui/internal/protocol"
)

// maxFeedQueue is how many relayed bytes may wait for the feed; past it
// they are not shown (the viewers are told how many). The feed holds two
// buffers of this size at most (one filling, one being split).
const maxFeedQueue = 4 << 20

// maxFeedChunks bounds the chunks waiting for the feed (gaps included).
const maxFeedChunks = 1 << 16

// DefaultMaxLineBytes is the longest line viewers are shown whole; a longer
// one is shown by its size only. It does not apply to relaying.
const DefaultMaxLineBytes = protocol.MaxLineBytes

// DefaultFeedRate is how many relayed bytes a second the feed shows
// viewers when the tap does not record (a burst of four times as much, a
// line of the viewer limit, passes whole). MCP traffic stays far below it; a flood past it is relayed in
// full, and the viewers are told how much of it they were not shown, so
// that splitting and encoding it never takes the relay's CPU.
const DefaultFeedRate = 4 << 20

// chunk is bytes relayed one way (its data at off in its batch), bytes not
// shown (gap), or one whole line a breakpoint held.
type chunk struct {
	dir    Direction
	off, n int
	gap    bool
	t      time.Time
	seq    uint64 // taken before the bytes were written on
	// whole marks a line a breakpoint held, with what was done to it.
	whole    bool
	mark     string
	withheld bool
}

// batch is what the pumps queued for the feed: the bytes, one copy, and
// what they are, in stamp order.
type batch struct {
	data   []byte
	chunks []chunk
}

func (b *batch) reset() {
	if cap(b.data) > 2*maxFeedQueue { // a long held line: give it back
		b.data = nil
	}
	b.data, b.chunks = b.data[:0], b.chunks[:0]
}

// feed turns what the pumps relayed into recording entries, off the relay's
// goroutines: the pumps copy the bytes into a bounded batch (reused: no
// allocation a chunk), one goroutine splits them into lines and hands them
// to the recorder.
type feed struct {
	rec     *record.Recorder
	maxLine int
	// observer, when set, also sees every line that went on (Options.Observer).
	observer func(conn.Event)

	seq atomic.Uint64

	mu     sync.Mutex
	fill   batch // the pumps add to it
	spare  batch // the last batch split, emptied, for the next swap
	budget *budget
	closed bool
	wake   chan struct{}
	done   chan struct{}

	split [2]splitter // only the feed's goroutine touches them
}

// newFeed starts a feed; rate is how many bytes a second it shows (0: no
// limit but its queue's).
func newFeed(rec *record.Recorder, maxLine, rate int) *feed {
	if maxLine <= 0 {
		maxLine = DefaultMaxLineBytes
	}
	f := &feed{rec: rec, maxLine: maxLine, wake: make(chan struct{}, 1), done: make(chan struct{})}
	if rate > 0 {
		f.budget = &budget{rate: float64(rate), burst: 4 * float64(rate), tokens: 4 * float64(rate)}
	}
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

// push queues a copy of relayed bytes, or counts them as not shown when
// the queue is full or the feed is over its rate.
func (f *feed) push(dir Direction, data []byte, seq uint64, t time.Time) {
	if f == nil {
		return
	}
	f.mu.Lock()
	switch {
	case f.closed:
	case len(f.fill.data)+len(data) > maxFeedQueue || len(f.fill.chunks) >= maxFeedChunks || !f.budget.take(len(data), t):
		f.gap(dir, len(data), seq, t)
	default:
		f.insert(chunk{dir: dir, off: len(f.fill.data), n: len(data), t: t, seq: seq})
		f.fill.data = append(f.fill.data, data...)
	}
	f.mu.Unlock()
	f.signal()
}

// wants reports whether the feed would take n more bytes relayed at t
// (it is open, its queue has room, they are within its rate): when it
// would not, the pump may relay them without looking at them. A nil feed
// wants nothing.
func (f *feed) wants(n int, t time.Time) bool {
	if f == nil {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return !f.closed && len(f.fill.data)+n <= maxFeedQueue && len(f.fill.chunks) < maxFeedChunks && f.budget.allows(n, t)
}

// skip counts n bytes relayed unseen as not shown.
func (f *feed) skip(dir Direction, n int, seq uint64, t time.Time) {
	if f == nil {
		return
	}
	f.mu.Lock()
	if !f.closed {
		f.gap(dir, n, seq, t)
	}
	f.mu.Unlock()
	f.signal()
}

// gap queues n bytes not shown, merged with a gap just before it; f.mu is
// held.
func (f *feed) gap(dir Direction, n int, seq uint64, t time.Time) {
	if k := len(f.fill.chunks); k > 0 {
		if last := &f.fill.chunks[k-1]; last.gap && last.dir == dir {
			last.n += n
			return
		}
	}
	f.insert(chunk{dir: dir, n: n, gap: true, t: t, seq: seq})
}

// insert queues c in stamp order (it is nearly always the last); f.mu is
// held.
func (f *feed) insert(c chunk) {
	i := len(f.fill.chunks)
	for i > 0 && f.fill.chunks[i-1].seq > c.seq {
		i--
	}
	f.fill.chunks = slices.Insert(f.fill.chunks, i, c)
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
		f.insert(chunk{dir: dir, off: len(f.fill.data), n: len(line), t: t, seq: seq, whole: true, mark: mark, withheld: withheld})
		f.fill.data = append(f.fill.data, line...)
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
			f.pause()
			f.mu.Lock()
			b := f.fill
			f.fill, f.spare = f.spare, batch{}
			closed := f.closed
			f.mu.Unlock()
			for _, c := range b.chunks {
				var data []byte
				if !c.gap {
					data = b.data[c.off : c.off+c.n]
				}
				f.take(c, data)
			}
			more := len(b.chunks) > 0
			b.reset()
			f.mu.Lock()
			f.spare = b
			f.mu.Unlock()
			if more {
				continue
			}
			if closed {
				for d := range f.split {
					f.ended(&f.split[d])
				}
				return
			}
			break
		}
	}
}

// feedPause is how long the feed lets chunks gather before it takes them:
// it wakes once a pause, not once a line, so that a busy relay shares its
// cores with one wake-up of the feed every few milliseconds, not with
// thousands (live enough for anyone watching).
const feedPause = 2 * time.Millisecond

// pause lets the batch fill, unless the feed is closing.
func (f *feed) pause() {
	f.mu.Lock()
	closed := f.closed
	f.mu.Unlock()
	if !closed {
		time.Sleep(feedPause)
	}
}

// ended feeds what a direction has left at the end: a last line without
// newline, or the count of bytes not shown.
func (f *feed) ended(s *splitter) {
	if s.skipped > 0 {
		f.noteGap(s)
		return
	}
	if ev, ok := s.rest(); ok {
		f.observe(ev, "", false)
	}
}

// noteGap tells the viewers how many bytes of a direction they were not
// shown.
func (f *feed) noteGap(s *splitter) {
	why := "fell behind"
	if f.budget != nil {
		why = "shows at most " + perSecond(int(f.budget.rate))
	}
	f.rec.Note(fmt.Sprintf("the tap's feed %s: %d bytes %s not shown (they were relayed)", why, s.skipped, s.dir.words()))
	s.skipped, s.skipping = 0, false
}

// take feeds one chunk; data is its bytes, valid during the call.
func (f *feed) take(c chunk, data []byte) {
	s := &f.split[c.dir]
	if c.gap {
		// What the line in progress had is not shown either, nor the rest
		// of the line the gap ends in.
		s.skipped += c.n + s.size
		s.skipping = true
		s.reset()
		return
	}
	if c.whole {
		if s.skipping {
			f.noteGap(s) // holds start at a line's start: the gap ended before it
		}
		if ev, ok := s.rest(); ok { // cannot happen: holds start at a line's start
			f.observe(ev, "", false)
		}
		line := bytes.TrimSuffix(data, nl)
		f.observe(s.line(line, len(line), len(line) > f.maxLine+1, c.t), c.mark, c.withheld)
		return
	}
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if s.skipping {
			if i < 0 {
				s.skipped += len(data)
				return
			}
			s.skipped += i + 1
			f.noteGap(s)
			data = data[i+1:]
			continue
		}
		if i < 0 {
			s.add(data, f.maxLine)
			return
		}
		if !s.started {
			// The whole line is in this chunk: no copy.
			f.observe(s.whole(data[:i], c.t, f.maxLine), "", false)
		} else {
			s.add(data[:i], f.maxLine)
			f.observe(s.end(c.t), "", false)
		}
		data = data[i+1:]
	}
}

// perSecond is a rate in words.
func perSecond(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%d MiB/s", n>>20)
	}
	return fmt.Sprintf("%d KiB/s", n>>10)
}

// budget is a token bucket of bytes: the feed's rate.
type budget struct {
	rate, burst, tokens float64
	last                time.Time
}

// take reports whether n bytes at t are within the rate, and counts them.
// A nil budget takes everything.
func (b *budget) take(n int, t time.Time) bool {
	if !b.allows(n, t) {
		return false
	}
	if b != nil {
		b.tokens -= float64(n)
	}
	return true
}

// allows reports whether n bytes at t are within the rate, without
// counting them.
func (b *budget) allows(n int, t time.Time) bool {
	if b == nil {
		return true
	}
	if t.After(b.last) {
		if !b.last.IsZero() {
			b.tokens = min(b.burst, b.tokens+t.Sub(b.last).Seconds()*b.rate)
		}
		b.last = t
	}
	return b.tokens >= float64(n)
}

func (f *feed) observe(ev conn.Event, mark string, withheld bool) {
	if ev.Kind == conn.Discarded && ev.Err == nil {
		ev.Err = fmt.Errorf("line longer than the viewer limit: %d bytes > %d (relayed whole)", ev.Size, f.maxLine)
	}
	f.rec.ObserveMarked(ev, mark, withheld)
	if f.observer != nil && !withheld {
		f.observer(ev)
	}
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
	// skipping: bytes were not shown; what follows up to the next newline
	// is not shown either (skipped counts them all, for the note).
	skipping bool
	skipped  int
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
