package tap

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcptui/mcptui/model"
)

// History bounds: a viewer that attaches late gets the session's start (the
// handshake) and its most recent entries.
const (
	maxPrologueBytes = 2 << 20
	maxRecentBytes   = 6 << 20
	// maxViewerQueue is how many bytes of entries may wait for one viewer
	// (an entry alone always fits); past it the viewer skips ahead and is
	// told how many it missed.
	maxViewerQueue = 8 << 20
	// maxRecorderQueue bounds the entries encoded but not yet published.
	maxRecorderQueue = 8 << 20
	// MaxRequestLine bounds a line a viewer sends: what an edit needs, a
	// held line (at most maxHoldLine) as JSON text inside a JSON string,
	// where escaping its quotes and backslashes can double it.
	MaxRequestLine = 2*maxHoldLine + 1<<20
	// maxFirstLine bounds a connection's first line ("info" or "watch":
	// no payload).
	maxFirstLine = 4 << 10
	// bigRequest is the size past which a request line is read only while
	// no other viewer's big one is: one edit at a time is held in memory.
	bigRequest = 64 << 10
	// firstLineWait is how long a new connection has to send its first
	// line before it is dropped.
	firstLineWait = 10 * time.Second
	// bigLineWait bounds the reading of the rest of a big request line.
	bigLineWait = 30 * time.Second
	// maxConns bounds the connections served at once (viewers and
	// queries); one past it is closed at once.
	maxConns = 64
	// Backoff of the accept loop after a failed Accept (out of file
	// descriptors, a connection aborted).
	acceptBackoffMin = 5 * time.Millisecond
	acceptBackoffMax = time.Second
)

// hub publishes the feed (recording entries, written by the recorder) to
// the viewers and keeps their breakpoints. Write never waits for a viewer.
type hub struct {
	info func() Info // the tap's description, for "info"

	mu        sync.Mutex
	partial   []byte // an entry the recorder has not finished writing
	header    []byte
	prologue  [][]byte
	prologueN int
	recent    [][]byte
	recentN   int
	skipped   int // entries dropped from recent
	viewers   map[*viewer]struct{}
	closed    bool

	// Breakpoints: every viewer's filter, and the lines held.
	breaks   map[*viewer]breakpoint
	armedDir [2]atomic.Int32 // viewers armed on each direction
	holds    map[uint64]*held
	nextHold uint64
	joined   atomic.Uint64
	// headed is closed once the header has been published.
	headed chan struct{}

	// Bounds on the connections (see maxConns and the rest; tests lower
	// them): conns is a slot for each connection served, big the one
	// request line past bigRequest being read.
	firstWait time.Duration
	conns     chan struct{}
	big       chan struct{}
	// acceptErrs counts the failed Accepts the loop went on after,
	// bigWaits the big request lines that waited for (or took) h.big.
	acceptErrs atomic.Int64
	bigWaits   atomic.Int64
}

type breakpoint struct {
	filter   model.Filter
	deadline time.Duration
}

// held is a line waiting for its viewer.
type held struct {
	id     uint64
	dir    Direction
	line   []byte
	owner  *viewer
	start  time.Time
	result chan verdict // buffered: the first decision wins
}

func newHub(info func() Info) *hub {
	return &hub{info: info, viewers: map[*viewer]struct{}{}, breaks: map[*viewer]breakpoint{}, holds: map[uint64]*held{}, headed: make(chan struct{}),
		firstWait: firstLineWait, conns: make(chan struct{}, maxConns), big: make(chan struct{}, 1)}
}

// Write takes what the recorder writes: whole entries, or parts of them.
func (h *hub) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	data := p
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			h.partial = append(h.partial, data...)
			break
		}
		var e []byte
		if len(h.partial) > 0 {
			e = append(h.partial, data[:i+1]...)
			h.partial = nil
		} else {
			e = bytes.Clone(data[:i+1])
		}
		data = data[i+1:]
		h.publish(e)
	}
	return len(p), nil
}

// publish keeps an entry for viewers to come and sends it to those here.
func (h *hub) publish(e []byte) {
	switch {
	case h.header == nil:
		h.header = e
		close(h.headed)
	case h.prologueN+len(e) <= maxPrologueBytes && h.recentN == 0:
		h.prologue = append(h.prologue, e)
		h.prologueN += len(e)
	default:
		h.recent = append(h.recent, e)
		h.recentN += len(e)
		for h.recentN > maxRecentBytes && len(h.recent) > 1 {
			h.recentN -= len(h.recent[0])
			h.recent[0] = nil
			h.recent = h.recent[1:]
			h.skipped++
		}
	}
	for v := range h.viewers {
		v.send(e, false)
	}
}

