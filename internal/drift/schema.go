package drift

import (
	"encoding/json"
	"math/big"
	"reflect"
	"slices"
	"strings"
)

// direction says which way values flow through a schema: a client sends
// what an input schema describes (narrowing it breaks clients) and
// receives what an output schema describes (widening it, or taking a
// promised field away, breaks them).
type direction int

const (
	input direction = iota
	output
)

// schemaKeywords are the keywords schema handles itself; a change to any
// other is reported as a risky schema change.
var schemaKeywords = []string{"type", "enum", "properties", "required", "additionalProperties", "items",
	"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems",
	"pattern", "format", "description", "title", "default", "$schema", "examples"}

// schema compares two JSON Schemas at path.
func (c *comparer) schema(subject, path string, va, vb any, dir direction) {
	a, b := asMap(va), asMap(vb)
	if a == nil || b == nil {
		if !reflect.DeepEqual(va, vb) {
			c.add(Change{Class: Risky, Kind: "schema-changed", Subject: subject, Path: path, Message: "schema changed", Before: short(va), After: short(vb)})
		}
		return
	}
	c.types(subject, path, a, b, dir)
	c.enum(subject, path, a, b, dir)
	c.properties(subject, path, a, b, dir)
	c.additional(subject, path, a, b, dir)
	if a["items"] != nil || b["items"] != nil {
		if a["items"] != nil && b["items"] != nil {
			c.schema(subject, path+"[]", a["items"], b["items"], dir)
		} else if dir == input && a["items"] == nil {
			c.add(Change{Class: Breaking, Kind: "type-narrowed", Subject: subject, Path: path + "[]", Message: "array items constrained", After: short(b["items"])})
		} else {
			c.add(Change{Class: Risky, Kind: "schema-changed", Subject: subject, Path: path + "[]", Message: "array items changed", Before: short(a["items"]), After: short(b["items"])})
		}
	}
	c.bounds(subject, path, a, b, dir)
	for _, k := range []string{"pattern", "format", "default"} {
		if !reflect.DeepEqual(a[k], b[k]) {
			c.add(Change{Class: Risky, Kind: k + "-changed", Subject: subject, Path: path + "." + k, Message: k + " changed", Before: short(a[k]), After: short(b[k])})
		}
	}
	c.text(subject, path+".description", "description", str(a["description"]), str(b["description"]))
	c.text(subject, path+".title", "title", str(a["title"]), str(b["title"]))
	for _, k := range sortedKeys(a, b) {
		if slices.Contains(schemaKeywords, k) || reflect.DeepEqual(a[k], b[k]) {
			continue
		}
		c.add(Change{Class: Risky, Kind: "schema-changed", Subject: subject, Path: path + "." + k, Message: k + " changed", Before: short(a[k]), After: short(b[k])})
	}
}

// typeSet is a schema's "type" as a set; nil means any type.
func typeSet(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		slices.Sort(out)
		return out
	}
	return nil
}

// covers reports whether every type of sub is allowed by set (nil set:
// any type; number allows integer).
func covers(set, sub []string) bool {
	if set == nil {
		return true
	}
	if sub == nil {
		return false
	}
	for _, t := range sub {
		if !slices.Contains(set, t) && (t != "integer" || !slices.Contains(set, "number")) {
			return false
		}
	}
	return true
}

func (c *comparer) types(subject, path string, a, b map[string]any, dir direction) {
	ta, tb := typeSet(a["type"]), typeSet(b["type"])
	if reflect.DeepEqual(ta, tb) {
		return
	}
	show := func(t []string) string {
		if t == nil {
			return "any"
		}
		return strings.Join(t, "|")
	}
	ch := Change{Subject: subject, Path: path + ".type", Before: show(ta), After: show(tb)}
	widened, narrowed := covers(tb, ta), covers(ta, tb)
	switch {
	case widened && dir == input, narrowed && dir == output:
		ch.Class, ch.Kind, ch.Message = Additive, "type-widened", "type widened from "+show(ta)+" to "+show(tb)
		if dir == output {
			ch.Kind, ch.Message = "type-narrowed", "type narrowed from "+show(ta)+" to "+show(tb)
		}
	case narrowed:
		ch.Class, ch.Kind, ch.Message = Breaking, "type-narrowed", "type narrowed from "+show(ta)+" to "+show(tb)
	case widened:
		ch.Class, ch.Kind, ch.Message = Breaking, "type-widened", "type widened from "+show(ta)+" to "+show(tb)+": clients may receive what they do not expect"
	default:
		ch.Class, ch.Kind, ch.Message = Breaking, "type-changed", "type changed from "+show(ta)+" to "+show(tb)
	}
	c.add(ch)
}

