package model

import (
	"fmt"
	"reflect"
	"slices"
	"unsafe"
)

// Clone is a copy of the session that Apply can go on with apart from s:
// what a replay keeps as a checkpoint, to resume from it instead of
// folding the recording from its start again. Its bytes are what the copy
// allocated (the tables, the history's ring); the lines and strings are
// shared with s (never written once made), which a checkpoint keeps alive
// after s has dropped them: History.LineBytesFrom counts them.
func (s *Session) Clone() (c *Session, bytes int) {
	cp := newCopier()
	c = cp.pointer(reflect.ValueOf(s)).Interface().(*Session)
	return c, cp.bytes
}

// Clone is a copy of the prelinter, its linter's state with it (see
// Session.Clone).
func (p *Prelinter) Clone() (c *Prelinter, bytes int) {
	cp := newCopier()
	c = cp.pointer(reflect.ValueOf(p)).Interface().(*Prelinter)
	return c, cp.bytes
}

// copier makes deep copies of values whatever their fields, exported or
// not: what two pointers (or maps) of the original shared, the copies
// share. Strings, byte slices, functions, channels and the values of
// immutable packages are shared with the original, not copied.
type copier struct {
	ptrs    map[ptrKey]reflect.Value
	maps    map[uintptr]reflect.Value
	shallow map[reflect.Type]bool
	bytes   int
	// shared is the length of the strings and byte slices the copy shares
	// with the original (what it keeps alive once the original drops
	// them); bare leaves a History's entries out (see Checkpoint).
	shared int
	bare   bool
}

type ptrKey struct {
	p uintptr
	t reflect.Type
}

// immutable says a type's package makes values the model only reads once
// made: times and their locations, compiled expressions and schemas.
func immutable(t reflect.Type) bool {
	switch t.PkgPath() {
	case "time", "regexp", "regexp/syntax", "github.com/mcptui/mcptui/third_party/jsonschema":
		return true
	}
	return false
}

func newCopier() *copier {
	return &copier{ptrs: map[ptrKey]reflect.Value{}, maps: map[uintptr]reflect.Value{}, shallow: map[reflect.Type]bool{}}
}

// pointer is a copy of the pointer v.
func (c *copier) pointer(v reflect.Value) reflect.Value {
	dst := reflect.New(v.Type()).Elem()
	c.copy(dst, v)
	return dst
}

