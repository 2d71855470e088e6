package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// protocolVersion is the version every client asks for, so that all of them
// do the same legacy initialize/initialized handshake (both SDKs would
// otherwise probe server/discover first).
const protocolVersion = "2025-11-25"

// echoText is the argument of every echo call.
const echoText = "hello, benchmark"

// client is one MCP client library under test, connected to one server
// process and past its handshake.
type client interface {
	// Echo makes one tools/call of the echo tool and checks the answer.
	Echo(ctx context.Context) error
	// Blob calls the blob tool for n bytes of text and checks the size.
	Blob(ctx context.Context, n int) error
	// Flood calls the flood tool, which writes an n-byte line before it
	// answers.
	Flood(ctx context.Context, n int) error
	// Close ends the connection and the server.
	Close() error
}

// dialer starts the server at path and does the client's normal handshake.
type dialer func(ctx context.Context, path string) (client, error)

// clientInfo describes one client for the report.
type clientInfo struct {
	name  string // short name used on the command line
	label string // name in the table
	note  string // line limit and other facts for the report
	dial  dialer
}

// clients lists every client in table order; the ceiling comes last.
var clients = []clientInfo{
	{"conn", "mcptui conn", "MaxLineBytes 16 MiB (the default); returns raw JSON", dialConn},
	{"gosdk", "go-sdk v1.8.0", "CommandTransport: fixed 16 MiB frame limit; decodes into CallToolResult", dialGoSDK},
	{"mcpgo", "mcp-go v1.2.1", "stdio client: no line limit (bufio.ReadString); decodes into CallToolResult", dialMCPGo},
	{"ceiling", "hand-written ceiling", "bufio + encoding/json, 16 MiB limit, discards longer lines; returns raw JSON", dialCeiling},
}

// ceilingName is the client every ratio is taken against.
const ceilingName = "ceiling"

// findClient returns the client called name.
func findClient(name string) (clientInfo, error) {
	for _, c := range clients {
		if c.name == name {
			return c, nil
		}
	}
	var names []string
	for _, c := range clients {
		names = append(names, c.name)
	}
	sort.Strings(names)
	return clientInfo{}, fmt.Errorf("unknown client %q (have %s)", name, strings.Join(names, ", "))
}

// toolParams are the params of a tools/call, for the clients that take
// plain Go values.
type toolParams struct {
	Name      string   `json:"name"`
	Arguments toolArgs `json:"arguments"`
}

// toolArgs are the arguments of the benchmark's tools.
type toolArgs struct {
	Text  string `json:"text,omitempty"`
	Bytes int    `json:"bytes,omitempty"`
}

// initializeParams are the params of initialize, for the clients that take
// plain Go values.
type initializeParams struct {
	ProtocolVersion string         `json:"protocolVersion"`
	Capabilities    map[string]any `json:"capabilities"`
	ClientInfo      implementation `json:"clientInfo"`
}

// implementation names a client in initialize.
type implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// newInitializeParams returns the initialize params used by conn and the
// ceiling.
func newInitializeParams() initializeParams {
	return initializeParams{
		ProtocolVersion: protocolVersion,
		Capabilities:    map[string]any{},
		ClientInfo:      implementation{Name: "mcpbench", Version: "1.0.0"},
	}
}

// checkRawSize reports an error unless a raw result is at least n bytes.
func checkRawSize(raw []byte, n int) error {
	if len(raw) < n {
		return fmt.Errorf("result is %d bytes, want at least %d", len(raw), n)
	}
	return nil
}
