package composer

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/protocol"
	"github.com/mcptui/mcptui/internal/schemaform"
	"github.com/mcptui/mcptui/mcp"
)

// composerOffer is what the server offers the composer: the requests the
// negotiated version defines and the server declares, and its catalog
// (tools, prompts, resources, templates) for the pickers.
type composerOffer struct {
	methods   []string
	tools     []mcp.Tool
	prompts   []mcp.Prompt
	resources []mcp.Resource
	templates []mcp.ResourceTemplate
	// forms are the arguments forms of the entries; key names the server
	// for remembered arguments.
	forms argForms
	key   string
}

// OfferMsg brings the offer, listed off the UI goroutine (the root hands
// it to OfferArrived).
type OfferMsg struct {
	offer *composerOffer
	gen   int
}

// maxSuggestions bounds the suggestions listed under a field.
const maxSuggestions = 6

// offeredMethods are the requests a person may compose on version with a
// server declaring caps: the version's catalog (an extension method can
// still be typed by hand), less what the capabilities rule out, less
// initialize (the session's own) and subscriptions/listen (a stream: s
// opens one).
func offeredMethods(version string, caps mcp.ServerCapabilities) []string {
	var out []string
	for _, m := range mcp.Requests(version) {
		if m == mcp.MethodInitialize || m == mcp.MethodListen {
			continue
		}
		if _, ok := mcp.Declares(caps, version, m); ok {
			out = append(out, m)
		}
	}
	return out
}

// listOffer lists the server's catalog for the composer (errors leave a
// list empty: the composer still sends what is typed).
func listOffer(srv backend.Catalog, gen int) func() OfferMsg {
	return func() OfferMsg {
		info := srv.Info()
		o := &composerOffer{methods: offeredMethods(info.Version, info.Capabilities), key: info.Key}
		ctx := context.Background()
		if slices.Contains(o.methods, mcp.MethodCallTool) {
			o.tools, _ = srv.ListTools(ctx)
		}
		if slices.Contains(o.methods, mcp.MethodGetPrompt) {
			o.prompts, _ = srv.ListPrompts(ctx)
		}
		if slices.Contains(o.methods, mcp.MethodReadResource) {
			o.resources, _ = srv.ListResources(ctx)
			o.templates, _ = srv.ListResourceTemplates(ctx)
		}
		o.compileArgForms()
		return OfferMsg{offer: o, gen: gen}
	}
}

// targetsOf are what method acts on, to pick from: tool names for
// tools/call, prompt names for prompts/get, resource URIs (then templates)
// for resources/read and subscriptions; nil when it acts on nothing named.
func (o *composerOffer) targetsOf(method string) []string {
	if o == nil {
		return nil
	}
	var out []string
	switch method {
	case mcp.MethodCallTool:
		for _, t := range o.tools {
			out = append(out, t.Name)
		}
	case mcp.MethodGetPrompt:
		for _, p := range o.prompts {
			out = append(out, p.Name)
		}
	case mcp.MethodReadResource, mcp.MethodSubscribe, mcp.MethodUnsubscribe:
		for _, r := range o.resources {
			out = append(out, r.URI)
		}
		for _, t := range o.templates {
			out = append(out, t.URITemplate)
		}
	}
	return out
}

// targetLabel names what targetsOf lists.
func targetLabel(method string) string {
	switch method {
	case mcp.MethodCallTool:
		return " tool"
	case mcp.MethodGetPrompt:
		return " prompt"
	}
	return " uri"
}

// suggest filters candidates by what is typed: prefix matches first, then
// the others containing it, at most maxSuggestions.
func suggest(candidates []string, typed string) []string {
	typed = strings.TrimSpace(typed)
	var first, then []string
	for _, c := range candidates {
		switch {
		case strings.HasPrefix(c, typed):
			first = append(first, c)
		case strings.Contains(c, typed):
			then = append(then, c)
		}
	}
	out := append(first, then...)
	if len(out) == 1 && out[0] == typed {
		return nil // already chosen
	}
	return out[:min(len(out), maxSuggestions)]
}

// paramsSkeleton is the params to start from for method acting on target
// (a tool, prompt or URI; "" when none is chosen): the members the method
// needs, with a tool's arguments from its input schema (defaults, and
// the required properties as empty values of their type) and a prompt's
// arguments as empty strings.
func (o *composerOffer) paramsSkeleton(method, target string) string {
	var members []string
	add := func(name string, value any) {
		b, _ := json.Marshal(value)
		if raw, ok := value.(json.RawMessage); ok {
			b = raw
		}
		k, _ := json.Marshal(name)
		members = append(members, string(k)+": "+string(b))
	}
	switch method {
	case mcp.MethodCallTool:
		add("name", target)
		add("arguments", toolArgs(o.tool(target)))
	case mcp.MethodGetPrompt:
		add("name", target)
		args := map[string]string{}
		if p := o.prompt(target); p != nil {
			for _, a := range p.Arguments {
				args[a.Name] = ""
			}
		}
		add("arguments", args)
	case mcp.MethodReadResource, mcp.MethodSubscribe, mcp.MethodUnsubscribe:
		add("uri", target)
	case mcp.MethodComplete:
		add("ref", map[string]string{"type": "ref/prompt", "name": ""})
		add("argument", map[string]string{"name": "", "value": ""})
	case mcp.MethodSetLevel:
		add("level", "debug")
	case protocol.MethodTasksGet, protocol.MethodTasksResult, protocol.MethodTasksCancel, protocol.MethodTasksUpdate:
		add("taskId", "")
	}
	if len(members) == 0 {
		return "{}"
	}
	return indentJSON("{" + strings.Join(members, ", ") + "}")
}

func (o *composerOffer) tool(name string) *mcp.Tool {
	if o == nil {
		return nil
	}
	for i := range o.tools {
		if o.tools[i].Name == name {
			return &o.tools[i]
		}
	}
	return nil
}

func (o *composerOffer) prompt(name string) *mcp.Prompt {
	if o == nil {
		return nil
	}
	for i := range o.prompts {
		if o.prompts[i].Name == name {
			return &o.prompts[i]
		}
	}
	return nil
}

// toolArgs are a tool's arguments to start from: the schema's defaults
// (through schemaform, the forms' own piece), then each required property
// still missing as an empty value of its type.
func toolArgs(t *mcp.Tool) json.RawMessage {
	if t == nil || len(t.InputSchema) == 0 {
		return json.RawMessage(`{}`)
	}
	args := map[string]json.RawMessage{}
	if f, err := schemaform.Compile(t.InputSchema); err == nil {
		if inst, errs := f.New().JSON(); len(errs) == 0 {
			_ = json.Unmarshal(inst, &args)
		}
	}
	var schema struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(t.InputSchema, &schema)
	for _, name := range schema.Required {
		if _, ok := args[name]; ok {
			continue
		}
		typ, _ := schema.Properties[name].Type.(string)
		args[name] = json.RawMessage(map[string]string{
			"string": `""`, "number": `0`, "integer": `0`, "boolean": `false`, "array": `[]`, "object": `{}`,
		}[typ])
		if len(args[name]) == 0 {
			args[name] = json.RawMessage(`null`)
		}
	}
	b, _ := json.Marshal(args)
	return b
}

// indentJSON pretty-prints JSON for the params field.
func indentJSON(s string) string {
	v := jsontext.Value(bytes.Clone([]byte(s)))
	if err := v.Indent(jsontext.WithIndent("  ")); err != nil {
		return s
	}
	return string(v)
}
