package hostprofile

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// SchemaProblem is one construct of an inputSchema a dialect refuses.
type SchemaProblem struct {
	// Pointer is the JSON pointer of the offending subschema inside the
	// inputSchema ("" is the schema itself).
	Pointer string `json:"pointer"`
	// Problem says what is refused; Fix what to write instead.
	Problem string `json:"problem"`
	Fix     string `json:"fix"`
}

// CheckSchema returns what dialect d refuses in schema (a tool's
// inputSchema as listed), in document order. A schema that is not JSON is
// none of this package's business (check's own rules judge it).
func CheckSchema(d Dialect, schema json.RawMessage) []SchemaProblem {
	if d == DialectAny {
		return nil
	}
	var v any
	if json.Unmarshal(schema, &v) != nil {
		return nil
	}
	var out []SchemaProblem
	walk(v, "", func(ptr string, s map[string]any) {
		switch d {
		case DialectGemini:
			out = append(out, gemini(ptr, s)...)
		case DialectOpenAIStrict:
			out = append(out, openAIStrict(ptr, s)...)
		}
	})
	return out
}

// gemini is Gemini's function-declaration subset: an array names its
// items, a type is one string, an array's items are of one type, and
// properties belong to objects (github/copilot-cli#4623,
// google-gemini/gemini-cli#23382, backstage/backstage#34038; field
// research §4).
func gemini(ptr string, s map[string]any) []SchemaProblem {
	var out []SchemaProblem
	types := typeNames(s["type"])
	if _, isList := s["type"].([]any); isList {
		out = append(out, SchemaProblem{ptr, fmt.Sprintf("\"type\" is an array %v", types),
			`give one type; for an optional value leave the property out of "required" instead of adding "null"`})
	}
	if slices.Contains(types, "array") {
		items, has := s["items"]
		switch it, _ := items.(map[string]any); {
		case !has:
			out = append(out, SchemaProblem{ptr, `array without "items"`, `add "items": {"type": "string"} (or the type its elements have)`})
		case it != nil && isUnion(it):
			out = append(out, SchemaProblem{ptr + "/items", `array "items" is a union (` + unionKind(it) + `)`,
				"give the items one type; split the parameter in two, or accept a string and parse it"})
		}
	}
	// A boolean schema (true: anything) where Gemini wants an object
	// (github/copilot-cli#4623: "Convert boolean schema true to the
	// semantically equivalent empty schema {}" restored Gemini).
	if props, ok := s["properties"].(map[string]any); ok {
		keys := make([]string, 0, len(props))
		for n := range props {
			keys = append(keys, n)
		}
		sort.Strings(keys)
		for _, n := range keys {
			if b, ok := props[n].(bool); ok {
				out = append(out, SchemaProblem{ptr + "/properties/" + escape(n), fmt.Sprintf("a boolean schema (%v) instead of an object", b), "write {} for \"any value\" instead of true"})
			}
		}
	}
	if b, ok := s["items"].(bool); ok {
		out = append(out, SchemaProblem{ptr + "/items", fmt.Sprintf("a boolean schema (%v) instead of an object", b), "write {} for \"any value\" instead of true"})
	}
	if _, has := s["properties"]; has && len(types) > 0 && !slices.Contains(types, "object") {
		out = append(out, SchemaProblem{ptr, fmt.Sprintf(`"properties" on a schema of type %v`, types), `put "properties" only on "type": "object"`})
	}
	return out
}

func isUnion(s map[string]any) bool { return unionKind(s) != "" }

func unionKind(s map[string]any) string {
	if l, ok := s["type"].([]any); ok && len(l) > 1 {
		return fmt.Sprintf("type %v", typeNames(s["type"]))
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if _, ok := s[k]; ok {
			return k
		}
	}
	return ""
}

// openAIStrict is OpenAI's strict mode: every object sets
// "additionalProperties": false and lists every property in "required"
// (issue 27; OpenAI's Structured Outputs subset).
func openAIStrict(ptr string, s map[string]any) []SchemaProblem {
	props, hasProps := s["properties"].(map[string]any)
	if !slices.Contains(typeNames(s["type"]), "object") && !hasProps {
		return nil
	}
	var out []SchemaProblem
	if ap, ok := s["additionalProperties"].(bool); !ok || ap {
		out = append(out, SchemaProblem{ptr, `object without "additionalProperties": false`, `add "additionalProperties": false`})
	}
	req := map[string]bool{}
	if l, ok := s["required"].([]any); ok {
		for _, r := range l {
			if n, ok := r.(string); ok {
				req[n] = true
			}
		}
	}
	var missing []string
	for n := range props {
		if !req[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		out = append(out, SchemaProblem{ptr, fmt.Sprintf("properties not in \"required\": %s", strings.Join(missing, ", ")),
			`list every property in "required"; make an optional one nullable ("type": ["string", "null"]) instead`})
	}
	return out
}

// typeNames is a schema's "type" as a list of names.
func typeNames(t any) []string {
	switch t := t.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// walk calls f on every subschema of v with its JSON pointer: the schema,
// its properties, items, the members of anyOf/oneOf/allOf, an object
// additionalProperties, and $defs/definitions.
func walk(v any, ptr string, f func(string, map[string]any)) {
	s, ok := v.(map[string]any)
	if !ok {
		return
	}
	f(ptr, s)
	for _, k := range []string{"properties", "$defs", "definitions", "patternProperties"} {
		if m, ok := s[k].(map[string]any); ok {
			keys := make([]string, 0, len(m))
			for n := range m {
				keys = append(keys, n)
			}
			sort.Strings(keys)
			for _, n := range keys {
				walk(m[n], ptr+"/"+k+"/"+escape(n), f)
			}
		}
	}
	for _, k := range []string{"items", "additionalProperties", "not"} {
		walk(s[k], ptr+"/"+k, f)
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf", "prefixItems"} {
		if l, ok := s[k].([]any); ok {
			for i, x := range l {
				walk(x, fmt.Sprintf("%s/%s/%d", ptr, k, i), f)
			}
		}
	}
	if l, ok := s["items"].([]any); ok {
		for i, x := range l {
			walk(x, fmt.Sprintf("%s/items/%d", ptr, i), f)
		}
	}
}

// escape is a JSON pointer token (RFC 6901).
func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
