package httpconn_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/httpconn"
)

// Dial opens a Streamable HTTP endpoint (or, found by the spec's
// fallback, a 2024-11-05 HTTP+SSE one); Call and Notify work as conn's do.
// The server here is go-sdk's Streamable HTTP handler with one tool.
func ExampleDial() {
	server := sdk.NewServer(&sdk.Implementation{Name: "example-server", Version: "1.0.0"}, nil)
	type echoIn struct {
		Message string `json:"message"`
	}
	sdk.AddTool(server, &sdk.Tool{Name: "echo", Description: "echoes"}, func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: in.Message}}}, nil, nil
	})
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return server }, nil))
	defer ts.Close()

	ctx := context.Background()
	c, err := httpconn.Dial(ctx, ts.URL, httpconn.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Shutdown(5 * time.Second)

	res, err := c.Call(ctx, "initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "example", "version": "1.0.0"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct {
			Name string `json:"name"`
		} `json:"serverInfo"`
	}
	if err := json.Unmarshal(res, &init); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(init.ServerInfo.Name, "speaks", init.ProtocolVersion, "over", c.Mode())
	fmt.Println("session:", c.SessionID() != "")
	if err := c.Notify(ctx, "notifications/initialized", nil); err != nil {
		fmt.Println(err)
		return
	}

	res, err = c.Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "hello"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	var call struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(res, &call); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(call.Content[0].Text)
	// Output:
	// example-server speaks 2025-11-25 over http
	// session: true
	// hello
}

// On 2026-07-28 a tool's arguments marked x-mcp-header are mirrored in
// Mcp-Param-{Name} request headers; ParamHeaders reads the marks and checks
// the spec's constraints, EncodeHeaderValue writes a value.
func ExampleParamHeaders() {
	schema := json.RawMessage(`{
		"type": "object",
		"properties": {
			"region": {"type": "string", "x-mcp-header": "Region"},
			"query":  {"type": "string"}
		}
	}`)
	headers, err := httpconn.ParamHeaders(schema)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, h := range headers {
		fmt.Println(httpconn.HeaderParamPrefix+h.Name, "mirrors", h.Path)
	}
	fmt.Println(httpconn.EncodeHeaderValue("eu-west"))
	fmt.Println(httpconn.EncodeHeaderValue("Zürich"))

	_, err = httpconn.ParamHeaders(json.RawMessage(`{"type": "object", "properties": {"tags": {"type": "array", "x-mcp-header": "Tags"}}}`))
	fmt.Println(err != nil)
	// Output:
	// Mcp-Param-Region mirrors [region]
	// eu-west
	// =?base64?WsO8cmljaA==?=
	// true
}
