// Package snapshot captures an MCP server's surface — its identity, the
// negotiated version, capabilities, instructions, tools, resources,
// resource templates and prompts — as one JSON document that is stable
// enough to diff: every list followed to its last page, items sorted by
// their key, object members sorted, sets (a schema's "required") sorted,
// so two snapshots of the same server are byte-identical.
//
// A surface comes from a live server (Capture), from a recording's list
// answers (FromRecording) or from a snapshot file (Parse); internal/drift
// compares two of them.
package snapshot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mcptui/mcptui/mcp"
)

// Format and Version name the document's format.
const (
	Format  = "mcptui-snapshot"
	Version = 1
)

// Document is a snapshot: one surface per protocol revision captured.
type Document struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Eras    []Surface `json:"eras"`
}

// Surface is what a server offers on one protocol revision. Items are the
// server's JSON as sent, normalised (see Normalize).
type Surface struct {
	Protocol          string            `json:"protocol"`
	Server            json.RawMessage   `json:"server,omitempty"`
	Capabilities      json.RawMessage   `json:"capabilities,omitempty"`
	Instructions      string            `json:"instructions,omitempty"`
	Tools             []json.RawMessage `json:"tools,omitzero"`
	Resources         []json.RawMessage `json:"resources,omitzero"`
	ResourceTemplates []json.RawMessage `json:"resourceTemplates,omitzero"`
	Prompts           []json.RawMessage `json:"prompts,omitzero"`
	// Errors are the lists the server declared and failed to give, by
	// method, with the error.
	Errors map[string]string `json:"errors,omitempty"`
}

// Lists are the list methods of a surface, with the member of the result
// that holds the items and the member of an item that keys it.
var Lists = []struct{ Method, Field, Key string }{
	{mcp.MethodListTools, "tools", "name"},
	{mcp.MethodListResources, "resources", "uri"},
	{mcp.MethodListResourceTemplates, "resourceTemplates", "uriTemplate"},
	{mcp.MethodListPrompts, "prompts", "name"},
}

// items is the surface's list for field.
func (s *Surface) items(field string) *[]json.RawMessage {
	switch field {
	case "tools":
		return &s.Tools
	case "resources":
		return &s.Resources
	case "resourceTemplates":
		return &s.ResourceTemplates
	case "prompts":
		return &s.Prompts
	}
	panic("snapshot: no list " + field)
}

// Items is the surface's list for field ("tools", "resources",
// "resourceTemplates", "prompts").
func (s *Surface) Items(field string) []json.RawMessage { return *s.items(field) }

// Capture connects to the server and captures its surface: on the
// negotiated revision when eras is nil, else on each of eras the server
// accepts (revisions it refuses are left out; none accepted is an error).
func Capture(ctx context.Context, command string, args []string, opts mcp.Options, eras []string) (*Document, error) {
	doc := &Document{Format: Format, Version: Version}
	if eras == nil {
		c, err := mcp.Connect(ctx, command, args, opts)
		if err != nil {
			return nil, fmt.Errorf("connecting: %w", err)
		}
		defer c.Shutdown(time.Second)
		s, err := Take(ctx, c)
		if err != nil {
			return nil, err
		}
		doc.Eras = append(doc.Eras, s)
		return doc, nil
	}
	var refused []string
	for _, era := range eras {
		o := opts
		o.Versions = []string{era}
		c, err := mcp.Connect(ctx, command, args, o)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			refused = append(refused, fmt.Sprintf("%s: %v", era, err))
			continue
		}
		s, err := Take(ctx, c)
		c.Shutdown(time.Second)
		if err != nil {
			refused = append(refused, fmt.Sprintf("%s: %v", era, err))
			continue
		}
		doc.Eras = append(doc.Eras, s)
	}
	if len(doc.Eras) == 0 {
		return nil, fmt.Errorf("the server accepts none of %s: %s", strings.Join(eras, ", "), strings.Join(refused, "; "))
	}
	return doc, nil
}

// Take captures the surface of a connected client.
func Take(ctx context.Context, c *mcp.Client) (Surface, error) {
	sess := c.Session()
	if mcp.Stateless(sess.Version) && sess.DiscoverResult == nil {
		// A pinned 2026-07-28 connection has sent nothing yet.
		if _, err := c.Discover(ctx); err != nil {
			return Surface{}, fmt.Errorf("server/discover: %w", err)
		}
		sess = c.Session()
	}
	s := Surface{Protocol: mcp.CanonicalVersion(sess.Version), Instructions: sess.Instructions}
	if len(sess.Server.Raw) > 0 {
		s.Server = sess.Server.Raw
	} else if sess.Server.Name != "" {
		s.Server, _ = json.Marshal(map[string]string{"name": sess.Server.Name, "version": sess.Server.Version})
	}
	s.Capabilities = sess.Capabilities.Raw
	for _, l := range Lists {
		raws, err := list(ctx, c, l.Method)
		var nd *mcp.NotDeclaredError
		switch {
		case errors.As(err, &nd):
			continue
		case err != nil:
			if ctx.Err() != nil {
				return Surface{}, ctx.Err()
			}
			if s.Errors == nil {
				s.Errors = map[string]string{}
			}
			s.Errors[l.Method] = err.Error()
			continue
		}
		if raws == nil {
			raws = []json.RawMessage{}
		}
		*s.items(l.Field) = raws
	}
	return s, s.normalize()
}

