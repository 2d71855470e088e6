package record

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/mcp"
)

// Format and Version identify the file format in the header.
const (
	Format  = "mcptui-recording"
	Version = 1
)

// Entry types.
const (
	TypeHeader      = "header"
	TypeSent        = "sent"
	TypeReceived    = "received"
	TypeDiscarded   = "discarded"
	TypeStderr      = "stderr"
	TypeExit        = "exit"
	TypeNegotiation = "negotiation"
	TypeReady       = "ready"
	TypeFailed      = "failed"
	TypeNote        = "note"
	TypeLost        = "lost"
	TypeEnd         = "end"
)

// Redacted replaces secret values in the header.
const Redacted = "[redacted]"

// DefaultMaxQueue is how many bytes of encoded entries may wait for the
// disk before new ones are dropped (and counted in a "lost" entry).
const DefaultMaxQueue = 256 << 20

// maxStderrLine is the longest stderr line recorded as one entry; longer
// ones are split.
const maxStderrLine = 64 << 10

// Header describes the session a recording is of. Its zero value is usable.
type Header struct {
	// Mode is what mcptui was doing: "inspect", "call", "run", ...
	Mode string
	// Mcptui is mcptui's version.
	Mcptui string
	// Command and Args are the server's command line; Dir its working
	// directory; Env the environment changes mcptui was given for it.
	Command string
	Args    []string
	Dir     string
	Env     []conn.EnvVar
	// Secrets keeps environment values and secret-looking arguments;
	// otherwise they are recorded as Redacted.
	Secrets bool
	// Settings are the options that shaped the session (timeouts, allowed
	// versions, roots, limits), as text.
	Settings Settings
}

// Settings are the connection options of a recorded session.
type Settings struct {
	Timeout                string   `json:"timeout,omitempty"`
	ResetTimeoutOnProgress bool     `json:"resetTimeoutOnProgress,omitempty"`
	MaxTotalTimeout        string   `json:"maxTotalTimeout,omitempty"`
	MaxLineBytes           int      `json:"maxLineBytes,omitempty"`
	Protocols              []string `json:"protocols,omitempty"`
	Roots                  []string `json:"roots,omitempty"`
}

// Recorder writes a recording. Its methods are safe for concurrent use and
// never wait for the disk. Methods called after Close do nothing.
type Recorder struct {
	start    time.Time
	maxQueue int
	now      func() time.Time

	mu      sync.Mutex
	queue   [][]byte
	queued  int
	lost    int
	closed  bool
	err     error
	wake    chan struct{}
	done    chan struct{}
	out     *bufio.Writer
	closer  io.Closer
	stderrs []*stderrWriter
	exits   int
	exitCh  chan struct{} // closed and replaced at each exit
	// writeFailed is closed when a write first fails.
	writeFailed chan struct{}
}

// Create creates (or truncates) the file at path and starts a recording in
// it with h as its header.
func Create(path string, h Header) (*Recorder, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	return New(f, h), nil
}

// New starts a recording on w with h as its header. If w is an io.Closer,
// Close closes it.
func New(w io.Writer, h Header) *Recorder {
	r := &Recorder{
		start:    time.Now(),
		maxQueue: DefaultMaxQueue,
		now:      time.Now,
		wake:     make(chan struct{}, 1),
		done:     make(chan struct{}),
		exitCh:   make(chan struct{}),

		writeFailed: make(chan struct{}),
		out:         bufio.NewWriterSize(w, 64<<10),
	}
	if c, ok := w.(io.Closer); ok {
		r.closer = c
	}
	r.enqueue(r.encodeHeader(h))
	go r.writeLoop()
	return r
}

// SetMaxQueue bounds the encoded entries that may wait for the writer
// (DefaultMaxQueue until set); past it new entries are counted in a "lost"
// entry. A single entry always fits.
func (r *Recorder) SetMaxQueue(n int) {
	r.mu.Lock()
	r.maxQueue = n
	r.mu.Unlock()
}

// Start is when the recording began (the zero of "ms").
func (r *Recorder) Start() time.Time { return r.start }

// Observe records one event of conn's Observer: a line sent, received or
// discarded, or the exit. Use it as conn.Options.Observer, or call it from
// one.
func (r *Recorder) Observe(ev conn.Event) { r.ObserveMarked(ev, "", false) }

