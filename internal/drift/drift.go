// Package drift compares two surfaces of an MCP server (internal/snapshot)
// and classifies every difference the way oasdiff classifies an HTTP
// API's: breaking (a client that worked stops working), risky (it still
// works but may behave differently: a reworded description the user
// approved, a flipped safety hint) and additive (something new). Changes
// that matter to nobody's client (the server's version string) are info.
package drift

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/mcptui/mcptui/internal/snapshot"
)

// Class is how much a change matters to a client.
type Class string

// The classes, most severe first.
const (
	Breaking Class = "breaking"
	Risky    Class = "risky"
	Additive Class = "additive"
	Info     Class = "info"
)

// Classes are the classes, most severe first.
var Classes = []Class{Breaking, Risky, Additive, Info}

// Change is one difference between the two sides.
type Change struct {
	Class Class `json:"class"`
	// Kind names the change ("tool-removed", "required-argument-added").
	Kind string `json:"kind"`
	// Era is the protocol revision compared, when the sides have several.
	Era string `json:"era,omitempty"`
	// Subject is what changed: "tool add", "resource demo://x",
	// "prompt greet", "template demo://{x}", "server", "capabilities".
	Subject string `json:"subject"`
	// Path is where in the subject ("inputSchema.properties.b").
	Path string `json:"path,omitempty"`
	// Message says what happened, in words.
	Message string `json:"message"`
	// Before and After are the values, as compact JSON, when they are
	// short enough to show.
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	// Words is a word-level diff of reworded text: [-old-] {+new+}.
	Words string `json:"words,omitempty"`
}

// Report is every change between two documents.
type Report struct {
	Changes []Change `json:"changes"`
	// Counts is the number of changes per class.
	Counts map[Class]int `json:"counts"`
}

// Worst is the most severe class in the report ("" when it is empty).
func (r *Report) Worst() Class {
	for _, c := range Classes {
		if r.Counts[c] > 0 {
			return c
		}
	}
	return ""
}

// Fails reports whether the report fails the bar failOn: "breaking" fails
// on breaking changes, "risky" on breaking or risky ones, "any" on any
// change but info, "none" never.
func (r *Report) Fails(failOn string) bool {
	switch failOn {
	case "none":
		return false
	case "breaking":
		return r.Counts[Breaking] > 0
	case "any":
		return r.Counts[Breaking]+r.Counts[Risky]+r.Counts[Additive] > 0
	}
	return r.Counts[Breaking]+r.Counts[Risky] > 0
}

// Compare compares the surfaces of a (before) and b (after). Eras are
// matched by protocol; two one-era documents are compared whatever their
// protocols.
func Compare(a, b *snapshot.Document) *Report {
	c := &comparer{}
	if len(a.Eras) == 1 && len(b.Eras) == 1 {
		ea, eb := a.Eras[0], b.Eras[0]
		if ea.Protocol != eb.Protocol {
			c.add(Change{Class: Info, Kind: "protocol-changed", Subject: "server", Message: "negotiated protocol changed", Before: ea.Protocol, After: eb.Protocol})
		}
		c.surface(&ea, &eb)
	} else {
		multi := len(a.Eras) > 1 || len(b.Eras) > 1
		for i := range a.Eras {
			ea := &a.Eras[i]
			eb := b.Era(ea.Protocol)
			if eb == nil {
				c.add(Change{Class: Breaking, Kind: "era-withdrawn", Era: ea.Protocol, Subject: "server", Message: "the server no longer speaks protocol " + ea.Protocol})
				continue
			}
			if multi {
				c.era = ea.Protocol
			}
			c.surface(ea, eb)
		}
		c.era = ""
		for _, eb := range b.Eras {
			if a.Era(eb.Protocol) == nil {
				c.add(Change{Class: Additive, Kind: "era-added", Era: eb.Protocol, Subject: "server", Message: "the server now speaks protocol " + eb.Protocol})
			}
		}
	}
	rep := &Report{Changes: c.changes, Counts: map[Class]int{}}
	if rep.Changes == nil {
		rep.Changes = []Change{}
	}
	for _, ch := range rep.Changes {
		rep.Counts[ch.Class]++
	}
	return rep
}

type comparer struct {
	era     string
	changes []Change
}

func (c *comparer) add(ch Change) {
	if ch.Era == "" {
		ch.Era = c.era
	}
	c.changes = append(c.changes, ch)
}