// serve accepts viewers until the listener is closed. A failed Accept (out
// of file descriptors after a burst of connections, one aborted) is tried
// again after a pause that grows to acceptBackoffMax: only a closed
// listener ends the loop. A connection past maxConns is closed at once.
func (h *hub) serve(ln net.Listener) {
	backoff := time.Duration(0)
	for {
		c, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			h.acceptErrs.Add(1)
			backoff = min(max(2*backoff, acceptBackoffMin), acceptBackoffMax)
			time.Sleep(backoff)
			continue
		}
		backoff = 0
		select {
		case h.conns <- struct{}{}:
		default:
			_ = c.Close()
			continue
		}
		go func() {
			defer func() { <-h.conns }()
			h.handle(c)
		}()
	}
}

// handle runs one viewer's connection.
func (h *hub) handle(c net.Conn) {
	defer c.Close()
	if err := checkPeer(c); err != nil {
		return
	}
	r := bufio.NewReaderSize(c, 4<<10)
	_ = c.SetReadDeadline(time.Now().Add(h.firstWait))
	first, release, err := h.readRequest(c, r, maxFirstLine)
	release() // a first line is never big
	if err != nil {
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	switch first.Op {
	case OpInfo:
		b, _ := json.Marshal(h.info())
		_ = c.SetWriteDeadline(time.Now().Add(5 * time.Second))
		_, _ = c.Write(append(b, '\n'))
		return
	case OpWatch:
	default:
		return
	}
	select {
	case <-h.headed:
	case <-time.After(10 * time.Second):
		return
	}
	v := newViewer(c, h.joined.Add(1))
	if !h.join(v) {
		return
	}
	go v.writeLoop()
	defer h.leave(v)
	for {
		req, release, err := h.readRequest(c, r, MaxRequestLine)
		if err != nil {
			return
		}
		switch req.Op {
		case OpBreak:
			h.arm(v, req)
		case OpResolve:
			h.resolve(v, req)
		}
		release()
	}
}

// readRequest reads one request line of at most limit bytes. A line past
// bigRequest is read, and the request handled, only while holding h.big
// (release gives it back), so that however many viewers send big lines at
// once, one is in memory at a time; the rest of such a line must come
// within bigLineWait, so that a slow sender does not keep the others
// waiting.
func (h *hub) readRequest(c net.Conn, r *bufio.Reader, limit int) (req Request, release func(), err error) {
	var line []byte
	holding := false
	release = func() {
		if holding {
			holding = false
			<-h.big
		}
	}
	defer func() {
		if err != nil {
			release()
		}
	}()
	for {
		part, isPrefix, err := r.ReadLine()
		if err != nil {
			return Request{}, release, err
		}
		if len(line)+len(part) > limit {
			return Request{}, release, fmt.Errorf("tap: viewer request over %d bytes", limit)
		}
		if !holding && len(line)+len(part) > bigRequest {
			h.bigWaits.Add(1)
			h.big <- struct{}{}
			holding = true
			_ = c.SetReadDeadline(time.Now().Add(bigLineWait))
			defer func() { _ = c.SetReadDeadline(time.Time{}) }()
		}
		line = append(line, part...)
		if !isPrefix {
			break
		}
	}
	if err := json.Unmarshal(line, &req); err != nil {
		return Request{}, release, fmt.Errorf("tap: viewer request: %w", err)
	}
	return req, release, nil
}

// join gives a new viewer the history and adds it to the audience, in one
// step so that no entry is missed or sent twice.
func (h *hub) join(v *viewer) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed || h.header == nil {
		return false
	}
	v.send(h.header, true)
	for _, e := range h.prologue {
		v.send(e, true)
	}
	if h.skipped > 0 {
		v.send(lostEntry(h.skipped), true)
	}
	for _, e := range h.recent {
		v.send(e, true)
	}
	h.viewers[v] = struct{}{}
	return true
}

// leave removes a viewer: its breakpoints go, its holds go on unchanged.
func (h *hub) leave(v *viewer) {
	h.mu.Lock()
	delete(h.viewers, v)
	h.disarm(v)
	var mine []*held
	for _, hd := range h.holds {
		if hd.owner == v {
			mine = append(mine, hd)
		}
	}
	h.mu.Unlock()
	for _, hd := range mine {
		h.decide(hd, verdict{mark: "held by a breakpoint; the viewer left: forwarded unchanged"})
	}
	v.close()
}

