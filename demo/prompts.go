package demo

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Prompts go through go-sdk (listing, argument passing, the content kinds
// of messages). interview also shows a multi round-trip prompts/get: it asks
// the user a question (an elicitation) before it can build its messages.

func (d *demo) addPrompts(srv *mcp.Server) {
	srv.AddPrompt(&mcp.Prompt{
		Name: "greet", Title: "Greeting",
		Description: "A one-message prompt with a required and an optional argument; style completes.",
		Arguments: []*mcp.PromptArgument{
			{Name: "name", Title: "Name", Description: "who to greet", Required: true},
			{Name: "style", Title: "Style", Description: "formal, casual, pirate, … (completes)"},
		},
	}, d.greet)
	srv.AddPrompt(&mcp.Prompt{
		Name: "code_review", Title: "Code review",
		Description: "A user and an assistant message around a piece of code; language and focus complete.",
		Arguments: []*mcp.PromptArgument{
			{Name: "language", Title: "Language", Description: "the programming language (completes)", Required: true},
			{Name: "code", Title: "Code", Description: "the code to review", Required: true},
			{Name: "focus", Title: "Focus", Description: "security, performance, readability or tests (completes)"},
		},
	}, d.codeReview)
	srv.AddPrompt(&mcp.Prompt{
		Name: "describe_resource", Title: "Describe a resource",
		Description: "Embeds one of the demo's resources in the prompt (embedded resource content; an image for demo://logo.png); uri completes.",
		Arguments: []*mcp.PromptArgument{
			{Name: "uri", Title: "Resource URI", Description: "a demo:// resource (completes)", Required: true},
		},
	}, d.describeResource)
	srv.AddPrompt(&mcp.Prompt{
		Name: "interview", Title: "Interview (asks first)",
		Description: "Asks the user about themselves (elicitation inside prompts/get, multi round-trip) before it builds the prompt.",
		Arguments: []*mcp.PromptArgument{
			{Name: "topic", Title: "Topic", Description: "what the interview is about"},
		},
	}, d.interview)
}

func argOr(req *mcp.GetPromptRequest, name, def string) string {
	if v := req.Params.Arguments[name]; v != "" {
		return v
	}
	return def
}

func missingArg(name string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "missing required argument " + name}
}

func (d *demo) greet(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	name := argOr(req, "name", "")
	if name == "" {
		return nil, missingArg("name")
	}
	style := argOr(req, "style", "friendly")
	return &mcp.GetPromptResult{
		Description: "A greeting for " + name,
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: text(fmt.Sprintf("Greet %s in a %s style, in one sentence.", name, style))}},
	}, nil
}

func (d *demo) codeReview(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	lang, code := argOr(req, "language", ""), argOr(req, "code", "")
	if lang == "" {
		return nil, missingArg("language")
	}
	if code == "" {
		return nil, missingArg("code")
	}
	focus := argOr(req, "focus", "readability")
	return &mcp.GetPromptResult{
		Description: fmt.Sprintf("Review %s code for %s", lang, focus),
		Messages: []*mcp.PromptMessage{
			{Role: "user", Content: text(fmt.Sprintf("Please review this %s code, focusing on %s:\n\n```%s\n%s\n```", lang, focus, strings.ToLower(lang), code))},
			{Role: "assistant", Content: text(fmt.Sprintf("Sure. I will look at the %s first and list concrete suggestions.", focus))},
		},
	}, nil
}

func (d *demo) describeResource(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	uri := argOr(req, "uri", "")
	if uri == "" {
		return nil, missingArg("uri")
	}
	c, err := d.readAny(ctx, uri)
	if err != nil {
		return nil, err
	}
	msgs := []*mcp.PromptMessage{
		{Role: "user", Content: text("Describe the following resource in two sentences.")},
		{Role: "user", Content: &mcp.EmbeddedResource{Resource: c}},
	}
	if c.MIMEType == "image/png" {
		msgs = append(msgs, &mcp.PromptMessage{Role: "user", Content: &mcp.ImageContent{Data: c.Blob, MIMEType: "image/png"}})
	}
	return &mcp.GetPromptResult{Description: "Describe " + uri, Messages: msgs}, nil
}

func (d *demo) interview(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	topic := argOr(req, "topic", "working with MCP")
	version := d.versionOf(req.Params.Meta)
	canAsk := has(req.ClientCapabilities(), capElicitForm)
	if !canAsk && modern(version) {
		_, err := require(version, req.ClientCapabilities(), capElicitForm)
		return nil, err // -32021
	}
	r, err := d.roundOf("interview", req.Params.InputResponses, req.Params.RequestState)
	if err != nil {
		return nil, err
	}
	ans := r.elicitAnswer("about")
	if ans == nil && !canAsk { // a legacy client that cannot be asked
		ans = &mcp.ElicitResult{Action: "decline"}
	}
	if ans == nil {
		return &mcp.GetPromptResult{
			InputRequests: mcp.InputRequestMap{"about": &mcp.ElicitParams{
				Mode:    "form",
				Message: "Before the interview about " + topic + ": who is it for?",
				RequestedSchema: object{{"type", "object"}, {"properties", object{
					{"role", object{{"type", "string"}, {"title", "Your role"}, {"enum", []string{"developer", "designer", "manager", "student"}}}},
					{"years", object{{"type", "integer"}, {"title", "Years of experience"}, {"minimum", 0}, {"maximum", 60}}},
				}}, {"required", []string{"role"}}},
			}},
			Messages:     []*mcp.PromptMessage{}, // not go-sdk's "messages": null
			RequestState: d.seal(d.state("interview", 1, nil)),
		}, nil
	}
	who := "someone who preferred not to say"
	if ans.Action == "accept" {
		who = fmt.Sprintf("a %v", ans.Content["role"])
		if y, ok := ans.Content["years"]; ok {
			who += fmt.Sprintf(" with %v years of experience", y)
		}
	}
	return &mcp.GetPromptResult{
		Description: "An interview about " + topic,
		Messages: []*mcp.PromptMessage{{Role: "user", Content: text(fmt.Sprintf(
			"Interview me about %s. I am %s. Ask one question at a time.", topic, who))}},
	}, nil
}
