package replay

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"

	"github.com/mcptui/mcptui/internal/lines"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/model"
)

// Index is the events of a recording file without their bytes: Events'
// events, in Events' order, each kept as the offset of the entry it came
// from (a line or a stderr line, read again from the file when it is
// shown) or, for the few others (a connection starting, a question, the
// exit...), as the event itself. It costs 8 bytes an event, whatever the
// lines hold; the file is read twice as a stream to build it, never held.
type Index struct {
	// Header is the recording's header.
	Header record.Entry
	// Sends are the positions of the lines we sent, in order.
	Sends []int

	path    string
	maxLine int
	slots   []int64 // >= 0: an entry's offset; < 0: held[-1-slot]
	held    []model.Event
}

// bulkPrefixes start the entries the first pass of IndexFile does not
// need (none of them is a negotiation, a ready or an exit).
var bulkPrefixes = [][]byte{[]byte(`{"type":"sent",`), []byte(`{"type":"received",`), []byte(`{"type":"stderr",`), []byte(`{"type":"discarded",`)}

// indexed is an event of the index being built, with its time, in the
// order Events adds them (its position is its seq).
type indexed struct {
	sec  int64
	nsec int32
	send bool
	slot int64
}

// IndexFile reads the recording at path (maxLine as record.ReadLimited
// takes it) into an Index.
func IndexFile(path string, maxLine int) (*Index, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	defer f.Close()
	x := &Index{path: path, maxLine: maxLine}

	// First pass: what Events looks at before the lines (the
	// negotiations, whether there are "ready" entries, the exits).
	var negs []*record.Negotiation
	var exits []exitAt
	hasReady := false
	// The lines and stderr, most of the file, are told by their first
	// bytes, as the recorder writes them, and not decoded here.
	bulk := func(line []byte) bool {
		for _, p := range bulkPrefixes {
			if bytes.HasPrefix(line, p) {
				return true
			}
		}
		return false
	}
	err = record.ScanSkipping(f, maxLine, bulk, func(e *record.Entry, off int64) error {
		switch {
		case e.LineNo == 1 && e.Type == record.TypeHeader:
			x.Header = *e
		case e.Type == record.TypeNegotiation && e.Negotiation != nil:
			negs = append(negs, e.Negotiation)
		case e.Type == record.TypeReady:
			hasReady = true
		case e.Type == record.TypeExit:
			exits = append(exits, exitAt{key: off, t: e.Time})
		}
		return nil
	}, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}

	var out []indexed
	add := func(ev model.Event, off int64) {
		t := ev.When()
		it := indexed{sec: t.Unix(), nsec: int32(t.Nanosecond()), slot: off}
		if w, ok := ev.(model.Wire); ok && w.Dir == model.Out {
			it.send = true
		}
		if off < 0 {
			x.held = append(x.held, ev)
			it.slot = -int64(len(x.held))
		}
		out = append(out, it)
	}
	command := append([]string{x.Header.Command}, x.Header.Args...)
	dropExit := map[int64]bool{}
	for _, neg := range negs {
		maps.Copy(dropExit, abandonedExits(exits, neg))
		if i := slices.IndexFunc(neg.Steps, func(s record.Step) bool { return s.Kind == "spawn" && s.Error == "" }); i >= 0 {
			add(model.Started{Stamp: model.Stamp{Time: neg.Steps[i].Start}, Command: command, PID: neg.Steps[i].PID}, -1)
		}
	}
	if len(negs) == 0 {
		add(model.Started{Stamp: model.Stamp{Time: x.Header.Time}, Command: command}, -1)
	}
	q := newQuestions()
	var rd *readiness
	if !hasReady {
		rd = &readiness{requests: map[string]string{}}
	}

	// Second pass: the events, the bulk of them kept as offsets.
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	err = record.Scan(f, maxLine, func(e *record.Entry, off int64) error {
		if e.LineNo == 1 && e.Type == record.TypeHeader || e.Type == record.TypeExit && dropExit[off] {
			return nil
		}
		for i, ev := range entryEvents(e, q, rd) {
			if i == 0 && off >= 0 && (e.IsLine() || e.Type == record.TypeStderr) {
				add(ev, off)
				continue
			}
			add(ev, -1)
		}
		return nil
	}, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// Usually in order already (entries are written as they happen).
	before := func(a, b indexed) bool { return a.sec < b.sec || a.sec == b.sec && a.nsec < b.nsec }
	if !slices.IsSortedFunc(out, func(a, b indexed) int {
		if before(a, b) {
			return -1
		}
		return 0
	}) {
		sort.SliceStable(out, func(i, j int) bool { return before(out[i], out[j]) })
	}
	x.slots = make([]int64, len(out))
	for i, it := range out {
		x.slots[i] = it.slot
		if it.send {
			x.Sends = append(x.Sends, i)
		}
	}
	return x, nil
}

// Len is the number of events.
func (x *Index) Len() int { return len(x.slots) }

// Config is the model configuration the recording was made with (see
// Config).
func (x *Index) Config(historyBytes int) model.Config {
	return Config(&record.Recording{Header: x.Header}, historyBytes)
}

// Open starts reading the index's events from its file; Close the reader
// when done.
func (x *Index) Open() (*IndexReader, error) {
	f, err := os.Open(x.path)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	return x.OpenFrom(f), nil
}

// OpenFrom reads the index's events from f, the recording file opened
// by the caller (or what stands for it: a reader that counts the bytes
// read); Close closes f if it is an io.Closer.
func (x *Index) OpenFrom(f io.ReadSeeker) *IndexReader {
	return &IndexReader{x: x, f: f, pos: -1}
}

// Offset is the file offset of the entry event i was read from, or of the
// first such event after it (the few events kept in the index have
// none); -1 when no event from i on has one.
func (x *Index) Offset(i int) int64 {
	for _, slot := range x.slots[max(i, 0):] {
		if slot >= 0 {
			return slot
		}
	}
	return -1
}

// IndexReader reads an Index's events from its file: a run of events in
// file order is read as a stream; a jump seeks.
type IndexReader struct {
	x   *Index
	f   io.ReadSeeker
	lr  *lines.Reader
	pos int64 // the file offset lr reads next; -1: none
}

// Events are the events from..to (exclusive).
func (r *IndexReader) Events(from, to int) ([]model.Event, error) {
	evs := make([]model.Event, 0, to-from)
	for _, slot := range r.x.slots[from:to] {
		if slot < 0 {
			evs = append(evs, r.x.held[-1-slot])
			continue
		}
		ev, err := r.read(slot)
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

// Event is event i.
func (r *IndexReader) Event(i int) (model.Event, error) {
	evs, err := r.Events(i, i+1)
	if err != nil {
		return nil, err
	}
	return evs[0], nil
}

// read is the line or stderr event of the entry at off.
func (r *IndexReader) read(off int64) (model.Event, error) {
	if off != r.pos {
		if _, err := r.f.Seek(off, io.SeekStart); err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		r.lr = lines.NewReader(r.f, record.MaxEntryBytes(r.x.maxLine))
	}
	line, size, err := r.lr.Next()
	if err != nil {
		r.pos = -1
		return nil, fmt.Errorf("replay: %s: the entry at byte %d: %w", r.x.path, off, err)
	}
	r.pos = off + int64(size) + 1
	e, err := record.DecodeEntry(bytes.TrimSpace(line))
	if err != nil {
		return nil, fmt.Errorf("replay: %s: the entry at byte %d: %w", r.x.path, off, err)
	}
	if e.Type == record.TypeStderr {
		return stderrEvent(&e), nil
	}
	return lineEvent(&e), nil
}

// Close closes the file.
func (r *IndexReader) Close() error {
	if c, ok := r.f.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
