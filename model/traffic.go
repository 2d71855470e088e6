package model

import (
	"encoding/json"
	"strconv"
	"time"
	"unsafe"
)

// Entry is one line of the traffic history.
type Entry struct {
	// Seq numbers entries from 1 in arrival order; it never repeats, even
	// across restarts and eviction.
	Seq  uint64
	Time time.Time
	Dir  Direction
	Size int
	Kind Kind
	// Gen is the connection generation the line belongs to (1 for the
	// first process, 2 after the first restart, ...).
	Gen    int
	ID     json.RawMessage
	Method string
	// Summary is one line about the entry, at most a few hundred bytes,
	// raw from the server: escape it before drawing.
	Summary string
	// Raw is the line as it crossed the wire; nil when it was not kept
	// (over-long, lost, or larger than the whole history cap).
	Raw json.RawMessage
	// Reason says why a discarded line was discarded.
	Reason string
	// Link is the Seq of the request's response, or the response's
	// request; 0 when there is none (yet).
	Link uint64
	// Lost counts the lines this entry stands for when the inspector,
	// overloaded, kept none of them (Size is their total, Time the last).
	Lost int
	// Negotiation marks an error answer that is a step of the version
	// negotiation (an older server's -32601 to the server/discover probe),
	// not a failure: it is not counted in the errors.
	Negotiation bool
}

// History is the bounded traffic log: entries are evicted oldest first when
// the memory they take (raw line, summary and a fixed overhead each)
// exceeds the cap.
type History struct {
	capBytes int
	// ring holds the live entries from ring[head], wrapping, n of them;
	// its length is a power of two, doubled when it is full, so that it
	// never takes more than twice the entries it holds.
	ring    []Entry
	head, n int
	bytes   int
	evicted int
	nextSeq uint64
}

func newHistory(capBytes int) *History {
	return &History{capBytes: capBytes, nextSeq: 1}
}

// Len is the number of entries kept.
func (h *History) Len() int { return h.n }

// At returns the i-th kept entry, oldest first (0 <= i < Len). The entry is
// shared: do not modify it.
func (h *History) At(i int) *Entry { return &h.ring[(h.head+i)&(len(h.ring)-1)] }

// Evicted is how many entries were dropped to stay under the cap.
func (h *History) Evicted() int { return h.evicted }

// Bytes is the memory accounted to the entries kept.
func (h *History) Bytes() int { return h.bytes }

// FirstSeq is the Seq of the oldest kept entry (NextSeq when empty).
func (h *History) FirstSeq() uint64 {
	if h.Len() == 0 {
		return h.nextSeq
	}
	return h.ring[h.head].Seq
}

// NextSeq is the Seq the next entry will get.
func (h *History) NextSeq() uint64 { return h.nextSeq }

// BySeq returns the entry with that Seq, or nil when it was evicted or
// never existed.
func (h *History) BySeq(seq uint64) *Entry {
	first := h.FirstSeq()
	if seq < first || seq >= h.nextSeq {
		return nil
	}
	return h.At(int(seq - first))
}

// Index returns the position of the entry with that Seq for At, or -1.
func (h *History) Index(seq uint64) int {
	if h.BySeq(seq) == nil {
		return -1
	}
	return int(seq - h.FirstSeq())
}

// add appends an entry, giving it the next Seq, and evicts old entries
// while the history is over its cap. A raw line larger than the whole cap
// is not kept at all.
func (h *History) add(e Entry) *Entry {
	if len(e.Raw) > h.capBytes {
		e.Raw = nil
	}
	e.Seq = h.nextSeq
	h.nextSeq++
	h.bytes += cost(&e)
	for h.bytes > h.capBytes && h.n > 0 {
		h.bytes -= cost(&h.ring[h.head])
		h.ring[h.head] = Entry{}
		h.head = (h.head + 1) & (len(h.ring) - 1)
		h.n--
		h.evicted++
	}
	if h.n == len(h.ring) {
		h.grow()
	}
	last := &h.ring[(h.head+h.n)&(len(h.ring)-1)]
	*last = e
	h.n++
	return last
}

// grow doubles the ring (to 16 entries at first), keeping the entries in
// order from its start.
func (h *History) grow() {
	ring := make([]Entry, max(16, 2*len(h.ring)))
	for i := range h.n {
		ring[i] = *h.At(i)
	}
	h.ring, h.head = ring, 0
}

// link records that two entries answer each other; either may have been
// evicted already.
func (h *History) link(a, b uint64) {
	if ea := h.BySeq(a); ea != nil {
		ea.Link = b
	}
	if eb := h.BySeq(b); eb != nil {
		eb.Link = a
	}
}

// entryOverhead approximates the memory of an Entry beside its raw line and
// summary, so that a flood of tiny lines is bounded too: the struct, twice
// (the ring holding it grows by doubling), and the rounding of its
// strings' allocations up to their size classes.
const entryOverhead = 2*int(unsafe.Sizeof(Entry{})) + 64

// addLost records lines whose content the inspector dropped under load: a
// run of them, in one direction, is one entry that counts them, so that a
// flood of lost lines cannot push every real line out of the history.
func (h *History) addLost(t time.Time, dir Direction, size, gen int) {
	if n := h.Len(); n > 0 {
		last := h.At(n - 1)
		if last.Kind == KindDiscarded && last.Lost > 0 && last.Dir == dir && last.Gen == gen {
			h.bytes -= cost(last)
			last.Lost++
			last.Size += size
			last.Time = t
			last.Summary = lostSummary(last.Lost)
			h.bytes += cost(last)
			return
		}
	}
	h.add(Entry{Time: t, Dir: dir, Size: size, Gen: gen, Kind: KindDiscarded, Lost: 1, Summary: lostSummary(1)})
}

func lostSummary(n int) string {
	if n == 1 {
		return "1 line lost: the inspector was overloaded"
	}
	return strconv.Itoa(n) + " lines lost: the inspector was overloaded"
}

// cost is the memory accounted to an entry.
func cost(e *Entry) int {
	return len(e.Raw) + len(e.Summary) + len(e.ID) + len(e.Method) + len(e.Reason) + entryOverhead
}

// LineBytesFrom is the memory of the lines and strings of the kept
// entries from Seq seq on (their cost without the entries themselves).
func (h *History) LineBytesFrom(seq uint64) int {
	n := 0
	for i := int(max(seq, h.FirstSeq()) - h.FirstSeq()); i < h.Len(); i++ {
		n += cost(h.At(i)) - entryOverhead
	}
	return n
}