// ObserveMarked is Observe for a line something was done to on its way (a
// tap's breakpoint): mark says what, in words, and withheld that the line
// did not go on to where it was headed (dropped, or replaced by an edit or
// an answer).
func (r *Recorder) ObserveMarked(ev conn.Event, mark string, withheld bool) {
	switch ev.Kind {
	case conn.Sent, conn.Received, conn.Discarded:
		typ := map[conn.EventKind]string{conn.Sent: TypeSent, conn.Received: TypeReceived, conn.Discarded: TypeDiscarded}[ev.Kind]
		e := entry{Type: typ, Size: ev.Size}
		if ev.Kind == conn.Discarded && ev.Err != nil {
			e.Reason = ev.Err.Error()
		}
		e.Mark, e.Withheld = mark, withheld
		if ev.Kind == conn.Sent && ev.Err != nil {
			e.GaveUp = GaveUpOf(ev.Err)
		}
		r.enqueue(r.encode(ev.Time, e, ev.Line, ev.Line != nil))
	case conn.Exited:
		status := ""
		if ev.Err != nil {
			status = ev.Err.Error()
		}
		e := entry{Type: TypeExit, Status: &status}
		r.enqueue(r.encode(ev.Time, e, nil, false))
		r.mu.Lock()
		r.exits++
		close(r.exitCh)
		r.exitCh = make(chan struct{})
		r.mu.Unlock()
	}
}

// WaitExits waits until n process exits have been recorded, or ctx is
// done, and reports whether they were. A program that shuts its server down
// and then closes the recording calls it in between: conn's Shutdown can
// return just before the Observer hears of the exit.
func (r *Recorder) WaitExits(ctx context.Context, n int) bool {
	for {
		r.mu.Lock()
		got, ch := r.exits, r.exitCh
		r.mu.Unlock()
		if got >= n {
			return true
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
}

// Observer returns a conn Observer that records each event and then passes
// it to next (if not nil).
func (r *Recorder) Observer(next func(conn.Event)) func(conn.Event) {
	return func(ev conn.Event) {
		r.Observe(ev)
		if next != nil {
			next(ev)
		}
	}
}

// Stderr returns a writer for conn.Options.Stderr that records each line the
// server writes and passes the bytes on to next (if not nil). A last line
// without a newline is recorded by Close.
func (r *Recorder) Stderr(next io.Writer) io.Writer {
	w := &stderrWriter{r: r, next: next}
	r.mu.Lock()
	r.stderrs = append(r.stderrs, w)
	r.mu.Unlock()
	return w
}

// Negotiation records how the protocol version was chosen.
func (r *Recorder) Negotiation(n mcp.Negotiation) {
	r.enqueue(r.encode(r.now(), entry{Type: TypeNegotiation, Negotiation: negotiationOf(n)}, nil, false))
}

// Connected records the client's negotiation and then that it is ready:
// the server's identity, the protocol, the pid and the capabilities.
func (r *Recorder) Connected(c *mcp.Client) {
	r.Negotiation(c.Negotiation())
	s := c.Session()
	e := entry{Type: TypeReady, Protocol: s.Version, PID: c.PID(), Instructions: s.Instructions,
		Server: &Server{Name: s.Server.Name, Version: s.Server.Version}}
	if len(s.Capabilities.Raw) > 0 && json.Valid(s.Capabilities.Raw) {
		e.Capabilities = s.Capabilities.Raw
	}
	r.enqueue(r.encode(r.now(), e, nil, false))
}

// Failed records that mcptui gave up on the server (it did not start, or
// the negotiation failed); stopped, that the server still ran and mcptui
// stopped it (mcp.NegotiationFailed).
func (r *Recorder) Failed(err error, stopped bool) {
	r.enqueue(r.encode(r.now(), entry{Type: TypeFailed, Error: err.Error(), Stopped: stopped}, nil, false))
}

// Note records something mcptui did that is not a line, such as a headless
// step ("call echo").
func (r *Recorder) Note(text string) {
	t := text
	r.enqueue(r.encode(r.now(), entry{Type: TypeNote, Text: &t}, nil, false))
}

// WriteFailed is closed as soon as writing the recording first fails (a
// full disk, a closed pipe), so that a program can say so at once rather
// than at Close; Err says why. Nothing more is written after it.
func (r *Recorder) WriteFailed() <-chan struct{} { return r.writeFailed }

// Err is the first error writing the recording met, or nil.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// Close flushes pending stderr lines, writes the "end" entry, waits for the
// queue to reach the disk and closes the file. It returns the first error
// writing met. It is idempotent.
func (r *Recorder) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		<-r.done
		return r.Err()
	}
	stderrs := r.stderrs
	r.mu.Unlock()
	for _, w := range stderrs {
		w.flush()
	}
	r.enqueueForced(r.encode(r.now(), entry{Type: TypeEnd}, nil, false), true)
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.signal()
	<-r.done
	return r.Err()
}