func (c *comparer) enum(subject, path string, a, b map[string]any, dir direction) {
	ea, eb := asSlice(a["enum"]), asSlice(b["enum"])
	if reflect.DeepEqual(ea, eb) {
		return
	}
	p := path + ".enum"
	switch {
	case a["enum"] == nil:
		cl := Breaking
		if dir == output {
			cl = Additive
		}
		c.add(Change{Class: cl, Kind: "enum-added", Subject: subject, Path: p, Message: "values restricted to an enum", After: short(eb)})
		return
	case b["enum"] == nil:
		cl := Additive
		if dir == output {
			cl = Risky
		}
		c.add(Change{Class: cl, Kind: "enum-removed", Subject: subject, Path: p, Message: "enum restriction lifted", Before: short(ea)})
		return
	}
	for _, v := range ea {
		if !containsValue(eb, v) {
			cl := Breaking
			if dir == output {
				cl = Additive
			}
			c.add(Change{Class: cl, Kind: "enum-value-removed", Subject: subject, Path: p, Message: "enum value " + short(v) + " removed", Before: short(v)})
		}
	}
	for _, v := range eb {
		if !containsValue(ea, v) {
			cl := Additive
			if dir == output {
				cl = Risky
			}
			c.add(Change{Class: cl, Kind: "enum-value-added", Subject: subject, Path: p, Message: "enum value " + short(v) + " added", After: short(v)})
		}
	}
}

func containsValue(list []any, v any) bool {
	return slices.ContainsFunc(list, func(x any) bool { return reflect.DeepEqual(x, v) })
}

func (c *comparer) properties(subject, path string, a, b map[string]any, dir direction) {
	pa, pb := asMap(a["properties"]), asMap(b["properties"])
	ra, rb := stringSet(a["required"]), stringSet(b["required"])
	for _, k := range sortedKeys(pa, pb) {
		p := path + ".properties." + k
		_, inA := pa[k]
		_, inB := pb[k]
		reqA, reqB := slices.Contains(ra, k), slices.Contains(rb, k)
		switch {
		case inA && !inB && dir == input:
			c.add(Change{Class: Risky, Kind: "argument-removed", Subject: subject, Path: p, Message: "argument " + k + " removed: clients that send it may be refused or ignored"})
		case inA && !inB:
			c.add(Change{Class: Breaking, Kind: "output-field-removed", Subject: subject, Path: p, Message: "output field " + k + " removed"})
		case !inA && inB && dir == input && reqB:
			c.add(Change{Class: Breaking, Kind: "required-argument-added", Subject: subject, Path: p, Message: "required argument " + k + " added"})
		case !inA && inB && dir == input:
			c.add(Change{Class: Additive, Kind: "optional-argument-added", Subject: subject, Path: p, Message: "optional argument " + k + " added"})
		case !inA && inB:
			c.add(Change{Class: Additive, Kind: "output-field-added", Subject: subject, Path: p, Message: "output field " + k + " added"})
		default:
			switch {
			case !reqA && reqB && dir == input:
				c.add(Change{Class: Breaking, Kind: "argument-made-required", Subject: subject, Path: p, Message: "argument " + k + " is now required"})
			case reqA && !reqB && dir == input:
				c.add(Change{Class: Additive, Kind: "argument-made-optional", Subject: subject, Path: p, Message: "argument " + k + " is now optional"})
			case reqA && !reqB:
				c.add(Change{Class: Breaking, Kind: "output-field-made-optional", Subject: subject, Path: p, Message: "output field " + k + " is no longer required"})
			case !reqA && reqB:
				c.add(Change{Class: Additive, Kind: "output-field-made-required", Subject: subject, Path: p, Message: "output field " + k + " is now always present"})
			}
			c.schema(subject, p, pa[k], pb[k], dir)
		}
	}
	// A required name without a property of its own.
	for _, k := range rb {
		if _, ok := pb[k]; !ok && !slices.Contains(ra, k) && dir == input {
			c.add(Change{Class: Breaking, Kind: "required-argument-added", Subject: subject, Path: path + ".required", Message: "required argument " + k + " added"})
		}
	}
}

