package demo

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Elicitation is asked the multi round-trip way (mrtr.go): go-sdk turns it
// into an input_required result on 2026-07-28 and into an
// elicitation/create request on legacy sessions. By hand: the form schema
// follows the protocol version (2025-06-18 has fewer field kinds), the URL
// mode carries an elicitationId and is followed by
// notifications/elicitation/complete only on 2025-11-25 (2026-07-28 has
// neither), and capabilities are checked first (protocol.go).

// elicit_form: a form with every field kind.

type elicitFormIn struct {
	Message string `json:"message,omitempty" jsonschema:"what the form asks the user"`
}

func (d *demo) elicitFormTool() *mcp.Tool {
	return &mcp.Tool{
		Name:  "elicit_form",
		Title: "Form elicitation",
		Description: "Asks the user to fill in a form (elicitation, form mode) with every field kind: strings with email/uri/date/date-time formats, " +
			"a bounded number, an integer, a boolean, titled and untitled single- and multi-select enums, and defaults. Then reports the answer.",
		Annotations: readOnly("Form elicitation"),
		InputSchema: schemaFor[elicitFormIn](func(p props) {
			p.def("message", "Tell the demo server about yourself. Every field kind MCP forms have is here.").title("message", "Message")
		}),
	}
}

// formSchema is the requested schema of elicit_form for a protocol version.
// 2025-06-18 knows strings (with formats), numbers, integers, booleans (the
// only kind with a default) and enums titled by enumNames; 2025-11-25 added
// defaults everywhere, titled enums as oneOf/anyOf, and multi-select.
func formSchema(version string) object {
	old := version < v20251125
	str := func(title, desc string) object {
		return object{{"type", "string"}, {"title", title}, {"description", desc}}
	}
	name := str("Name", "Your name, 2 to 50 characters.").with("minLength", 2).with("maxLength", 50).with("default", "Ada Lovelace")
	height := object{{"type", "number"}, {"title", "Height (m)"}, {"description", "A number between 0.5 and 2.5."},
		{"minimum", 0.5}, {"maximum", 2.5}, {"default", 1.7}}
	colour := object{{"type", "string"}, {"title", "Colour"}, {"description", "A single-select enum without titles."},
		{"enum", []string{"red", "green", "blue"}}, {"default", "green"}}
	if old {
		name, height, colour = name.without("default"), height.without("default"), colour.without("default")
	}
	props := object{
		{"name", name},
		{"email", str("Email", "An email address (format: email).").with("format", "email")},
		{"website", str("Website", "A URI (format: uri).").with("format", "uri")},
		{"birthday", str("Birthday", "A date (format: date).").with("format", "date")},
		{"meeting", str("Next meeting", "A date and time (format: date-time).").with("format", "date-time")},
		{"height", height},
		{"age", object{{"type", "integer"}, {"title", "Age"}, {"description", "A whole number from 0 to 150."}, {"minimum", 0}, {"maximum", 150}}},
		{"newsletter", object{{"type", "boolean"}, {"title", "Newsletter"}, {"description", "A boolean, on by default."}, {"default", true}}},
		{"colour", colour},
	}
	if old {
		props = append(props, member{"plan", object{{"type", "string"}, {"title", "Plan"},
			{"description", "A single-select enum titled by enumNames."},
			{"enum", []string{"free", "pro", "team"}}, {"enumNames", []string{"Free", "Pro", "Team"}}}})
	} else {
		props = append(props,
			member{"size", object{{"type", "string"}, {"title", "T-shirt size"}, {"description", "A single-select enum with titles (oneOf)."},
				{"oneOf", []object{
					{{"const", "s"}, {"title", "Small"}}, {{"const", "m"}, {"title", "Medium"}},
					{{"const", "l"}, {"title", "Large"}}, {{"const", "xl"}, {"title", "Extra large"}},
				}}, {"default", "m"}}},
			member{"plan", object{{"type", "string"}, {"title", "Plan"},
				{"description", "A single-select enum titled the legacy way (enumNames)."},
				{"enum", []string{"free", "pro", "team"}}, {"enumNames", []string{"Free", "Pro", "Team"}}}},
			member{"toppings", object{{"type", "array"}, {"title", "Toppings"},
				{"description", "A multi-select enum without titles: one to three."},
				{"minItems", 1}, {"maxItems", 3},
				{"items", object{{"type", "string"}, {"enum", []string{"cheese", "olives", "basil", "mushrooms", "pineapple"}}}},
				{"default", []string{"cheese"}}}},
			member{"languages", object{{"type", "array"}, {"title", "Languages"},
				{"description", "A multi-select enum with titles (anyOf)."},
				{"items", object{{"anyOf", []object{
					{{"const", "go"}, {"title", "Go"}}, {{"const", "rust"}, {"title", "Rust"}},
					{{"const", "python"}, {"title", "Python"}}, {{"const", "ts"}, {"title", "TypeScript"}},
				}}}},
				{"default", []string{"go"}}}},
		)
	}
	return object{{"type", "object"}, {"properties", props}, {"required", []string{"name", "email", "age"}}}
}