// close ends every viewer and lets every hold go on.
func (h *hub) close() {
	h.mu.Lock()
	h.closed = true
	vs := make([]*viewer, 0, len(h.viewers))
	for v := range h.viewers {
		vs = append(vs, v)
	}
	holds := make([]*held, 0, len(h.holds))
	for _, hd := range h.holds {
		holds = append(holds, hd)
	}
	h.mu.Unlock()
	for _, hd := range holds {
		h.decide(hd, verdict{mark: "held by a breakpoint; the tap is stopping: forwarded unchanged"})
	}
	for _, v := range vs {
		v.finish()
	}
}

// viewerCount is how many viewers are watching.
func (h *hub) viewerCount() (viewers, holds int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.viewers), len(h.holds)
}

// lostEntry is a recording "lost" entry: count entries a viewer did not
// get.
func lostEntry(count int) []byte {
	b, _ := json.Marshal(struct {
		Type  string `json:"type"`
		Time  string `json:"t"`
		Count int    `json:"count"`
	}{"lost", time.Now().Format(time.RFC3339Nano), count})
	return append(b, '\n')
}

// viewer is one watching connection: a bounded queue of entries and the
// goroutine that writes them.
type viewer struct {
	c   net.Conn
	seq uint64 // order of joining

	mu      sync.Mutex
	queue   [][]byte
	queued  int
	skipped int // entries skipped since the last batch taken
	entries int // entries queued (lost entries not counted)
	closed  bool
	ending  bool // finish: write what is queued, then close
	wake    chan struct{}
	done    chan struct{}
}

func newViewer(c net.Conn, seq uint64) *viewer {
	return &viewer{c: c, seq: seq, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// send queues an entry. When the queue is full the viewer skips ahead: what
// it has queued is dropped and counted, and it is told how many entries it
// missed before the next one. force queues over the bound (history on
// joining, the viewer's own holds).
func (v *viewer) send(e []byte, force bool) {
	v.mu.Lock()
	if v.closed || v.ending {
		v.mu.Unlock()
		return
	}
	if !force && v.queued > 0 && v.queued+len(e) > maxViewerQueue {
		// Skip ahead: what waits is dropped, and the viewer is told at
		// once how many entries it missed since its last delivery.
		v.skipped += v.entries + 1
		l := lostEntry(v.skipped)
		v.queue, v.queued, v.entries = [][]byte{l}, len(l), 0
		v.mu.Unlock()
		v.signal()
		return
	}
	v.entries++
	v.queue = append(v.queue, e)
	v.queued += len(e)
	v.mu.Unlock()
	v.signal()
}

func (v *viewer) signal() {
	select {
	case v.wake <- struct{}{}:
	default:
	}
}

// sendMessage queues a message of the tap to this viewer alone.
func (v *viewer) sendMessage(m Message) {
	if m.Time.IsZero() {
		m.Time = time.Now()
	}
	b, _ := json.Marshal(m)
	v.send(append(b, '\n'), true)
}

func (v *viewer) writeLoop() {
	defer close(v.done)
	w := bufio.NewWriterSize(v.c, 64<<10)
	for range v.wake {
		for {
			v.mu.Lock()
			batch, ending, closed := v.queue, v.ending, v.closed
			v.queue, v.queued, v.entries, v.skipped = nil, 0, 0, 0
			v.mu.Unlock()
			if closed {
				return
			}
			for _, e := range batch {
				if _, err := w.Write(e); err != nil {
					v.close()
					return
				}
			}
			if err := w.Flush(); err != nil {
				v.close()
				return
			}
			if len(batch) > 0 {
				continue
			}
			if ending {
				v.close()
				return
			}
			break
		}
	}
}

// finish writes what is queued (bounded in time) and closes.
func (v *viewer) finish() {
	v.mu.Lock()
	v.ending = true
	v.mu.Unlock()
	_ = v.c.SetWriteDeadline(time.Now().Add(2 * time.Second))
	select {
	case v.wake <- struct{}{}:
	default:
	}
	select {
	case <-v.done:
	case <-time.After(3 * time.Second):
		v.close()
	}
}

// close drops the connection.
func (v *viewer) close() {
	v.mu.Lock()
	already := v.closed
	v.closed, v.queue = true, nil
	v.mu.Unlock()
	if !already {
		_ = v.c.Close()
		select {
		case v.wake <- struct{}{}:
		default:
		}
	}
}
