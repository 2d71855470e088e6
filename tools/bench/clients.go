package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// protocolVersion is the version every client asks for, so that all of them
// do the same legacy initialize/initialized handshake (both SDKs would
// otherwise probe server/discover first).
const protocolVersion = "2025-11-25"

// echoText begins the argument of every echo call; echoTextFor adds the
// call's number, so that an answer given to the wrong call is caught.
const echoText = "hello, benchmark"

// echoTextFor is the text of echo call seq.
func echoTextFor(seq int64) string {
	return string(strconv.AppendInt([]byte(echoText+" #"), seq, 10))
}

// client is one MCP client library under test, connected to one server
// process and past its handshake.
type client interface {
	// Echo makes one tools/call of the echo tool with echoTextFor(seq) and
	// checks that the answer is exactly that text.
	Echo(ctx context.Context, seq int64) error
	// Blob calls the blob tool for n bytes of text and checks that the
	// answer is exactly n bytes of "x".
	Blob(ctx context.Context, n int) error
	// Flood calls the flood tool, which writes an n-byte line before it
	// answers.
	Flood(ctx context.Context, n int) error
	// Close ends the connection and the server.
	Close() error
}

// dialer connects to the server (a stdio server's path, or an HTTP
// server's URL) and does the client's normal handshake.
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

// httpClients lists the Streamable HTTP clients in table order.
var httpClients = []clientInfo{
	{"mcptui", "mcptui (httpconn)", "mcp.Connect + Client.Request, as the inspector calls: httpconn under it (16 MiB message limit), an Observer on every message; returns raw JSON", dialMCPTUI},
	{"gosdk", "go-sdk v1.8.0", "StreamableClientTransport with its defaults (the standalone GET stream on); decodes into CallToolResult", dialGoSDKHTTP},
	{"mcpgo", "mcp-go v1.2.1", "client.NewStreamableHttpClient with its defaults; decodes into CallToolResult", dialMCPGoHTTP},
}

// Transports the benchmark runs over.
const (
	transportStdio = "stdio"
	transportHTTP  = "http"
)

// clientsOf lists the clients of a transport.
func clientsOf(transport string) []clientInfo {
	if transport == transportHTTP {
		return httpClients
	}
	return clients
}

// defaultClients is the -clients default of a transport.
func defaultClients(transport string) string {
	var names []string
	for _, c := range clientsOf(transport) {
		names = append(names, c.name)
	}
	return strings.Join(names, ",")
}

// errNoFlood is the Flood of a client whose server has no flood tool.
var errNoFlood = errors.New("the HTTP server has no flood tool")

// ceilingName is the client every stdio ratio is taken against.
const ceilingName = "ceiling"

// findClient returns the client of transport called name.
func findClient(transport, name string) (clientInfo, error) {
	list := clientsOf(transport)
	for _, c := range list {
		if c.name == name {
			return c, nil
		}
	}
	var names []string
	for _, c := range list {
		names = append(names, c.name)
	}
	sort.Strings(names)
	return clientInfo{}, fmt.Errorf("unknown %s client %q (have %s)", transport, name, strings.Join(names, ", "))
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

// checkRawEcho reports an error unless a raw tools/call result carries
// text as its text content and is not an error.
func checkRawEcho(raw []byte, text string) error {
	got, err := rawText(raw)
	if err != nil {
		return err
	}
	if string(got) != text {
		return fmt.Errorf("echo answered %q, want %q", shorten(string(got), 80), text)
	}
	return nil
}

// checkRawBlob reports an error unless a raw tools/call result's text
// content is n bytes of "x".
func checkRawBlob(raw []byte, n int) error {
	got, err := rawText(raw)
	if err != nil {
		return err
	}
	return checkBlobText(got, n)
}

// rawText returns the text of the one text content item of a raw
// tools/call result. The benchmark's servers send it unescaped, compact
// and first, so a scan finds it without decoding the whole result.
func rawText(raw []byte) ([]byte, error) {
	const isError, textKey = `"isError":true`, `"text":"`
	if bytes.Contains(raw, []byte(isError)) {
		return nil, fmt.Errorf("the tool failed: %s", shorten(string(raw), 200))
	}
	i := bytes.Index(raw, []byte(textKey))
	if i < 0 {
		return nil, fmt.Errorf("no text content in %s", shorten(string(raw), 200))
	}
	rest := raw[i+len(textKey):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return nil, fmt.Errorf("unterminated text in %s", shorten(string(raw), 200))
	}
	if bytes.Contains(rest[j:], []byte(textKey)) {
		return nil, fmt.Errorf("more than one text item in %s", shorten(string(raw), 200))
	}
	return rest[:j], nil
}

// checkBlobText reports an error unless text is n bytes of "x".
func checkBlobText[T ~string | ~[]byte](text T, n int) error {
	if len(text) != n {
		return fmt.Errorf("blob answered %d bytes, want %d", len(text), n)
	}
	for i := range len(text) {
		if text[i] != 'x' {
			return fmt.Errorf("blob byte %d is %q, want 'x'", i, text[i])
		}
	}
	return nil
}
