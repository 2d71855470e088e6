package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/mcp"
)

// exampleServer is the examples' server: this test binary as mcptui's demo
// server (see TestMain). A program names its own command, for instance
// mcp.Connect(ctx, "npx", []string{"-y", "@modelcontextprotocol/server-everything"}, opts).
func exampleServer() (string, mcp.Options) {
	exe, _ := os.Executable()
	on := "1"
	return exe, mcp.Options{Conn: conn.Options{
		Env:    []conn.EnvVar{{Name: "MCPTUI_MCP_EXAMPLE_DEMO", Value: &on}},
		Stderr: io.Discard,
	}}
}

// Connect starts the server, negotiates the newest protocol version both
// sides speak (probing server/discover, falling back to initialize), and
// returns a client with typed calls.
func ExampleConnect() {
	ctx := context.Background()
	command, opts := exampleServer()
	client, err := mcp.Connect(ctx, command, nil, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer client.Shutdown(time.Second)
	fmt.Println("negotiated", client.Version())

	res, err := client.CallTool(ctx, "echo", map[string]any{"message": "hello"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Content[0].Type, res.Content[0].Text)
	// Output:
	// negotiated 2026-07-28
	// text hello
}

// Pinning one version skips the probe: the server is spoken to at that
// revision, with its own table of requests.
func ExampleConnect_pinned() {
	ctx := context.Background()
	command, opts := exampleServer()
	opts.Versions = []string{mcp.Version20250618}
	client, err := mcp.Connect(ctx, command, nil, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer client.Shutdown(time.Second)
	fmt.Println("negotiated", client.Version())

	res, err := client.ReadResource(ctx, "demo://readme")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Contents[0].URI, res.Contents[0].MIMEType)
	// Output:
	// negotiated 2025-06-18
	// demo://readme text/markdown
}

// The result types decode a message's JSON, keeping the raw form beside
// the fields (Raw) for what the types do not name.
func ExampleCallToolResult() {
	line := []byte(`{"content":[{"type":"text","text":"3 files"},{"type":"resource_link","uri":"file:///tmp/a","name":"a"}],"isError":false}`)
	var res mcp.CallToolResult
	if err := json.Unmarshal(line, &res); err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range res.Content {
		fmt.Println(c.Type, c.Text+c.URI)
	}
	fmt.Println("tool error:", res.IsError)
	// Output:
	// text 3 files
	// resource_link file:///tmp/a
	// tool error: false
}

// Requests lists what a client may ask on a revision; Declares says
// whether a server's capabilities allow one.
func ExampleDeclares() {
	caps := mcp.ServerCapabilities{Tools: &mcp.ListChangedCapability{}}
	for _, method := range []string{"tools/call", "prompts/get"} {
		need, ok := mcp.Declares(caps, mcp.Version20251125, method)
		fmt.Println(method, ok, need)
	}
	fmt.Println(len(mcp.Requests(mcp.Version20241105)) > 0)
	// Output:
	// tools/call true tools
	// prompts/get false prompts
	// true
}
