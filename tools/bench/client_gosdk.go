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
	s *mcp.ClientSession
}

// dialGoSDK connects with Client.Connect, which does the handshake.
func dialGoSDK(ctx context.Context, path string) (client, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "mcpbench", Version: "1.0.0"}, nil)
	t := &mcp.CommandTransport{Command: exec.Command(path), TerminateDuration: time.Second}
	s, err := c.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil {
		return nil, err
	}
	return &goSDKClient{s: s}, nil
}

// Echo implements client.
func (k *goSDKClient) Echo(ctx context.Context, seq int64) error {
	text := echoTextFor(seq)
	res, err := k.s.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": text}})
	if err != nil {
		return err
	}
	got, err := goSDKText(res)
	if err != nil {
		return err
	}
	if got != text {
		return fmt.Errorf("echo answered %q, want %q", shorten(got, 80), text)
	}
	return nil
}

// Blob implements client.
func (k *goSDKClient) Blob(ctx context.Context, n int) error {
	res, err := k.s.CallTool(ctx, &mcp.CallToolParams{Name: "blob", Arguments: map[string]any{"bytes": n}})
	if err != nil {
		return err
	}
	got, err := goSDKText(res)
	if err != nil {
		return err
	}
	return checkBlobText(got, n)
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

// goSDKText returns the text of a result that is one text item and not an
// error.
func goSDKText(res *mcp.CallToolResult) (string, error) {
	if res.IsError {
		return "", fmt.Errorf("the tool failed: %v", res.Content)
	}
	if len(res.Content) != 1 {
		return "", fmt.Errorf("result has %d content items", len(res.Content))
	}
	t, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return "", fmt.Errorf("unexpected content %T", res.Content[0])
	}
	return t.Text, nil
}