// settable is v's field i, settable even when it is not exported (v is
// addressable).
func settable(v reflect.Value, i int) reflect.Value {
	f := v.Field(i)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// copy makes dst (settable, zero) a deep copy of src (not read-only).
func (c *copier) copy(dst, src reflect.Value) {
	t := src.Type()
	if immutable(t) {
		dst.Set(src)
		return
	}
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		if immutable(t.Elem()) {
			dst.Set(src)
			return
		}
		key := ptrKey{src.Pointer(), t}
		if p, ok := c.ptrs[key]; ok {
			dst.Set(p)
			return
		}
		p := reflect.New(t.Elem())
		c.ptrs[key] = p
		c.bytes += int(t.Elem().Size())
		c.copy(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Struct:
		if !src.CanAddr() {
			tmp := reflect.New(t).Elem()
			tmp.Set(src)
			src = tmp
		}
		if c.bare && t == historyType {
			h := *(*History)(src.Addr().UnsafePointer())
			h.ring = nil
			*(*History)(dst.Addr().UnsafePointer()) = h
			return
		}
		for i := range src.NumField() {
			c.copy(settable(dst, i), settable(src, i))
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		if t.Elem().Kind() == reflect.Uint8 {
			c.shared += src.Len()
			dst.Set(src)
			return
		}
		n := reflect.MakeSlice(t, src.Len(), src.Cap())
		c.bytes += src.Cap() * int(t.Elem().Size())
		sh, ok := c.shallow[t.Elem()]
		if !ok {
			sh = shallow(t.Elem(), nil)
			c.shallow[t.Elem()] = sh
		}
		if sh {
			reflect.Copy(n, src)
			if hasStrings(t.Elem()) {
				for i := range src.Len() {
					c.shared += stringBytes(src.Index(i))
				}
			}
		} else {
			for i := range src.Len() {
				c.copy(n.Index(i), src.Index(i))
			}
		}
		dst.Set(n)
	case reflect.Array:
		for i := range src.Len() {
			c.copy(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		if m, ok := c.maps[src.Pointer()]; ok {
			dst.Set(m)
			return
		}
		m := reflect.MakeMapWithSize(t, src.Len())
		c.maps[src.Pointer()] = m
		c.bytes += src.Len() * int(t.Key().Size()+t.Elem().Size())
		for it := src.MapRange(); it.Next(); {
			k := reflect.New(t.Key()).Elem()
			c.copy(k, it.Key())
			v := reflect.New(t.Elem()).Elem()
			c.copy(v, it.Value())
			m.SetMapIndex(k, v)
		}
		dst.Set(m)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		e := src.Elem()
		v := reflect.New(e.Type()).Elem()
		c.copy(v, e)
		dst.Set(v)
	case reflect.String:
		c.shared += src.Len()
		dst.Set(src)
	default: // numbers, booleans, functions, channels
		dst.Set(src)
	}
}

var historyType = reflect.TypeFor[History]()

// hasStrings says a value of the shallow type t holds strings or byte
// slices (whose bytes a copy shares).
func hasStrings(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String:
		return true
	case reflect.Slice:
		return t.Elem().Kind() == reflect.Uint8
	case reflect.Array:
		return hasStrings(t.Elem())
	case reflect.Struct:
		if immutable(t) {
			return false
		}
		for i := range t.NumField() {
			if hasStrings(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// stringBytes is the length of the strings and byte slices in v (of a
// shallow type).
func stringBytes(v reflect.Value) int {
	switch v.Kind() {
	case reflect.String:
		return v.Len()
	case reflect.Slice:
		return v.Len()
	case reflect.Array:
		n := 0
		for i := range v.Len() {
			n += stringBytes(v.Index(i))
		}
		return n
	case reflect.Struct:
		if immutable(v.Type()) {
			return 0
		}
		n := 0
		for i := range v.NumField() {
			n += stringBytes(v.Field(i))
		}
		return n
	}
	return 0
}

// shallow says a value of type t is copied whole by assignment: it holds
// no pointer but to what the copier shares (strings, byte slices, the
// immutable packages' values).
func shallow(t reflect.Type, seen map[reflect.Type]bool) bool {
	if immutable(t) {
		return true
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Interface, reflect.UnsafePointer, reflect.Chan, reflect.Func:
		return false
	case reflect.Slice:
		return t.Elem().Kind() == reflect.Uint8
	case reflect.Array:
		return shallow(t.Elem(), seen)
	case reflect.Struct:
		if seen[t] {
			return true
		}
		if seen == nil {
			seen = map[reflect.Type]bool{}
		}
		seen[t] = true
		for i := range t.NumField() {
			if !shallow(t.Field(i).Type, seen) {
				return false
			}
		}
	}
	return true
}

// Checkpoint is a session's state without its history's entries: what a
// replay keeps to resume from, at a cost that does not grow with the
// history (the tables beside it are bounded on their own). The entries
// are rebuilt from the recording: folding the events since an earlier
// checkpoint into its Scratch makes them again, and Restore puts them
// back. Not safe for concurrent use but by its methods, which only read
// it.
type Checkpoint struct {
	// s is the copy, its history's ring nil (its other fields are the
	// history's: head, n, bytes, evicted, nextSeq).
	s *Session
	// ring is the length of the history's ring; last is its newest
	// entry, when it has one.
	ring    int
	last    Entry
	hasLast bool
}

// Checkpoint copies the session but for its history's entries (see
// Checkpoint). Its bytes are what the copy allocated and the length of
// the strings and lines it shares with s, which it keeps alive once s has
// dropped them.
func (s *Session) Checkpoint() (k *Checkpoint, bytes int) {
	cp := newCopier()
	cp.bare = true
	c := cp.pointer(reflect.ValueOf(s)).Interface().(*Session)
	k = &Checkpoint{s: c, ring: len(s.history.ring)}
	bytes = cp.bytes + cp.shared + int(unsafe.Sizeof(*k)) + int(unsafe.Sizeof(*c.history))
	if n := s.history.n; n > 0 {
		k.last, k.hasLast = *s.history.At(n - 1), true
		bytes += cost(&k.last) - entryOverhead
	}
	return k, bytes
}

// FirstSeq is the Seq of the oldest entry the session's history held
// (NextSeq when it held none); NextSeq the Seq of the next one.
func (k *Checkpoint) FirstSeq() uint64 { return k.s.history.nextSeq - uint64(k.s.history.n) }

// NextSeq is the Seq the session's next history entry got.
func (k *Checkpoint) NextSeq() uint64 { return k.s.history.nextSeq }

// Covers says the Scratch of k, folding the events from k's on to
// later's, rebuilds every entry later's history held: it starts at or
// before later's oldest entry.
func (k *Checkpoint) Covers(later *Checkpoint) bool {
	first := k.NextSeq()
	if k.hasLast {
		first = k.last.Seq
	}
	return first <= later.FirstSeq()
}

// Scratch is a session that goes on from k as its session would, but
// for its history, which holds only k's newest entry: folding the events
// after k into it makes their entries (the same Seq, the same content:
// they depend on the tables, not on the entries before them), and its
// history holds the newest of them that fit the cap, as the session's
// would. Only its history is of use: its other tables differ from the
// session's where they follow the history (the log book forgets the
// messages whose entries it does not hold).
func (k *Checkpoint) Scratch() *Session {
	c, _ := k.s.Clone()
	h := c.history
	h.ring, h.head, h.n, h.bytes = nil, 0, 0, 0
	if k.hasLast {
		h.ring = make([]Entry, 16)
		h.ring[0], h.n, h.bytes = k.last, 1, cost(&k.last)
	}
	return c
}

// Restore is a session that goes on from k as its session would: a copy
// of k's tables, and its history's entries taken from h, the history of
// a Scratch (of an earlier checkpoint that Covers k, or of a new session)
// that folded the events up to k's. It fails when h does not hold those
// entries. h is not to be used after: its ring becomes the session's
// when it has the length k's had (turned so that the entries are where
// they were), else its entries are copied into a new one.
func (k *Checkpoint) Restore(h *History) (*Session, error) {
	kh := k.s.history
	first := k.FirstSeq()
	if h.nextSeq != kh.nextSeq || h.FirstSeq() > first {
		return nil, fmt.Errorf("restoring a checkpoint: its history held entries %d..%d, the one rebuilt %d..%d", first, kh.nextSeq, h.FirstSeq(), h.nextSeq)
	}
	bytes := 0
	for i := range kh.n {
		bytes += cost(h.BySeq(first + uint64(i)))
	}
	if bytes != kh.bytes {
		return nil, fmt.Errorf("restoring a checkpoint: the entries rebuilt take %d bytes, its history's %d", bytes, kh.bytes)
	}
	c, _ := k.s.Clone()
	switch {
	case k.ring == 0:
	case len(h.ring) == k.ring && h.n == kh.n:
		// The slots but the entries' are zero (evicted, or never
		// used): turning the ring puts the oldest at kh.head.
		rotate(h.ring, (kh.head-h.head)&(k.ring-1))
		c.history.ring = h.ring
	default:
		ring := make([]Entry, k.ring)
		for i := range kh.n {
			ring[(kh.head+i)&(k.ring-1)] = *h.BySeq(first + uint64(i))
		}
		c.history.ring = ring
	}
	h.ring, h.head, h.n, h.bytes = nil, 0, 0, 0
	return c, nil
}

// rotate moves every element of s r places to the right (0 <= r <
// len(s)), the last ones to the front.
func rotate(s []Entry, r int) {
	if r == 0 {
		return
	}
	slices.Reverse(s)
	slices.Reverse(s[:r])
	slices.Reverse(s[r:])
}
