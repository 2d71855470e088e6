package demo

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// List changes and resource updates go through go-sdk: adding or removing a
// feature sends notifications/{tools,resources,prompts}/list_changed (to a
// legacy session at once; on 2026-07-28 only on a subscriptions/listen
// stream that asked for it), and Server.ResourceUpdated sends
// notifications/resources/updated to the subscribers of a URI (via
// resources/subscribe, or a listen stream's resourceSubscriptions).

const listNote = " Legacy sessions get the notification at once; 2026-07-28 clients only on a subscriptions/listen stream that asked for it."

// toggle flips the feature kind on or off, calling add or remove, and
// reports whether it is now on.
func (d *demo) toggle(kind string, add, remove func()) bool {
	d.toggleMu.Lock()
	defer d.toggleMu.Unlock()
	d.mu.Lock()
	on := !d.shown[kind]
	d.shown[kind] = on
	d.mu.Unlock()
	if on {
		add()
	} else {
		remove()
	}
	return on
}

func addedOrRemoved(on bool) string {
	if on {
		return "Added"
	}
	return "Removed"
}

// toggle_tool: the tool "surprise" comes and goes.

func (d *demo) toggleToolTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "toggle_tool",
		Title:       "Add/remove a tool",
		Description: "Adds the tool \"surprise\" if it is absent, removes it if present; the server sends notifications/tools/list_changed.",
		Annotations: mutating("Add/remove a tool"),
		InputSchema: schemaFor[struct{}](nil),
	}
}

func (d *demo) toggleTool(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
	on := d.toggle("tool", func() {
		mcp.AddTool(d.srv, &mcp.Tool{
			Name:        "surprise",
			Title:       "Surprise",
			Description: "A tool that comes and goes with toggle_tool.",
			Annotations: readOnly("Surprise"),
			InputSchema: schemaFor[struct{}](nil),
		}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{text("Surprise! This tool exists only until toggle_tool runs again.")}}, nil, nil
		})
	}, func() { d.srv.RemoveTools("surprise") })
	return &mcp.CallToolResult{Content: []mcp.Content{text(addedOrRemoved(on) + " the tool \"surprise\"; notifications/tools/list_changed follows." + listNote)}}, nil, nil
}

// toggle_resource: the resource demo://surprise comes and goes.

const surpriseURI = "demo://surprise"

func (d *demo) toggleResourceTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "toggle_resource",
		Title:       "Add/remove a resource",
		Description: "Adds the resource demo://surprise if it is absent, removes it if present; the server sends notifications/resources/list_changed.",
		Annotations: mutating("Add/remove a resource"),
		InputSchema: schemaFor[struct{}](nil),
	}
}

func (d *demo) toggleResource(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
	on := d.toggle("resource", func() {
		d.srv.AddResource(&mcp.Resource{
			URI: surpriseURI, Name: "surprise", Title: "Surprise", MIMEType: "text/plain",
			Description: "A resource that comes and goes with toggle_resource.",
		}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: surpriseURI, MIMEType: "text/plain", Text: "Surprise! Here until toggle_resource runs again."}}}, nil
		})
	}, func() { d.srv.RemoveResources(surpriseURI) })
	return &mcp.CallToolResult{Content: []mcp.Content{text(addedOrRemoved(on) + " the resource " + surpriseURI + "; notifications/resources/list_changed follows." + listNote)}}, nil, nil
}

// toggle_prompt: the prompt "surprise" comes and goes.

func (d *demo) togglePromptTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "toggle_prompt",
		Title:       "Add/remove a prompt",
		Description: "Adds the prompt \"surprise\" if it is absent, removes it if present; the server sends notifications/prompts/list_changed.",
		Annotations: mutating("Add/remove a prompt"),
		InputSchema: schemaFor[struct{}](nil),
	}
}

func (d *demo) togglePrompt(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
	on := d.toggle("prompt", func() {
		d.srv.AddPrompt(&mcp.Prompt{Name: "surprise", Title: "Surprise", Description: "A prompt that comes and goes with toggle_prompt."},
			func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: text("Tell me something surprising.")}}}, nil
			})
	}, func() { d.srv.RemovePrompts("surprise") })
	return &mcp.CallToolResult{Content: []mcp.Content{text(addedOrRemoved(on) + " the prompt \"surprise\"; notifications/prompts/list_changed follows." + listNote)}}, nil, nil
}

// bump: change demo://counter and tell its subscribers.

func (d *demo) bumpTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "bump",
		Title:       "Bump the counter",
		Description: "Adds one to the resource demo://counter and sends notifications/resources/updated to whoever subscribed to it.",
		Annotations: mutating("Bump the counter"),
		InputSchema: schemaFor[struct{}](nil),
	}
}

func (d *demo) bump(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	d.mu.Lock()
	d.counter++
	n := d.counter
	d.mu.Unlock()
	if err := d.srv.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: counterURI}); err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{text(fmt.Sprintf("%s is now %d; its subscribers were sent notifications/resources/updated.", counterURI, n))}}, nil, nil
}
