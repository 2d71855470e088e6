package headless

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
)

// outcome is what a step produced, for its expectations: a result, or an
// error (as a JSON-RPC error object).
type outcome struct {
	value   any // the decoded result, or the error object
	raw     json.RawMessage
	err     error
	rpc     *RPCError
	isError bool
}

// decode parses JSON keeping numbers exact.
func decode(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// check evaluates e against o and returns why it failed ("" when it held).
func (e *Expect) check(o *outcome) string {
	switch e.Kind {
	case "ok":
		switch {
		case o.err != nil:
			return fmt.Sprintf("failed: %v", o.err)
		case o.isError:
			return "the tool returned isError: " + toolErrorText(o.raw)
		}
		return ""
	case "isError":
		if o.err != nil {
			return fmt.Sprintf("failed: %v", o.err)
		}
		if !o.isError {
			return "the tool did not return isError"
		}
		return ""
	case "error":
		switch {
		case o.err == nil:
			return "it succeeded"
		case e.Code != nil && (o.rpc == nil || o.rpc.Code != *e.Code):
			got := "no JSON-RPC code"
			if o.rpc != nil {
				got = fmt.Sprintf("code %d", o.rpc.Code)
			}
			return fmt.Sprintf("%s (%v)", got, o.err)
		}
		return ""
	}
	node, found := walk(o.value, e.Path)
	switch e.Op {
	case "exists":
		if !found {
			return "absent"
		}
		return ""
	case "absent":
		if found {
			return "present: " + show(node)
		}
		return ""
	}
	if !found {
		return "the path is absent"
	}
	want, _ := decode(e.Value)
	switch e.Op {
	case "==":
		if !equal(node, want) {
			return "got " + show(node)
		}
	case "!=":
		if equal(node, want) {
			return "got " + show(node)
		}
	case "contains":
		if !contains(node, want) {
			return "got " + show(node)
		}
	case "matches":
		s, ok := node.(string)
		if !ok {
			return "not a string: " + show(node)
		}
		if !e.re.MatchString(s) {
			return "got " + show(node)
		}
	default:
		a, ok1 := number(node)
		b, _ := number(want)
		if !ok1 {
			return "not a number: " + show(node)
		}
		held := map[string]bool{"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[e.Op]
		if !held {
			return "got " + show(node)
		}
	}
	return ""
}

// walk follows path from v.
func walk(v any, path []pathElem) (any, bool) {
	for _, p := range path {
		switch x := v.(type) {
		case map[string]any:
			if p.isIdx {
				return nil, false
			}
			next, ok := x[p.key]
			if !ok {
				if p.key == "length" {
					v = json.Number(fmt.Sprint(len(x)))
					continue
				}
				return nil, false
			}
			v = next
		case []any:
			switch {
			case p.isIdx && p.index >= 0 && p.index < len(x):
				v = x[p.index]
			case p.isIdx && p.index < 0 && -p.index <= len(x):
				v = x[len(x)+p.index]
			case !p.isIdx && p.key == "length":
				v = json.Number(fmt.Sprint(len(x)))
			default:
				return nil, false
			}
		case string:
			if p.isIdx || p.key != "length" {
				return nil, false
			}
			v = json.Number(fmt.Sprint(utf8.RuneCountInString(x)))
		default:
			return nil, false
		}
	}
	return v, true
}

func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// equal compares JSON values; numbers by value.
func equal(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !equal(v, w) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// contains: a substring of a string (a number or boolean counts by its
// JSON text), an element of an array, a key of an object.
func contains(node, want any) bool {
	switch x := node.(type) {
	case string:
		switch w := want.(type) {
		case string:
			return strings.Contains(x, w)
		case json.Number:
			return strings.Contains(x, w.String())
		case bool:
			return strings.Contains(x, fmt.Sprint(w))
		}
		return false
	case []any:
		for _, el := range x {
			if equal(el, want) {
				return true
			}
		}
	case map[string]any:
		s, ok := want.(string)
		if ok {
			_, has := x[s]
			return has
		}
	}
	return false
}

// show is a value in a failure message, shortened.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}
