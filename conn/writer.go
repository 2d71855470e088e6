package conn

import (
	"errors"
	"sync"
	"sync/atomic"
	"syscall"
)

// States of an outgoing line.
const (
	lineQueued int32 = iota
	lineTaken
	lineAbandoned
)

// errWriterStopped finishes lines still queued when the connection stops.
var errWriterStopped = errors.New("connection stopped before the line was written")

// outgoing is one line waiting to be written, newline included.
type outgoing struct {
	line  []byte
	state atomic.Int32
	// rest marks the unwritten end of a line whose start went out in a
	// direct write: it is written first, whatever its state, and reported
	// to no one again.
	rest bool
	// done, when not nil, receives the write's outcome (capacity 1).
	done chan error
	// why, on the notifications/cancelled of a call mcptui gave up on,
	// says why: its Sent event's Err.
	why error
}

// abandon takes the line back if the writer has not taken it yet.
func (o *outgoing) abandon() bool { return o.state.CompareAndSwap(lineQueued, lineAbandoned) }

func (o *outgoing) finish(err error) {
	if o.done != nil {
		o.done <- err
	}
}

// writer writes to the server's stdin so that lines never interleave. A line
// sent while nothing else is being written goes out at once from the sending
// goroutine, in a write that never blocks; otherwise, and for whatever such a
// write could not take, the writer goroutine writes the queue, several lines
// in one write when several are waiting. busy is the right to write.
type writer struct {
	c       *Conn
	mu      sync.Mutex
	queue   []*outgoing
	spare   []*outgoing
	wake    chan struct{}
	stopped bool
	busy    bool

	failed bool
	taken  []*outgoing
	buf    []byte

	// The state of a direct write, kept here (only the holder of busy
	// uses it) so that the callback handed to the raw pipe is made once.
	now      nowWrite
	nowWrite func(fd uintptr) bool
}

// nowWrite is one write that must not block.
type nowWrite struct {
	b   []byte
	n   int
	err error
}

// write writes what the pipe takes of b without waiting; it is the callback
// of syscall.RawConn.Write and always reports done.
func (nw *nowWrite) write(fd uintptr) bool {
	for nw.n < len(nw.b) {
		m, err := writeRaw(fd, nw.b[nw.n:])
		if m > 0 {
			nw.n += m
		}
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return true
		case err != nil:
			nw.err = err
			return true
		case m == 0:
			return true
		}
	}
	return true
}

// writeNow writes as much of b as the pipe takes without blocking.
func (w *writer) writeNow(b []byte) (int, error) {
	w.now = nowWrite{b: b}
	err := w.c.rawStdin.Write(w.nowWrite)
	n, werr := w.now.n, w.now.err
	w.now = nowWrite{}
	if err != nil {
		return n, err
	}
	return n, werr
}

// maxKeptBuffer is the largest batch buffer kept between writes.
const maxKeptBuffer = 1 << 20

func (w *writer) init(c *Conn) {
	w.c = c
	w.wake = make(chan struct{}, 1)
	w.nowWrite = w.now.write
}

// enqueue sends o: at once when the pipe is free, else through the queue. It
// reports false when the connection has stopped.
func (w *writer) enqueue(o *outgoing) bool {
	w.mu.Lock()
	if w.stopped {
		w.mu.Unlock()
		return false
	}
	if w.busy || len(w.queue) > 0 || w.failed {
		w.queue = append(w.queue, o)
		w.mu.Unlock()
		w.signal()
		return true
	}
	w.busy = true
	w.mu.Unlock()
	w.direct(o)
	return true
}

func (w *writer) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// direct writes o from the calling goroutine without blocking; what the pipe
// does not take goes to the front of the queue for the writer goroutine.
func (w *writer) direct(o *outgoing) {
	o.state.Store(lineTaken)
	w.c.observe(Sent, o.line[:len(o.line)-1], len(o.line)-1, o.why)
	n, err := w.writeNow(o.line)
	var rest *outgoing
	if err == nil && n < len(o.line) {
		rest = &outgoing{line: o.line[n:], done: o.done, rest: true}
		rest.state.Store(lineTaken)
	}
	w.mu.Lock()
	w.busy = false
	if rest != nil {
		w.queue = append([]*outgoing{rest}, w.queue...)
	}
	if err != nil && !w.failed {
		w.failed = true
		w.mu.Unlock()
		o.finish(err)
		w.c.writeFailed(err)
		w.signal()
		return
	}
	pending := len(w.queue) > 0
	w.mu.Unlock()
	if rest == nil {
		o.finish(nil)
	}
	if pending {
		w.signal()
	}
}

// stop makes the writer finish what is queued with errWriterStopped and exit.
func (w *writer) stop() {
	w.mu.Lock()
	w.stopped = true
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *writer) loop() {
	for {
		w.mu.Lock()
		for (len(w.queue) == 0 || w.busy) && !w.stopped {
			w.mu.Unlock()
			<-w.wake
			w.mu.Lock()
		}
		if w.stopped {
			queue := w.queue
			w.queue = nil
			w.mu.Unlock()
			for _, o := range queue {
				o.finish(errWriterStopped)
			}
			return
		}
		batch := w.queue
		w.queue, w.spare = w.spare[:0], nil
		w.busy = true
		w.mu.Unlock()

		w.write(batch)

		clear(batch)
		w.mu.Lock()
		w.spare = batch[:0]
		w.busy = false
		w.mu.Unlock()
	}
}

// write writes the batch's lines that were not abandoned, in one write when
// there are several, and reports each.
func (w *writer) write(batch []*outgoing) {
	taken := w.taken[:0]
	for _, o := range batch {
		if o.rest || o.state.CompareAndSwap(lineQueued, lineTaken) {
			taken = append(taken, o)
		}
	}
	if !w.failed {
		// Report before writing: the server may answer before Write
		// returns, and the Observer must see a request before its response
		// (wire order).
		for _, o := range taken {
			if !o.rest {
				w.c.observe(Sent, o.line[:len(o.line)-1], len(o.line)-1, o.why)
			}
		}
	}
	var err error
	switch {
	case len(taken) == 0:
	case w.failed:
		err = errWriterStopped
	case len(taken) == 1:
		_, err = w.c.stdin.Write(taken[0].line)
	default:
		buf := w.buf[:0]
		for _, o := range taken {
			buf = append(buf, o.line...)
		}
		_, err = w.c.stdin.Write(buf)
		if cap(buf) <= maxKeptBuffer {
			w.buf = buf[:0]
		} else {
			w.buf = nil
		}
	}
	for _, o := range taken {
		o.finish(err)
	}
	if err != nil && !w.failed {
		w.failed = true
		w.c.writeFailed(err)
	}
	clear(taken)
	w.taken = taken[:0]
}