func stringSet(v any) []string {
	var out []string
	for _, x := range asSlice(v) {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// open reports whether a schema's additionalProperties lets other members
// through (absent, true or a schema).
func open(m map[string]any) bool {
	v, ok := m["additionalProperties"]
	return !ok || v != false
}

func (c *comparer) additional(subject, path string, a, b map[string]any, dir direction) {
	oa, ob := open(a), open(b)
	p := path + ".additionalProperties"
	switch {
	case oa && !ob && dir == input:
		c.add(Change{Class: Breaking, Kind: "additional-properties-closed", Subject: subject, Path: p, Message: "additionalProperties closed: arguments it does not name are refused"})
	case oa && !ob:
		c.add(Change{Class: Additive, Kind: "additional-properties-closed", Subject: subject, Path: p, Message: "additionalProperties closed"})
	case !oa && ob && dir == input:
		c.add(Change{Class: Additive, Kind: "additional-properties-opened", Subject: subject, Path: p, Message: "additionalProperties opened"})
	case !oa && ob:
		c.add(Change{Class: Risky, Kind: "additional-properties-opened", Subject: subject, Path: p, Message: "additionalProperties opened: results may carry fields clients do not expect"})
	case oa && ob && !reflect.DeepEqual(a["additionalProperties"], b["additionalProperties"]):
		if asMap(a["additionalProperties"]) != nil && asMap(b["additionalProperties"]) != nil {
			c.schema(subject, p, a["additionalProperties"], b["additionalProperties"], dir)
		} else {
			c.add(Change{Class: Risky, Kind: "schema-changed", Subject: subject, Path: p, Message: "additionalProperties changed", Before: short(a["additionalProperties"]), After: short(b["additionalProperties"])})
		}
	}
}

// bounds compares the numeric and length bounds: a tighter bound on an
// input is breaking, a looser one additive; on an output the reverse is
// risky.
func (c *comparer) bounds(subject, path string, a, b map[string]any, dir direction) {
	for _, k := range []string{"minimum", "exclusiveMinimum", "minLength", "minItems", "maximum", "exclusiveMaximum", "maxLength", "maxItems"} {
		na, okA := number(a[k])
		nb, okB := number(b[k])
		if !okA && !okB || okA && okB && na.Cmp(nb) == 0 {
			continue
		}
		lower := strings.HasPrefix(k, "min") || strings.HasPrefix(k, "exclusiveMin")
		var tighter bool
		switch {
		case !okA:
			tighter = true
		case !okB:
			tighter = false
		case lower:
			tighter = nb.Cmp(na) > 0
		default:
			tighter = nb.Cmp(na) < 0
		}
		ch := Change{Subject: subject, Path: path + "." + k, Before: short(a[k]), After: short(b[k])}
		switch {
		case tighter && dir == input:
			ch.Class, ch.Kind, ch.Message = Breaking, "constraint-narrowed", k+" tightened"
		case tighter:
			ch.Class, ch.Kind, ch.Message = Additive, "constraint-narrowed", k+" tightened"
		case dir == input:
			ch.Class, ch.Kind, ch.Message = Additive, "constraint-relaxed", k+" relaxed"
		default:
			ch.Class, ch.Kind, ch.Message = Risky, "constraint-relaxed", k+" relaxed: results may fall outside the old bound"
		}
		c.add(ch)
	}
}

// number is v as a number (json.Number as decoded, exactly).
func number(v any) (*big.Float, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return nil, false
	}
	f, _, err := big.ParseFloat(string(n), 10, 200, big.ToNearestEven)
	if err != nil {
		return nil, false
	}
	return f, true
}
