package httpconn

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/jsonscan"
)

// The 2026-07-28 Streamable HTTP transport mirrors tool arguments a tool
// marks with x-mcp-header into Mcp-Param-{Name} headers, and a client
// drops tools whose annotations break the spec's constraints.

// HeaderParamPrefix starts every header mirrored from a tool argument.
const HeaderParamPrefix = "Mcp-Param-"

// ParamHeader is one x-mcp-header annotation of a tool's inputSchema.
type ParamHeader struct {
	// Name is the annotation's value: the header is Mcp-Param-{Name}.
	Name string
	// Path is the chain of property names from the arguments' root.
	Path []string
}

// ParamHeaders reads a tool's x-mcp-header annotations and checks the
// spec's constraints: a non-empty RFC 9110 token, unique regardless of
// case, on a property of a primitive type, reached from the root through
// properties keys only. An error says which constraint a tool breaks; such
// a tool must not be offered.
func ParamHeaders(inputSchema json.RawMessage) ([]ParamHeader, error) {
	if len(inputSchema) == 0 {
		return nil, nil
	}
	var out []ParamHeader
	seen := map[string]string{}
	if err := walkSchema(inputSchema, nil, &out, seen); err != nil {
		return nil, err
	}
	return out, nil
}

func walkSchema(schema []byte, path []string, out *[]ParamHeader, seen map[string]string) error {
	var members map[string]jsontext.Value
	if jsonv2.Unmarshal(schema, &members) != nil {
		return nil // a boolean schema, or not a schema: nothing to mirror
	}
	if raw, ok := members["x-mcp-header"]; ok {
		if err := checkAnnotation(raw, members["type"], path, seen); err != nil {
			return err
		}
		*out = append(*out, ParamHeader{Name: jsonscan.Unquote(raw), Path: slices.Clone(path)})
	}
	keys := make([]string, 0, len(members))
	for k := range members {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		v := members[key]
		switch key {
		case "x-mcp-header":
		case "properties":
			var props map[string]jsontext.Value
			if jsonv2.Unmarshal(v, &props) != nil {
				continue
			}
			names := make([]string, 0, len(props))
			for n := range props {
				names = append(names, n)
			}
			slices.Sort(names)
			for _, n := range names {
				if err := walkSchema(props[n], append(slices.Clone(path), n), out, seen); err != nil {
					return err
				}
			}
		default:
			if hasAnnotation(v) {
				return fmt.Errorf("an x-mcp-header under %q of %s is not reachable through properties alone", key, pathName(path))
			}
		}
	}
	return nil
}

// checkAnnotation checks one x-mcp-header value and its property's type.
func checkAnnotation(raw, typ jsontext.Value, path []string, seen map[string]string) error {
	where := pathName(path)
	if len(path) == 0 {
		return errors.New("x-mcp-header on the schema's root, not on a property")
	}
	if raw.Kind() != '"' {
		return fmt.Errorf("x-mcp-header of %s is not a string", where)
	}
	name := jsonscan.Unquote(raw)
	if name == "" {
		return fmt.Errorf("x-mcp-header of %s is empty", where)
	}
	for i := 0; i < len(name); i++ {
		if !isTokenChar(name[i]) {
			return fmt.Errorf("x-mcp-header %q of %s is not an HTTP token (byte %q at %d)", name, where, name[i], i)
		}
	}
	lower := strings.ToLower(name)
	if other, dup := seen[lower]; dup {
		return fmt.Errorf("x-mcp-header %q of %s repeats the one of %s", name, where, other)
	}
	seen[lower] = where
	var t string
	if typ.Kind() == '"' {
		t = jsonscan.Unquote(typ)
	}
	switch t {
	case "string", "integer", "boolean":
		return nil
	case "":
		return fmt.Errorf("x-mcp-header %q is on %s, which has no single primitive type", name, where)
	}
	return fmt.Errorf("x-mcp-header %q is on %s, of type %s: only string, integer and boolean may be mirrored", name, where, t)
}

