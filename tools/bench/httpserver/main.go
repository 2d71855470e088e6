// Command httpserver is the one Streamable HTTP MCP server every HTTP client
// in the benchmark talks to: the official go-sdk's StreamableHTTPHandler in
// its default mode (sessions, answers to POSTs as SSE streams, the GET
// stream), so that each client meets what a real SDK server sends.
//
// It serves two tools:
//
//   - echo {"text": s}: answers with s as text content.
//   - blob {"bytes": n}: answers with n bytes of text content ("x"
//     repeated), built once per size.
//
// It listens on 127.0.0.1 (a free port unless -addr says otherwise), prints
// one line "listening URL" on stdout once it accepts connections, and exits
// when its stdin closes (so it never outlives the driver) or on SIGTERM.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "the address to listen on")
	flag.Parse()
	if err := serve(*addr); err != nil {
		fmt.Fprintln(os.Stderr, "httpserver:", err)
		os.Exit(1)
	}
}

// serve listens, announces the URL and serves until stdin ends or a signal
// comes.
func serve(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: handler()}
	fmt.Printf("listening http://%s/mcp\n", ln.Addr())
	stop := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(stop)
	}()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	go func() {
		select {
		case <-stop:
		case <-sig:
		}
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// handler is the benchmark's MCP endpoint (any path).
func handler() http.Handler {
	s := sdk.NewServer(&sdk.Implementation{Name: "mcpbench-http", Version: "1.0.0"}, nil)
	schema := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"bytes":{"type":"integer"}}}`)
	s.AddTool(&sdk.Tool{Name: "echo", Description: "answers with its text", InputSchema: schema}, echo)
	var blobs blobCache
	s.AddTool(&sdk.Tool{Name: "blob", Description: "answers with n bytes of text", InputSchema: schema}, blobs.call)
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
}

// toolArgs are the arguments of both tools.
type toolArgs struct {
	Text  string `json:"text"`
	Bytes int    `json:"bytes"`
}

func echo(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var a toolArgs
	if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
		return nil, err
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: a.Text}}}, nil
}

// blobCache keeps the text of each size asked for, so the server spends
// its time answering, not building strings.
type blobCache struct {
	mu    sync.Mutex
	texts map[int]string
}

func (b *blobCache) call(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var a toolArgs
	if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
		return nil, err
	}
	if a.Bytes < 0 || a.Bytes > 1<<30 {
		return nil, fmt.Errorf("bytes %d out of range", a.Bytes)
	}
	b.mu.Lock()
	if b.texts == nil {
		b.texts = map[int]string{}
	}
	t, ok := b.texts[a.Bytes]
	if !ok {
		t = strings.Repeat("x", a.Bytes)
		b.texts[a.Bytes] = t
	}
	b.mu.Unlock()
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: t}}}, nil
}