// enqueue adds an encoded entry, or counts it lost when the queue is full.
func (r *Recorder) enqueue(b []byte) { r.enqueueForced(b, false) }

// enqueueForced is enqueue; with force set the entry is queued even over
// the bound (the last entries of Close).
func (r *Recorder) enqueueForced(b []byte, force bool) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	if !force && r.queued+len(b) > r.maxQueue && len(r.queue) > 0 {
		r.lost++
		r.mu.Unlock()
		return
	}
	if r.lost > 0 {
		lost := r.encode(r.now(), entry{Type: TypeLost, Count: r.lost}, nil, false)
		r.queue = append(r.queue, lost)
		r.queued += len(lost)
		r.lost = 0
	}
	r.queue = append(r.queue, b)
	r.queued += len(b)
	r.mu.Unlock()
	r.signal()
}

func (r *Recorder) signal() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// writeLoop writes queued entries until Close.
func (r *Recorder) writeLoop() {
	defer close(r.done)
	for {
		<-r.wake
		for {
			r.mu.Lock()
			batch := r.queue
			r.queue, r.queued = nil, 0
			closed := r.closed
			r.mu.Unlock()
			if len(batch) == 0 {
				if closed {
					r.finish()
					return
				}
				break
			}
			if r.Err() != nil {
				continue // the file is broken: the rest is dropped
			}
			for _, b := range batch {
				if _, err := r.out.Write(b); err != nil {
					r.fail(err)
					break
				}
			}
			if err := r.out.Flush(); err != nil {
				r.fail(err)
			}
		}
	}
}

func (r *Recorder) finish() {
	if r.Err() == nil {
		if err := r.out.Flush(); err != nil {
			r.fail(err)
		}
	}
	if r.closer != nil {
		if err := r.closer.Close(); err != nil {
			r.fail(err)
		}
	}
}

func (r *Recorder) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = fmt.Errorf("record: writing: %w", err)
		close(r.writeFailed)
	}
}

// entry is what is encoded for every type but the header; the content of a
// line is spliced in by encode.
type entry struct {
	Type         string          `json:"type"`
	Time         string          `json:"t"`
	Ms           float64         `json:"ms"`
	Size         int             `json:"size,omitempty"`
	Reason       string          `json:"reason,omitempty"`
	Mark         string          `json:"mark,omitempty"`
	Withheld     bool            `json:"withheld,omitempty"`
	Status       *string         `json:"status,omitempty"`
	Error        string          `json:"error,omitempty"`
	Stopped      bool            `json:"stopped,omitempty"`
	Count        int             `json:"count,omitempty"`
	Protocol     string          `json:"protocol,omitempty"`
	PID          int             `json:"pid,omitempty"`
	Server       *Server         `json:"server,omitempty"`
	Instructions string          `json:"instructions,omitempty"`
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	Negotiation  *Negotiation    `json:"negotiation,omitempty"`
	Text         *string         `json:"text,omitempty"`
	B64          []byte          `json:"b64,omitempty"`
	GaveUp       *GaveUp         `json:"gaveUp,omitempty"`
}

// encode writes e at time t; content, when present, becomes "msg" (JSON
// embedded verbatim), "text" or "b64". The common entries are written by
// appendEntry, the others by marshalEntry: the same bytes.
func (r *Recorder) encode(t time.Time, e entry, content []byte, present bool) []byte {
	ms := float64(t.Sub(r.start).Microseconds()) / 1000
	if e.Type == TypeExit && e.Status == nil {
		empty := ""
		e.Status = &empty
	}
	embed := present && isJSONLine(content)
	if !e.plain() {
		return marshalEntry(t, ms, e, content, present, embed)
	}
	return writeEntry(t, ms, e, content, present, embed)
}

// marshalEntry is encode through json.Marshal, for any entry: t and ms
// are its Time and Ms, content as in encode, embed whether it is "msg".
func marshalEntry(t time.Time, ms float64, e entry, content []byte, present, embed bool) []byte {
	e.Time = t.Format(time.RFC3339Nano)
	e.Ms = ms
	if present && !embed {
		if utf8.Valid(content) {
			s := string(content)
			e.Text = &s
		} else {
			e.B64 = bytes.Clone(content)
		}
	}
	b, err := json.Marshal(e)
	if err != nil {
		// Every field marshals; keep the entry's type at least.
		b = []byte(fmt.Sprintf(`{"type":%q,"t":%q}`, e.Type, e.Time))
	}
	if embed {
		b = append(b[:len(b)-1], `,"msg":`...)
		b = append(b, content...)
		b = append(b, '}')
	}
	return append(b, '\n')
}

