package main

import (
	"context"
	"fmt"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// goSDKClient drives github.com/modelcontextprotocol/go-sdk's client over
// CommandTransport.
type goSDKClient struct {
	s    *mcp.ClientSession
	echo *mcp.CallToolParams
}

// dialGoSDK connects with Client.Connect, which does the handshake.
func dialGoSDK(ctx context.Context, path string) (client, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "mcpbench", Version: "1.0.0"}, nil)
	t := &mcp.CommandTransport{Command: exec.Command(path), TerminateDuration: time.Second}
	s, err := c.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil {
		return nil, err
	}
	return &goSDKClient{s: s, echo: &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": echoText}}}, nil
}

// Echo implements client.
func (k *goSDKClient) Echo(ctx context.Context) error {
	res, err := k.s.CallTool(ctx, k.echo)
	if err != nil {
		return err
	}
	return checkGoSDKText(res, len(echoText))
}

// Blob implements client.
func (k *goSDKClient) Blob(ctx context.Context, n int) error {
	res, err := k.s.CallTool(ctx, &mcp.CallToolParams{Name: "blob", Arguments: map[string]any{"bytes": n}})
	if err != nil {
		return err
	}
	return checkGoSDKText(res, n)
}

// Flood implements client.
func (k *goSDKClient) Flood(ctx context.Context, n int) error {
	ctx, cancel := context.WithTimeout(ctx, floodTimeout)
	defer cancel()
	_, err := k.s.CallTool(ctx, &mcp.CallToolParams{Name: "flood", Arguments: map[string]any{"bytes": n}})
	return err
}

// Close implements client.
func (k *goSDKClient) Close() error { return k.s.Close() }

// checkGoSDKText checks that a result is one text item of n bytes.
func checkGoSDKText(res *mcp.CallToolResult, n int) error {
	if len(res.Content) != 1 {
		return fmt.Errorf("result has %d content items", len(res.Content))
	}
	t, ok := res.Content[0].(*mcp.TextContent)
	if !ok || len(t.Text) != n {
		return fmt.Errorf("unexpected content %T", res.Content[0])
	}
	return nil
}
