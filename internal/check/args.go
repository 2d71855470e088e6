package check

import (
	"encoding/json"
	"strings"
)

// Arguments derived from a tool's inputSchema: a valid instance (defaults,
// enums, examples, or the smallest value of each type), a boundary one (the
// limits the schema states) and an invalid one (a required member missing,
// or one of the wrong type).

type argMode int

const (
	argsValid argMode = iota
	argsBoundary
)

// deriveArgs builds an instance of schema (a JSON object) in mode.
func deriveArgs(schema json.RawMessage, mode argMode) json.RawMessage {
	var s map[string]any
	if json.Unmarshal(schema, &s) != nil {
		return json.RawMessage(`{}`)
	}
	defs, _ := s["$defs"].(map[string]any)
	if defs == nil {
		defs, _ = s["definitions"].(map[string]any)
	}
	v := instance(s, defs, mode, 0)
	if _, ok := v.(map[string]any); !ok {
		v = map[string]any{}
	}
	b, _ := json.Marshal(v)
	return b
}

func instance(s map[string]any, defs map[string]any, mode argMode, depth int) any {
	if depth > 6 {
		return nil
	}
	if ref, ok := s["$ref"].(string); ok {
		name := ref[strings.LastIndex(ref, "/")+1:]
		if d, ok := defs[name].(map[string]any); ok {
			return instance(d, defs, mode, depth+1)
		}
	}
	if v, ok := s["const"]; ok {
		return v
	}
	if v, ok := s["default"]; ok && mode == argsValid {
		return v
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		if mode == argsBoundary {
			return e[len(e)-1]
		}
		return e[0]
	}
	if ex, ok := s["examples"].([]any); ok && len(ex) > 0 && mode == argsValid {
		return ex[0]
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		if alts, ok := s[k].([]any); ok && len(alts) > 0 {
			if a, ok := alts[0].(map[string]any); ok {
				return instance(a, defs, mode, depth+1)
			}
		}
	}
	switch typeOf(s) {
	case "object":
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		req, _ := s["required"].([]any)
		for _, r := range req {
			name, _ := r.(string)
			if p, ok := props[name].(map[string]any); ok {
				out[name] = instance(p, defs, mode, depth+1)
			} else {
				out[name] = "x"
			}
		}
		return out
	case "array":
		n := 0
		if m, ok := s["minItems"].(float64); ok {
			n = int(m)
		}
		if mode == argsBoundary {
			if m, ok := s["maxItems"].(float64); ok && m <= 10 {
				n = int(m)
			}
		}
		items, _ := s["items"].(map[string]any)
		out := []any{}
		for i := 0; i < n && i < 10; i++ {
			out = append(out, instance(items, defs, mode, depth+1))
		}
		return out
	case "string":
		n := 1
		if m, ok := s["minLength"].(float64); ok {
			n = int(m)
		}
		if mode == argsBoundary {
			if m, ok := s["maxLength"].(float64); ok && m <= 1024 {
				n = int(m)
			}
		}
		switch s["format"] {
		case "uri", "url":
			return "https://example.com/"
		case "email":
			return "check@example.com"
		case "date":
			return "2026-01-01"
		case "date-time":
			return "2026-01-01T00:00:00Z"
		}
		return strings.Repeat("a", min(n, 1024))
	case "integer", "number":
		if mode == argsBoundary {
			if m, ok := s["maximum"].(float64); ok {
				return m
			}
		}
		if m, ok := s["minimum"].(float64); ok {
			return m
		}
		if m, ok := s["exclusiveMinimum"].(float64); ok {
			return m + 1
		}
		if m, ok := s["maximum"].(float64); ok && m < 1 {
			return m
		}
		return 1
	case "boolean":
		return mode == argsBoundary
	case "null":
		return nil
	}
	return "x"
}

// typeOf is a schema's type (the first non-null one of a list).
func typeOf(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if x != "null" {
				if str, ok := x.(string); ok {
					return str
				}
			}
		}
	}
	if _, ok := s["properties"]; ok {
		return "object"
	}
	return ""
}

// invalidArgs breaks schema's instance: a required member dropped, or the
// first property given a value of the wrong type. ok is false when the
// schema accepts anything.
func invalidArgs(schema json.RawMessage) (json.RawMessage, bool) {
	var s map[string]any
	if json.Unmarshal(schema, &s) != nil {
		return nil, false
	}
	valid := map[string]any{}
	_ = json.Unmarshal(deriveArgs(schema, argsValid), &valid)
	if req, _ := s["required"].([]any); len(req) > 0 {
		name, _ := req[0].(string)
		delete(valid, name)
		b, _ := json.Marshal(valid)
		return b, true
	}
	props, _ := s["properties"].(map[string]any)
	for name, p := range props {
		ps, _ := p.(map[string]any)
		switch typeOf(ps) {
		case "string":
			valid[name] = map[string]any{"not": "a string"}
		case "integer", "number", "boolean", "array", "object":
			valid[name] = "not the right type"
		default:
			continue
		}
		b, _ := json.Marshal(valid)
		return b, true
	}
	return nil, false
}