// isJSONLine reports whether b can be embedded as a JSON value on one line
// and read back byte for byte. Invalid UTF-8 and lone surrogate escapes
// are JSON to encoding/json but not to strict readers: such a line takes
// the "text" or base64 path, so that every line of a recording is valid
// JSON Lines for jq and Python. Duplicate names are kept (they read them).
func isJSONLine(b []byte) bool {
	return len(b) > 0 && b[0] != ' ' && b[0] != '\t' && b[len(b)-1] != ' ' && b[len(b)-1] != '\t' &&
		bytes.IndexByte(b, '\n') < 0 && bytes.IndexByte(b, '\r') < 0 && jsontext.Value(b).IsValid(duplicateNamesAllowed)
}

// duplicateNamesAllowed is isJSONLine's one option, made once.
var duplicateNamesAllowed = jsontext.AllowDuplicateNames(true)

// Server is a server's identity in a "ready" entry.
type Server struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// headerEntry is the first line.
type headerEntry struct {
	Type     string     `json:"type"`
	Format   string     `json:"format"`
	Version  int        `json:"version"`
	Time     string     `json:"t"`
	Ms       float64    `json:"ms"`
	Mcptui   string     `json:"mcptui,omitempty"`
	Mode     string     `json:"mode,omitempty"`
	Command  string     `json:"command"`
	Args     []string   `json:"args"`
	Dir      string     `json:"dir,omitempty"`
	Env      []EnvEntry `json:"env,omitempty"`
	Secrets  bool       `json:"secrets"`
	Settings Settings   `json:"settings"`
}

// EnvEntry is one environment change in the header: a value (possibly
// Redacted), or Unset.
type EnvEntry struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
	Unset bool   `json:"unset,omitempty"`
}

func (r *Recorder) encodeHeader(h Header) []byte {
	he := headerEntry{
		Type: TypeHeader, Format: Format, Version: Version, Time: r.start.Format(time.RFC3339Nano),
		Mcptui: h.Mcptui, Mode: h.Mode, Command: h.Command, Args: RedactArgs(h.Args, h.Secrets),
		Dir: h.Dir, Secrets: h.Secrets, Settings: h.Settings,
	}
	if he.Args == nil {
		he.Args = []string{}
	}
	for _, v := range h.Env {
		switch {
		case v.Value == nil:
			he.Env = append(he.Env, EnvEntry{Name: v.Name, Unset: true})
		case h.Secrets:
			he.Env = append(he.Env, EnvEntry{Name: v.Name, Value: *v.Value})
		default:
			he.Env = append(he.Env, EnvEntry{Name: v.Name, Value: Redacted})
		}
	}
	b, err := json.Marshal(he)
	if err != nil {
		b = []byte(`{"type":"header","format":"mcptui-recording","version":1}`)
	}
	return append(b, '\n')
}

// stderrWriter splits the server's stderr into lines and records each.
type stderrWriter struct {
	r    *Recorder
	next io.Writer
	mu   sync.Mutex
	buf  []byte
}

func (w *stderrWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	rest := p
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			w.buf = append(w.buf, rest...)
			for len(w.buf) >= maxStderrLine {
				w.line(w.buf[:maxStderrLine])
				w.buf = append(w.buf[:0], w.buf[maxStderrLine:]...)
			}
			break
		}
		w.buf = append(w.buf, rest[:i]...)
		w.line(bytes.TrimSuffix(w.buf, []byte("\r")))
		w.buf = w.buf[:0]
		rest = rest[i+1:]
	}
	w.mu.Unlock()
	if w.next != nil {
		return w.next.Write(p)
	}
	return len(p), nil
}

func (w *stderrWriter) line(b []byte) {
	e := entry{Type: TypeStderr}
	if utf8.Valid(b) {
		s := string(b)
		e.Text = &s
	} else {
		e.B64 = bytes.Clone(b)
	}
	w.r.enqueue(w.r.encode(w.r.now(), e, nil, false))
}

func (w *stderrWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) > 0 {
		w.line(w.buf)
		w.buf = w.buf[:0]
	}
}