func pathName(path []string) string {
	if len(path) == 0 {
		return "the schema"
	}
	return "property " + strings.Join(path, ".")
}

// hasAnnotation reports whether an x-mcp-header member is anywhere in v.
func hasAnnotation(v jsontext.Value) bool {
	var found bool
	var walk func(b []byte)
	walk = func(b []byte) {
		if found {
			return
		}
		switch b[jsonscan.SkipSpace(b, 0)] {
		case '{':
			_ = jsonscan.EachMember(b, func(name, _, value []byte) error {
				if string(name) == "x-mcp-header" {
					found = true
				}
				walk(value)
				return nil
			})
		case '[':
			var items []jsontext.Value
			if jsonv2.Unmarshal(b, &items) == nil {
				for _, it := range items {
					walk(it)
				}
			}
		}
	}
	if len(v) > 0 {
		walk(v)
	}
	return found
}

// isTokenChar is RFC 9110's tchar.
func isTokenChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// EncodeHeaderValue is the spec's value encoding for Mcp-Name and
// Mcp-Param-*: the value as it is when it is plain visible ASCII (spaces
// inside allowed), otherwise, or when it looks like the sentinel itself,
// =?base64?{Base64 of its UTF-8}?=.
func EncodeHeaderValue(s string) string {
	if needsEncoding(s) {
		return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?="
	}
	return s
}

func needsEncoding(s string) bool {
	if s != strings.Trim(s, " \t") {
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return true
		}
	}
	return strings.HasPrefix(s, "=?base64?") && strings.HasSuffix(s, "?=")
}

// paramHeaders sets the Mcp-Param-* headers of a tools/call's arguments
// for a tool whose annotations are known; a null or absent value, or one
// that is not a primitive, sends no header.
func paramHeaders(h http.Header, headers []ParamHeader, arguments []byte) {
	for _, ph := range headers {
		v := arguments
		for _, name := range ph.Path {
			if v = jsonscan.Member(v, name); v == nil {
				break
			}
		}
		if len(v) == 0 {
			continue
		}
		var s string
		switch v[0] {
		case '"':
			s = jsonscan.Unquote(v)
		case 't', 'f':
			s = string(v)
		case 'n', '{', '[':
			continue
		default: // a number, as the body writes it
			s = string(v)
		}
		h[HeaderParamPrefix+ph.Name] = []string{EncodeHeaderValue(s)}
	}
}

// learnTools keeps the annotations of the tools a tools/list result lists
// (valid ones; an invalid tool is forgotten, so none of its headers go
// out). Pages add to what earlier ones taught.
func (c *Conn) learnTools(result []byte) {
	tools := jsonscan.Member(result, "tools")
	if len(tools) == 0 || tools[0] != '[' {
		return
	}
	var items []jsontext.Value
	if jsonv2.Unmarshal(tools, &items) != nil {
		return
	}
	learned := make(map[string][]ParamHeader, len(items))
	rejected := map[string]bool{}
	for _, it := range items {
		name := jsonscan.Member(it, "name")
		if len(name) == 0 || name[0] != '"' {
			continue
		}
		hs, err := ParamHeaders(jsonscan.Member(it, "inputSchema"))
		if err != nil {
			rejected[jsonscan.Unquote(name)] = true
			continue
		}
		learned[jsonscan.Unquote(name)] = hs
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.toolHeaders == nil {
		c.toolHeaders = map[string][]ParamHeader{}
	}
	for n := range rejected {
		delete(c.toolHeaders, n)
	}
	for n, hs := range learned {
		c.toolHeaders[n] = hs
	}
}

// KnowsTool reports whether a tools/list answer has taught the
// connection the tool's headers (a valid tool).
func (c *Conn) KnowsTool(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.toolHeaders[name]
	return ok
}
