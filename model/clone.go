package model

import (
	"reflect"
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
}

type ptrKey struct {
	p uintptr
	t reflect.Type
}

// immutable says a type's package makes values the model only reads once
// made: times and their locations, compiled expressions and schemas.
func immutable(t reflect.Type) bool {
	switch t.PkgPath() {
	case "time", "regexp", "regexp/syntax", "github.com/santhosh-tekuri/jsonschema/v6":
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
		for i := range src.NumField() {
			c.copy(settable(dst, i), settable(src, i))
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		if t.Elem().Kind() == reflect.Uint8 {
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
	default: // strings, numbers, booleans, functions, channels
		dst.Set(src)
	}
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