// surface compares one era.
func (c *comparer) surface(a, b *snapshot.Surface) {
	sa, sb := object(a.Server), object(b.Server)
	for _, k := range []string{"name", "version"} {
		if !reflect.DeepEqual(sa[k], sb[k]) {
			c.add(Change{Class: Info, Kind: "server-" + k + "-changed", Subject: "server", Path: "serverInfo." + k, Message: "server " + k + " changed", Before: short(sa[k]), After: short(sb[k])})
		}
	}
	c.text("server", "instructions", "instructions", a.Instructions, b.Instructions)
	c.capabilities(object(a.Capabilities), object(b.Capabilities))
	for _, l := range snapshot.Lists {
		if a.Errors[l.Method] == "" && b.Errors[l.Method] != "" {
			c.add(Change{Class: Breaking, Kind: "list-failed", Subject: l.Field, Message: l.Method + " now fails: " + b.Errors[l.Method]})
		}
	}
	c.items("tool", a.Tools, b.Tools, "name", c.tool)
	c.items("resource", a.Resources, b.Resources, "uri", c.resource)
	c.items("template", a.ResourceTemplates, b.ResourceTemplates, "uriTemplate", c.resource)
	c.items("prompt", a.Prompts, b.Prompts, "name", c.prompt)
}

// capabilities compares the declared capabilities: one withdrawn, or a
// flag of one (listChanged, subscribe) turned off, is breaking.
func (c *comparer) capabilities(a, b map[string]any) {
	if a == nil || b == nil {
		return
	}
	for _, k := range sortedKeys(a, b) {
		va, inA := a[k]
		vb, inB := b[k]
		switch {
		case inA && !inB:
			c.add(Change{Class: Breaking, Kind: "capability-withdrawn", Subject: "capabilities", Path: k, Message: "capability " + k + " withdrawn"})
		case !inA && inB:
			c.add(Change{Class: Additive, Kind: "capability-added", Subject: "capabilities", Path: k, Message: "capability " + k + " declared"})
		default:
			fa, fb := asMap(va), asMap(vb)
			for _, f := range sortedKeys(fa, fb) {
				ta, tb := fa[f] == true, fb[f] == true
				switch {
				case ta && !tb:
					c.add(Change{Class: Breaking, Kind: "capability-narrowed", Subject: "capabilities", Path: k + "." + f, Message: k + "." + f + " no longer declared"})
				case !ta && tb:
					c.add(Change{Class: Additive, Kind: "capability-extended", Subject: "capabilities", Path: k + "." + f, Message: k + "." + f + " declared"})
				case !reflect.DeepEqual(fa[f], fb[f]):
					c.add(Change{Class: Info, Kind: "capability-changed", Subject: "capabilities", Path: k + "." + f, Message: k + "." + f + " changed", Before: short(fa[f]), After: short(fb[f])})
				}
			}
		}
	}
}

// items compares two lists keyed by key: an item removed is breaking, one
// added additive, the others compared by each. A list one side did not
// list (undeclared, or not asked in a recording) is not compared.
func (c *comparer) items(kind string, a, b []json.RawMessage, key string, each func(subject string, a, b map[string]any)) {
	if a == nil || b == nil {
		return
	}
	ma, mb := keyed(a, key), keyed(b, key)
	for _, k := range sortedKeys(ma, mb) {
		subject := kind + " " + k
		switch {
		case mb[k] == nil:
			c.add(Change{Class: Breaking, Kind: kind + "-removed", Subject: subject, Message: kind + " removed"})
		case ma[k] == nil:
			c.add(Change{Class: Additive, Kind: kind + "-added", Subject: subject, Message: "new " + kind})
		default:
			each(subject, ma[k], mb[k])
		}
	}
}

// hintDefaults are the values the specification gives an absent hint.
var hintDefaults = map[string]bool{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}

func (c *comparer) tool(subject string, a, b map[string]any) {
	c.text(subject, "title", "title", str(a["title"]), str(b["title"]))
	c.text(subject, "description", "description", str(a["description"]), str(b["description"]))
	aa, ab := asMap(a["annotations"]), asMap(b["annotations"])
	c.text(subject, "annotations.title", "annotation title", str(aa["title"]), str(ab["title"]))
	for _, h := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
		ha, hb := hint(aa, h), hint(ab, h)
		if ha != hb {
			c.add(Change{Class: Risky, Kind: "hint-flipped", Subject: subject, Path: "annotations." + h,
				Message: fmt.Sprintf("%s flipped from %t to %t", h, ha, hb), Before: fmt.Sprint(ha), After: fmt.Sprint(hb)})
		}
	}
	c.schema(subject, "inputSchema", a["inputSchema"], b["inputSchema"], input)
	switch oa, ob := a["outputSchema"], b["outputSchema"]; {
	case oa != nil && ob == nil:
		c.add(Change{Class: Breaking, Kind: "output-schema-removed", Subject: subject, Path: "outputSchema", Message: "output schema removed: structuredContent is no longer promised"})
	case oa == nil && ob != nil:
		c.add(Change{Class: Additive, Kind: "output-schema-added", Subject: subject, Path: "outputSchema", Message: "output schema declared"})
	case oa != nil:
		c.schema(subject, "outputSchema", oa, ob, output)
	}
	c.rest(subject, a, b, "name", "title", "description", "annotations", "inputSchema", "outputSchema")
}

