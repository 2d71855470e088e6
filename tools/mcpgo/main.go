// Command mcpgo is a small MCP server built on mark3labs/mcp-go v0.34.0,
// the last release that negotiates protocol 2025-03-26: a tool, a
// resource, a prompt, a tool that samples and one that sends progress. The
// era tests build it (its own module, so the main go.mod does not gain
// mcp-go) and run every headless command and the inspector against it.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	s := server.NewMCPServer("mcpgo-eras", "0.34.0",
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, false),
		server.WithPromptCapabilities(false),
		server.WithLogging(),
	)
	s.EnableSampling()

	s.AddTool(mcp.NewTool("add", mcp.WithDescription("Adds two numbers"),
		mcp.WithNumber("a", mcp.Required()), mcp.WithNumber("b", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprint(req.GetFloat("a", 0) + req.GetFloat("b", 0))), nil
		})

	s.AddTool(mcp.NewTool("now", mcp.WithDescription("A tool without arguments")),
		func(_ context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("it is now"), nil
		})

	s.AddTool(mcp.NewTool("sample", mcp.WithDescription("Asks the client's model"),
		mcp.WithString("prompt", mcp.Required())),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := server.ServerFromContext(ctx).RequestSampling(ctx, mcp.CreateMessageRequest{
				CreateMessageParams: mcp.CreateMessageParams{
					Messages:  []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(req.GetString("prompt", ""))}},
					MaxTokens: 100,
				},
			})
			if err != nil {
				return mcp.NewToolResultError("sampling failed: " + err.Error()), nil
			}
			text := fmt.Sprint(res.Content)
			if c, ok := res.Content.(map[string]any); ok {
				text = fmt.Sprint(c["text"])
			}
			return mcp.NewToolResultText("the model said: " + text), nil
		})

	s.AddTool(mcp.NewTool("progress", mcp.WithDescription("Sends three progress notifications")),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.Meta != nil && req.Params.Meta.ProgressToken != nil {
				srv := server.ServerFromContext(ctx)
				for i := 1; i <= 3; i++ {
					_ = srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
						"progressToken": req.Params.Meta.ProgressToken, "progress": i, "total": 3,
						"message": fmt.Sprintf("step %d of 3", i),
					})
				}
			}
			return mcp.NewToolResultText("done in 3 steps"), nil
		})

	s.AddResource(mcp.NewResource("eras://readme", "readme", mcp.WithMIMEType("text/plain")),
		func(_ context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "hello from mcp-go"}}, nil
		})

	s.AddPrompt(mcp.NewPrompt("greet", mcp.WithPromptDescription("Greets someone"),
		mcp.WithArgument("name", mcp.RequiredArgument())),
		func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return mcp.NewGetPromptResult("a greeting", []mcp.PromptMessage{
				mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("Hello, "+req.Params.Arguments["name"])),
			}), nil
		})

	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, "mcpgo:", err)
		os.Exit(1)
	}
}
