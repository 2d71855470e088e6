package main

import (
	"context"
	"sync/atomic"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
	tui "github.com/mcptui/mcptui/mcp"
)

// The HTTP clients: each is used as its documentation shows, with its
// defaults (every one of them sends through a clone of, or the same,
// net/http default transport: two idle connections kept per host).

// mcptuiClient drives mcptui the way the inspector does: mcp.Connect on
// the URL (httpconn under it, Streamable HTTP with the fallback armed, an
// Observer seeing every message, as the inspector's session has one), and
// raw tools/call requests through mcp.Client.Request.
type mcptuiClient struct {
	c *tui.Client
	// observed counts the messages the Observer saw, so that the
	// events are built and delivered as in the inspector.
	observed atomic.Int64
}

// dialMCPTUI connects with the inspector's options for a URL, pinned to
// protocolVersion (initialize + notifications/initialized, no probe). The
// context given to mcp.Connect is the connection's life (as the
// inspector's session gives it its own), so ctx only bounds the handshake.
func dialMCPTUI(ctx context.Context, url string) (client, error) {
	k := &mcptuiClient{}
	opts := tui.Options{
		Conn:       conn.Options{Observer: func(conn.Event) { k.observed.Add(1) }},
		HTTP:       httpconn.Options{Mode: httpconn.Auto},
		Versions:   []string{protocolVersion},
		ClientInfo: tui.Implementation{Name: "mcpbench", Version: "1.0.0"},
	}
	type dialed struct {
		c   *tui.Client
		err error
	}
	ch := make(chan dialed, 1)
	go func() {
		c, err := tui.Connect(context.Background(), url, nil, opts)
		ch <- dialed{c, err}
	}()
	select {
	case d := <-ch:
		if d.err != nil {
			return nil, d.err
		}
		k.c = d.c
		return k, nil
	case <-ctx.Done():
		go func() {
			if d := <-ch; d.c != nil {
				d.c.Close()
			}
		}()
		return nil, ctx.Err()
	}
}

// Echo implements client.
func (k *mcptuiClient) Echo(ctx context.Context, seq int64) error {
	text := echoTextFor(seq)
	res, err := k.c.Request(ctx, "tools/call", &toolParams{Name: "echo", Arguments: toolArgs{Text: text}})
	if err != nil {
		return err
	}
	return checkRawEcho(res, text)
}

// Blob implements client.
func (k *mcptuiClient) Blob(ctx context.Context, n int) error {
	res, err := k.c.Request(ctx, "tools/call", &toolParams{Name: "blob", Arguments: toolArgs{Bytes: n}})
	if err != nil {
		return err
	}
	return checkRawBlob(res, n)
}

// Flood implements client (the HTTP server has no flood tool).
func (k *mcptuiClient) Flood(ctx context.Context, n int) error { return errNoFlood }

// Close implements client: DELETE of the session, then the streams end.
func (k *mcptuiClient) Close() error { return k.c.Close() }

// dialGoSDKHTTP connects go-sdk's client over StreamableClientTransport.
func dialGoSDKHTTP(ctx context.Context, url string) (client, error) {
	c := mcp.NewClient(&mcp.Implementation{Name: "mcpbench", Version: "1.0.0"}, nil)
	s, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil {
		return nil, err
	}
	return &goSDKClient{s: s}, nil
}

// dialMCPGoHTTP connects mcp-go's client over its Streamable HTTP
// transport and calls Initialize.
func dialMCPGoHTTP(ctx context.Context, url string) (client, error) {
	c, err := mcpclient.NewStreamableHttpClient(url)
	if err != nil {
		return nil, err
	}
	if err := c.Start(ctx); err != nil {
		c.Close()
		return nil, err
	}
	var init mcpgo.InitializeRequest
	init.Params.ProtocolVersion = protocolVersion
	init.Params.ClientInfo = mcpgo.Implementation{Name: "mcpbench", Version: "1.0.0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		c.Close()
		return nil, err
	}
	return &mcpGoClient{c: c}, nil
}
