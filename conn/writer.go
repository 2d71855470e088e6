package conn

import (
	"errors"
	"sync"
	"sync/atomic"
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
	// done, when not nil, receives the write's outcome (capacity 1).
	done chan error
}

// abandon takes the line back if the writer has not taken it yet.
func (o *outgoing) abandon() bool { return o.state.CompareAndSwap(lineQueued, lineAbandoned) }

func (o *outgoing) finish(err error) {
	if o.done != nil {
		o.done <- err
	}
}

// writer is the one goroutine that writes to the server's stdin, so lines
// never interleave. Lines queued while a write is under way go out together
// in the next write.
type writer struct {
	c       *Conn
	mu      sync.Mutex
	queue   []*outgoing
	spare   []*outgoing
	wake    chan struct{}
	stopped bool

	failed bool
	taken  []*outgoing
	buf    []byte
}

// maxKeptBuffer is the largest batch buffer kept between writes.
const maxKeptBuffer = 1 << 20

func (w *writer) init(c *Conn) {
	w.c = c
	w.wake = make(chan struct{}, 1)
}

// enqueue queues o; it reports false when the connection has stopped.
func (w *writer) enqueue(o *outgoing) bool {
	w.mu.Lock()
	if w.stopped {
		w.mu.Unlock()
		return false
	}
	w.queue = append(w.queue, o)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return true
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
		for len(w.queue) == 0 && !w.stopped {
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
		w.mu.Unlock()

		w.write(batch)

		clear(batch)
		w.mu.Lock()
		w.spare = batch[:0]
		w.mu.Unlock()
	}
}

// write writes the batch's lines that were not abandoned, in one write when
// there are several, and reports each.
func (w *writer) write(batch []*outgoing) {
	taken := w.taken[:0]
	for _, o := range batch {
		if o.state.CompareAndSwap(lineQueued, lineTaken) {
			taken = append(taken, o)
		}
	}
	if !w.failed {
		// Report before writing: the server may answer before Write
		// returns, and the Observer must see a request before its response
		// (wire order).
		for _, o := range taken {
			w.c.observe(Sent, o.line[:len(o.line)-1], len(o.line)-1, nil)
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