// hint is an annotation's value, its default when absent.
func hint(ann map[string]any, name string) bool {
	if v, ok := ann[name].(bool); ok {
		return v
	}
	return hintDefaults[name]
}

func (c *comparer) resource(subject string, a, b map[string]any) {
	for _, f := range []string{"name", "title", "description"} {
		c.text(subject, f, f, str(a[f]), str(b[f]))
	}
	if str(a["mimeType"]) != str(b["mimeType"]) {
		c.add(Change{Class: Risky, Kind: "mime-type-changed", Subject: subject, Path: "mimeType", Message: "MIME type changed", Before: str(a["mimeType"]), After: str(b["mimeType"])})
	}
	c.rest(subject, a, b, "uri", "uriTemplate", "name", "title", "description", "mimeType")
}

func (c *comparer) prompt(subject string, a, b map[string]any) {
	c.text(subject, "title", "title", str(a["title"]), str(b["title"]))
	c.text(subject, "description", "description", str(a["description"]), str(b["description"]))
	args := func(v any) []json.RawMessage {
		var out []json.RawMessage
		for _, x := range asSlice(v) {
			raw, _ := json.Marshal(x)
			out = append(out, raw)
		}
		return out
	}
	ma, mb := keyed(args(a["arguments"]), "name"), keyed(args(b["arguments"]), "name")
	for _, k := range sortedKeys(ma, mb) {
		path := "arguments." + k
		switch {
		case mb[k] == nil:
			c.add(Change{Class: Risky, Kind: "argument-removed", Subject: subject, Path: path, Message: "argument " + k + " removed"})
		case ma[k] == nil && mb[k]["required"] == true:
			c.add(Change{Class: Breaking, Kind: "required-argument-added", Subject: subject, Path: path, Message: "required argument " + k + " added"})
		case ma[k] == nil:
			c.add(Change{Class: Additive, Kind: "optional-argument-added", Subject: subject, Path: path, Message: "optional argument " + k + " added"})
		default:
			ra, rb := ma[k]["required"] == true, mb[k]["required"] == true
			if !ra && rb {
				c.add(Change{Class: Breaking, Kind: "argument-made-required", Subject: subject, Path: path, Message: "argument " + k + " is now required"})
			} else if ra && !rb {
				c.add(Change{Class: Additive, Kind: "argument-made-optional", Subject: subject, Path: path, Message: "argument " + k + " is now optional"})
			}
			c.text(subject, path+".description", "argument description", str(ma[k]["description"]), str(mb[k]["description"]))
		}
	}
	c.rest(subject, a, b, "name", "title", "description", "arguments")
}

// rest reports, as info, members other than handled that differ (icons,
// _meta, execution, annotations of resources, size).
func (c *comparer) rest(subject string, a, b map[string]any, handled ...string) {
	for _, k := range sortedKeys(a, b) {
		if slices.Contains(handled, k) || reflect.DeepEqual(a[k], b[k]) {
			continue
		}
		c.add(Change{Class: Info, Kind: "member-changed", Subject: subject, Path: k, Message: k + " changed", Before: short(a[k]), After: short(b[k])})
	}
}

// text compares a piece of prose the user or the model reads: a change is
// risky (the rug-pull: reworded after it was approved), shown word by word.
func (c *comparer) text(subject, path, what, a, b string) {
	if a == b {
		return
	}
	kind := "description-changed"
	switch {
	case a == "":
		kind = "description-added"
	case b == "":
		kind = "description-removed"
	}
	if strings.HasSuffix(path, "title") {
		kind = strings.Replace(kind, "description", "title", 1)
	}
	if path == "instructions" {
		kind = strings.Replace(kind, "description", "instructions", 1)
	}
	c.add(Change{Class: Risky, Kind: kind, Subject: subject, Path: path, Message: what + " reworded", Words: WordDiff(a, b)})
}

// keyed maps a list's items by their key member.
func keyed(items []json.RawMessage, key string) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, raw := range items {
		m := object(raw)
		if k, ok := m[key].(string); ok {
			out[k] = m
		}
	}
	return out
}

func object(raw json.RawMessage) map[string]any {
	if len(raw) == 0 {
		return nil
	}
	v, err := snapshot.Decode(raw)
	if err != nil {
		return nil
	}
	m, _ := v.(map[string]any)
	return m
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// short is v as compact JSON, clipped.
func short(v any) string {
	if v == nil {
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// sortedKeys are the keys of a and b, sorted.
func sortedKeys[V any](a, b map[string]V) []string {
	var out []string
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
