package main

import (
	"context"

	"github.com/mcptui/mcptui/tools/bench/ceiling"
)

// ceilingClient drives the hand-written ceiling client.
type ceilingClient struct {
	c *ceiling.Client
}

// dialCeiling starts the server and does initialize and
// notifications/initialized.
func dialCeiling(ctx context.Context, path string) (client, error) {
	c, err := ceiling.Dial(path, nil, ceiling.DefaultMaxLine)
	if err != nil {
		return nil, err
	}
	if _, err := c.Call(ctx, "initialize", newInitializeParams()); err != nil {
		c.Close()
		return nil, err
	}
	if err := c.Notify("notifications/initialized", map[string]any{}); err != nil {
		c.Close()
		return nil, err
	}
	return &ceilingClient{c: c}, nil
}

// Echo implements client.
func (k *ceilingClient) Echo(ctx context.Context, seq int64) error {
	text := echoTextFor(seq)
	res, err := k.c.Call(ctx, "tools/call", &toolParams{Name: "echo", Arguments: toolArgs{Text: text}})
	if err != nil {
		return err
	}
	return checkRawEcho(res, text)
}

// Blob implements client.
func (k *ceilingClient) Blob(ctx context.Context, n int) error {
	res, err := k.c.Call(ctx, "tools/call", &toolParams{Name: "blob", Arguments: toolArgs{Bytes: n}})
	if err != nil {
		return err
	}
	return checkRawBlob(res, n)
}

// Flood implements client.
func (k *ceilingClient) Flood(ctx context.Context, n int) error {
	ctx, cancel := context.WithTimeout(ctx, floodTimeout)
	defer cancel()
	_, err := k.c.Call(ctx, "tools/call", &toolParams{Name: "flood", Arguments: toolArgs{Bytes: n}})
	return err
}

// Close implements client.
func (k *ceilingClient) Close() error { return k.c.Close() }
