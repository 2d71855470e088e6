package verify

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/snapshot"
)

// listKeys are the lists whose order means nothing, with the member that
// keys their items.
var listKeys = map[string]string{"tools": "name", "prompts": "name", "resources": "uri", "resourceTemplates": "uriTemplate"}

// compare is the differences between a recorded answer and a new one
// (the whole message but its id and jsonrpc members).
func (r *Report) compare(method string, recorded, now []byte) []Difference {
	a, b := normalise(recorded), normalise(now)
	delete(a, "id")
	delete(b, "id")
	delete(a, "jsonrpc")
	delete(b, "jsonrpc")
	var out []Difference
	r.walk("", a, b, &out)
	return out
}

// compareParams is the differences between the params of a question the
// server asked in the recording and the new build's.
func (r *Report) compareParams(recorded, now json.RawMessage) []Difference {
	wrap := func(p json.RawMessage) []byte {
		if len(p) == 0 {
			p = json.RawMessage("null")
		}
		return []byte(`{"params":` + string(p) + `}`)
	}
	var out []Difference
	r.walk("", normalise(wrap(recorded)), normalise(wrap(now)), &out)
	return out
}

// normalise decodes a message with what varies taken out: _meta objects
// (trace ids, timings), timestamps, requestState (opaque, signed per
// run), and the order of list items.
func normalise(raw []byte) map[string]any {
	v, err := snapshot.Decode(raw)
	if err != nil {
		return map[string]any{"(unparsable)": string(raw)}
	}
	m, _ := clean(v).(map[string]any)
	return m
}

func clean(v any) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "_meta")
		if _, ok := x["requestState"].(string); ok {
			x["requestState"] = "<opaque>" // signed by the server per run
		}
		for k, m := range x {
			x[k] = clean(m)
			if key, ok := listKeys[k]; ok {
				if arr, ok := x[k].([]any); ok {
					sort.SliceStable(arr, func(i, j int) bool { return itemKey(arr[i], key) < itemKey(arr[j], key) })
				}
			}
		}
		return x
	case []any:
		for i := range x {
			x[i] = clean(x[i])
		}
		return x
	case string:
		if isTimestamp(x) {
			return "<timestamp>"
		}
	}
	return v
}

func itemKey(v any, key string) string {
	m, _ := v.(map[string]any)
	s, _ := m[key].(string)
	return s
}

// isTimestamp reports whether s is an RFC 3339 time.
func isTimestamp(s string) bool {
	if len(s) < 20 || len(s) > 40 || s[4] != '-' || s[10] != 'T' {
		return false
	}
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// walk lists where a and b differ, skipping the ignore paths.
func (r *Report) walk(path string, a, b any, out *[]Difference) {
	if r.ignored(path) || reflect.DeepEqual(a, b) {
		return
	}
	ma, okA := a.(map[string]any)
	mb, okB := b.(map[string]any)
	if okA && okB {
		keys := map[string]bool{}
		for k := range ma {
			keys[k] = true
		}
		for k := range mb {
			keys[k] = true
		}
		var sorted []string
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			va, inA := ma[k]
			vb, inB := mb[k]
			p := path + "." + k
			switch {
			case r.ignored(p):
			case !inA:
				*out = append(*out, Difference{Path: p, After: show(vb)})
			case !inB:
				*out = append(*out, Difference{Path: p, Before: show(va)})
			default:
				r.walk(p, va, vb, out)
			}
		}
		return
	}
	sa, okA := a.([]any)
	sb, okB := b.([]any)
	if okA && okB {
		for i := 0; i < max(len(sa), len(sb)); i++ {
			p := fmt.Sprintf("%s[%d]", path, i)
			switch {
			case i >= len(sa):
				if !r.ignored(p) {
					*out = append(*out, Difference{Path: p, After: show(sb[i])})
				}
			case i >= len(sb):
				if !r.ignored(p) {
					*out = append(*out, Difference{Path: p, Before: show(sa[i])})
				}
			default:
				r.walk(p, sa[i], sb[i], out)
			}
		}
		return
	}
	if path == "" {
		path = "."
	}
	*out = append(*out, Difference{Path: path, Before: show(a), After: show(b)})
}

// show is v as compact JSON, clipped.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// splitPath splits .a.b[].c[2] into a, b, [], c, [2].
func splitPath(p string) []string {
	var out []string
	for _, part := range strings.Split(strings.TrimPrefix(p, "."), ".") {
		for part != "" {
			i := strings.Index(part, "[")
			switch {
			case i < 0:
				out = append(out, part)
				part = ""
			case i > 0:
				out = append(out, part[:i])
				part = part[i:]
			default:
				j := strings.Index(part, "]")
				if j < 0 {
					out = append(out, part)
					part = ""
					continue
				}
				out = append(out, part[:j+1])
				part = part[j+1:]
			}
		}
	}
	return out
}

// ignored reports whether path is under one of the ignore paths ([]
// matches any index).
func (r *Report) ignored(path string) bool {
	if path == "" || len(r.ignore) == 0 {
		return false
	}
	segs := splitPath(path)
	for _, ig := range r.ignore {
		if len(ig) > len(segs) {
			continue
		}
		match := true
		for i, s := range ig {
			if s != segs[i] && !(s == "[]" && strings.HasPrefix(segs[i], "[")) {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
