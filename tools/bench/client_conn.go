package main

import (
	"context"

	"github.com/mcptui/mcptui/conn"
)

// connClient drives mcptui's conn package.
type connClient struct {
	c *conn.Conn
}

// dialConn starts the server with conn.Dial and does initialize and
// notifications/initialized.
func dialConn(ctx context.Context, path string) (client, error) {
	c, err := conn.Dial(context.Background(), path, nil, conn.Options{MaxLineBytes: conn.DefaultMaxLineBytes})
	if err != nil {
		return nil, err
	}
	if _, err := c.Call(ctx, "initialize", newInitializeParams()); err != nil {
		c.Close()
		return nil, err
	}
	if err := c.Notify(ctx, "notifications/initialized", map[string]any{}); err != nil {
		c.Close()
		return nil, err
	}
	return &connClient{c: c}, nil
}

// Echo implements client.
func (k *connClient) Echo(ctx context.Context, seq int64) error {
	text := echoTextFor(seq)
	res, err := k.c.Call(ctx, "tools/call", &toolParams{Name: "echo", Arguments: toolArgs{Text: text}})
	if err != nil {
		return err
	}
	return checkRawEcho(res, text)
}

// Blob implements client.
func (k *connClient) Blob(ctx context.Context, n int) error {
	res, err := k.c.Call(ctx, "tools/call", &toolParams{Name: "blob", Arguments: toolArgs{Bytes: n}})
	if err != nil {
		return err
	}
	return checkRawBlob(res, n)
}

// Flood implements client.
func (k *connClient) Flood(ctx context.Context, n int) error {
	_, err := k.c.Call(ctx, "tools/call", &toolParams{Name: "flood", Arguments: toolArgs{Bytes: n}},
		conn.WithTimeout(floodTimeout))
	return err
}

// Close implements client.
func (k *connClient) Close() error { return k.c.Close() }