func (d *demo) elicitForm(_ context.Context, req *mcp.CallToolRequest, in elicitFormIn) (*mcp.CallToolResult, any, error) {
	version := d.versionOf(req.Params.Meta)
	if res, err := require(version, req.ClientCapabilities(), capElicitForm); res != nil || err != nil {
		return res, nil, err
	}
	r, err := d.roundOf("elicit_form", req.Params.InputResponses, req.Params.RequestState)
	if err != nil {
		return nil, nil, err
	}
	ans := r.elicitAnswer("profile")
	if ans == nil {
		return d.ask("elicit_form", 1, nil, mcp.InputRequestMap{"profile": &mcp.ElicitParams{
			Mode: "form", Message: in.Message, RequestedSchema: formSchema(version),
		}}), nil, nil
	}
	if ans.Action != "accept" {
		return &mcp.CallToolResult{Content: []mcp.Content{text(fmt.Sprintf("The user chose %q; no form data came back.", ans.Action))}}, nil, nil
	}
	keys := make([]string, 0, len(ans.Content))
	for k := range ans.Content {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "The user accepted and sent %d fields:\n", len(keys))
	for _, k := range keys {
		v, _ := json.Marshal(ans.Content[k])
		fmt.Fprintf(&b, "  %s = %s (%s)\n", k, v, kindOf(ans.Content[k]))
	}
	return &mcp.CallToolResult{Content: []mcp.Content{text(strings.TrimRight(b.String(), "\n"))}}, nil, nil
}

func kindOf(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64, int, int64:
		return "number"
	case bool:
		return "boolean"
	case []any, []string:
		return "array"
	}
	return fmt.Sprintf("%T", v)
}

// elicit_url: a URL-mode elicitation (2025-11-25 and later).

type elicitURLIn struct {
	URL     string `json:"url,omitempty" jsonschema:"the URL the user is asked to open"`
	Message string `json:"message,omitempty" jsonschema:"why the user should open it"`
}

func (d *demo) elicitURLTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "elicit_url",
		Title:       "URL elicitation",
		Description: "Asks the user to open a URL outside the client (elicitation, url mode), as a server does for sign-in or payment. Needs 2025-11-25 or later.",
		Annotations: readOnly("URL elicitation"),
		InputSchema: schemaFor[elicitURLIn](func(p props) {
			p.def("url", "https://example.com/mcptui-demo/connect").title("url", "URL")
			p.def("message", "Open this page to connect the demo server to your (imaginary) account.").title("message", "Message")
		}),
	}
}

func (d *demo) elicitURL(ctx context.Context, req *mcp.CallToolRequest, in elicitURLIn) (*mcp.CallToolResult, any, error) {
	version := d.versionOf(req.Params.Meta)
	if version < v20251125 {
		return toolError("URL elicitation arrived in protocol 2025-11-25; this session speaks %s.", version), nil, nil
	}
	if res, err := require(version, req.ClientCapabilities(), capElicitURL); res != nil || err != nil {
		return res, nil, err
	}
	u, err := url.Parse(in.URL)
	if err != nil || u.Host == "" {
		return toolError("Not an absolute URL: %q", in.URL), nil, nil
	}
	r, err := d.roundOf("elicit_url", req.Params.InputResponses, req.Params.RequestState)
	if err != nil {
		return nil, nil, err
	}
	ans := r.elicitAnswer("connect")
	if ans == nil {
		p := &mcp.ElicitParams{Mode: "url", URL: in.URL, Message: in.Message}
		var data map[string]string
		if !modern(version) { // 2026-07-28 dropped the elicitationId
			p.ElicitationID = rand.Text()
			data = map[string]string{"elicitationId": p.ElicitationID}
		}
		return d.ask("elicit_url", 1, data, mcp.InputRequestMap{"connect": p}), nil, nil
	}
	msg := fmt.Sprintf("The user chose %q for %s (domain %s).", ans.Action, in.URL, u.Hostname())
	if ans.Action == "accept" {
		msg += " The demo pretends the page was completed."
		var data map[string]string
		if json.Unmarshal(r.Data, &data) == nil && data["elicitationId"] != "" {
			_ = req.Session.NotifyElicitationComplete(ctx, &mcp.ElicitationCompleteParams{ElicitationID: data["elicitationId"]})
			msg += " It sent notifications/elicitation/complete for elicitation " + data["elicitationId"] + "."
		}
	}
	return &mcp.CallToolResult{Content: []mcp.Content{text(msg)}}, nil, nil
}
