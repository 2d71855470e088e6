package main

import (
	"context"
	"fmt"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// mcpGoClient drives github.com/mark3labs/mcp-go's stdio client.
type mcpGoClient struct {
	c    *mcpclient.Client
	echo mcp.CallToolRequest
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
	k := &mcpGoClient{c: c}
	k.echo.Params.Name = "echo"
	k.echo.Params.Arguments = map[string]any{"text": echoText}
	return k, nil
}

// Echo implements client.
func (k *mcpGoClient) Echo(ctx context.Context) error {
	res, err := k.c.CallTool(ctx, k.echo)
	if err != nil {
		return err
	}
	return checkMCPGoText(res, len(echoText))
}

// Blob implements client.
func (k *mcpGoClient) Blob(ctx context.Context, n int) error {
	var req mcp.CallToolRequest
	req.Params.Name = "blob"
	req.Params.Arguments = map[string]any{"bytes": n}
	res, err := k.c.CallTool(ctx, req)
	if err != nil {
		return err
	}
	return checkMCPGoText(res, n)
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

// checkMCPGoText checks that a result is one text item of n bytes.
func checkMCPGoText(res *mcp.CallToolResult, n int) error {
	if len(res.Content) != 1 {
		return fmt.Errorf("result has %d content items", len(res.Content))
	}
	t, ok := res.Content[0].(mcp.TextContent)
	if !ok || len(t.Text) != n {
		return fmt.Errorf("unexpected content %T", res.Content[0])
	}
	return nil
}
