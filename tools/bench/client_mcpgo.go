package main

import (
	"context"
	"fmt"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// mcpGoClient drives github.com/mark3labs/mcp-go's stdio client.
type mcpGoClient struct {
	c *mcpclient.Client
}

// dialMCPGo starts the server with NewStdioMCPClient and calls Initialize.
func dialMCPGo(ctx context.Context, path string) (client, error) {
	c, err := mcpclient.NewStdioMCPClient(path, nil)
	if err != nil {
		return nil, err
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = protocolVersion
	init.Params.ClientInfo = mcp.Implementation{Name: "mcpbench", Version: "1.0.0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		c.Close()
		return nil, err
	}
	return &mcpGoClient{c: c}, nil
}

// Echo implements client.
func (k *mcpGoClient) Echo(ctx context.Context, seq int64) error {
	return mcpGoEcho(ctx, k.c, seq)
}

// Blob implements client.
func (k *mcpGoClient) Blob(ctx context.Context, n int) error {
	return mcpGoBlob(ctx, k.c, n)
}

// Flood implements client.
func (k *mcpGoClient) Flood(ctx context.Context, n int) error {
	ctx, cancel := context.WithTimeout(ctx, floodTimeout)
	defer cancel()
	var req mcp.CallToolRequest
	req.Params.Name = "flood"
	req.Params.Arguments = map[string]any{"bytes": n}
	_, err := k.c.CallTool(ctx, req)
	return err
}

// Close implements client.
func (k *mcpGoClient) Close() error { return k.c.Close() }

// mcpGoEcho makes echo call seq with an mcp-go client (stdio or HTTP) and
// checks the answer.
func mcpGoEcho(ctx context.Context, c *mcpclient.Client, seq int64) error {
	text := echoTextFor(seq)
	var req mcp.CallToolRequest
	req.Params.Name = "echo"
	req.Params.Arguments = map[string]any{"text": text}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return err
	}
	got, err := mcpGoText(res)
	if err != nil {
		return err
	}
	if got != text {
		return fmt.Errorf("echo answered %q, want %q", shorten(got, 80), text)
	}
	return nil
}

// mcpGoBlob calls the blob tool for n bytes with an mcp-go client and
// checks the answer.
func mcpGoBlob(ctx context.Context, c *mcpclient.Client, n int) error {
	var req mcp.CallToolRequest
	req.Params.Name = "blob"
	req.Params.Arguments = map[string]any{"bytes": n}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return err
	}
	got, err := mcpGoText(res)
	if err != nil {
		return err
	}
	return checkBlobText(got, n)
}

// mcpGoText returns the text of a result that is one text item and not an
// error.
func mcpGoText(res *mcp.CallToolResult) (string, error) {
	if res.IsError {
		return "", fmt.Errorf("the tool failed: %v", res.Content)
	}
	if len(res.Content) != 1 {
		return "", fmt.Errorf("result has %d content items", len(res.Content))
	}
	t, ok := res.Content[0].(mcp.TextContent)
	if !ok {
		return "", fmt.Errorf("unexpected content %T", res.Content[0])
	}
	return t.Text, nil
}