// list is one list's items as the server sent them.
func list(ctx context.Context, c *mcp.Client, method string) ([]json.RawMessage, error) {
	var out []json.RawMessage
	switch method {
	case mcp.MethodListTools:
		l, err := c.ListTools(ctx)
		for _, it := range l.Items {
			out = append(out, it.Raw)
		}
		return out, err
	case mcp.MethodListResources:
		l, err := c.ListResources(ctx)
		for _, it := range l.Items {
			out = append(out, it.Raw)
		}
		return out, err
	case mcp.MethodListResourceTemplates:
		l, err := c.ListResourceTemplates(ctx)
		for _, it := range l.Items {
			out = append(out, it.Raw)
		}
		return out, err
	case mcp.MethodListPrompts:
		l, err := c.ListPrompts(ctx)
		for _, it := range l.Items {
			out = append(out, it.Raw)
		}
		return out, err
	}
	return nil, fmt.Errorf("snapshot: no list %s", method)
}

// normalize puts every member in its stable form and sorts the lists.
func (s *Surface) normalize() error {
	var err error
	if s.Server, err = Normalize(s.Server); err != nil {
		return fmt.Errorf("serverInfo: %w", err)
	}
	if s.Capabilities, err = Normalize(s.Capabilities); err != nil {
		return fmt.Errorf("capabilities: %w", err)
	}
	for _, l := range Lists {
		items := s.items(l.Field)
		for i, raw := range *items {
			if (*items)[i], err = Normalize(raw); err != nil {
				return fmt.Errorf("%s: %w", l.Method, err)
			}
		}
		sort.SliceStable(*items, func(i, j int) bool { return Key((*items)[i], l.Key) < Key((*items)[j], l.Key) })
	}
	return nil
}

// Key is the string member key of an item ("" when it has none).
func Key(raw json.RawMessage, key string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	var s string
	_ = json.Unmarshal(m[key], &s)
	return s
}

// Normalize is raw with object members sorted, numbers as written, no
// HTML escaping and the sets of JSON Schema ("required") sorted; compact.
func Normalize(raw json.RawMessage) (json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	v, err := Decode(raw)
	if err != nil {
		return nil, err
	}
	sortSets(v)
	return encode(v, "")
}

// Decode decodes raw keeping numbers as written.
func Decode(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// sortSets sorts every "required" array of strings, at any depth.
func sortSets(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, m := range x {
			if arr, ok := m.([]any); ok && k == "required" && allStrings(arr) {
				slices.SortFunc(arr, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
			}
			sortSets(m)
		}
	case []any:
		for _, m := range x {
			sortSets(m)
		}
	}
}

func allStrings(arr []any) bool {
	for _, a := range arr {
		if _, ok := a.(string); !ok {
			return false
		}
	}
	return true
}

// encode writes v with sorted members (encoding/json sorts map keys),
// without HTML escaping, indented by indent ("" is compact).
func encode(v any, indent string) ([]byte, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if indent != "" {
		e.SetIndent("", indent)
	}
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Marshal is the document as written to a file: indented, members sorted,
// a final newline.
func Marshal(d *Document) ([]byte, error) {
	raw, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	v, err := Decode(raw)
	if err != nil {
		return nil, err
	}
	b, err := encode(v, "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Parse reads a snapshot document.
func Parse(b []byte) (*Document, error) {
	var d Document
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("not a snapshot: %w", err)
	}
	if d.Format != Format {
		return nil, fmt.Errorf("not a snapshot (format %q, want %q)", d.Format, Format)
	}
	if d.Version != Version {
		return nil, fmt.Errorf("snapshot version %d: this mcptui reads version %d", d.Version, Version)
	}
	for i := range d.Eras {
		if err := d.Eras[i].normalize(); err != nil {
			return nil, fmt.Errorf("era %s: %w", d.Eras[i].Protocol, err)
		}
	}
	return &d, nil
}

// Era is the surface of protocol in d, or nil.
func (d *Document) Era(protocol string) *Surface {
	for i := range d.Eras {
		if d.Eras[i].Protocol == protocol {
			return &d.Eras[i]
		}
	}
	return nil
}
