package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// testHTTP is the HTTP benchmark server the test binary starts once, when
// a test first needs it; TestMain stops it.
var testHTTP struct {
	once sync.Once
	dir  string
	srv  *httpServer
	err  error
}

// httpServerOnce builds and starts the HTTP benchmark server once.
func httpServerOnce() (*httpServer, error) {
	testHTTP.once.Do(func() {
		testHTTP.dir, testHTTP.err = os.MkdirTemp("", "mcpbench-http-")
		if testHTTP.err != nil {
			return
		}
		var path string
		if path, testHTTP.err = buildPackage(context.Background(), testHTTP.dir, "./httpserver"); testHTTP.err != nil {
			return
		}
		testHTTP.srv, testHTTP.err = startHTTPServer(path)
	})
	return testHTTP.srv, testHTTP.err
}

// stopTestHTTP stops the server if a test started it.
func stopTestHTTP() {
	if testHTTP.srv != nil {
		testHTTP.srv.stop()
	}
	if testHTTP.dir != "" {
		os.RemoveAll(testHTTP.dir)
	}
}

// benchHTTPURL is the running HTTP benchmark server's URL.
func benchHTTPURL(tb testing.TB) string {
	tb.Helper()
	s, err := httpServerOnce()
	if err != nil {
		tb.Fatal(err)
	}
	return s.url
}

// TestQuickRunHTTP runs `go run . -transport http -quick` on every HTTP
// client against the real server binary and checks that each workload gave
// a number for each of them.
func TestQuickRunHTTP(t *testing.T) {
	out := filepath.Join(t.TempDir(), "http.md")
	cfg, path, err := parseFlags([]string{"-transport", "http", "-quick", "-out", out}, testWriter{t})
	if err != nil {
		t.Fatal(err)
	}
	var stdout strings.Builder
	if err := run(context.Background(), cfg, path, &stdout); err != nil {
		t.Fatal(err)
	}
	report := stdout.String()
	if strings.Contains(report, "### Failures") || strings.Contains(report, "failed") {
		t.Errorf("some runs failed:\n%s", report)
	}
	for _, want := range []string{"# MCP Streamable HTTP client benchmark", "### Sequential calls", "### 64 calls in flight",
		"### One 1 MiB response", "| mcptui (httpconn) |", "| go-sdk v1.8.0 |", "| mcp-go v1.2.1 |", "1.00x"} {
		if !strings.Contains(report, want) {
			t.Errorf("the report lacks %q:\n%s", want, report)
		}
	}
	// Three clients × three rows with a number each: no empty cell.
	if strings.Contains(report, "| — |") {
		t.Errorf("the report has a cell without a value:\n%s", report)
	}
}

// lyingServer is go-sdk's handler with tools that answer wrongly: echo
// answers the text of another call, blob one byte short (or, for 7 bytes,
// the right length with a wrong byte).
func lyingServer(t *testing.T) string {
	s := sdk.NewServer(&sdk.Implementation{Name: "liar", Version: "1"}, nil)
	schema := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&sdk.Tool{Name: "echo", InputSchema: schema}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var a toolArgs
		_ = json.Unmarshal(req.Params.Arguments, &a)
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: a.Text + "1"}}}, nil
	})
	s.AddTool(&sdk.Tool{Name: "blob", InputSchema: schema}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var a toolArgs
		_ = json.Unmarshal(req.Params.Arguments, &a)
		text := strings.Repeat("x", a.Bytes-1)
		if a.Bytes == 7 {
			text = "xxxyxxx"
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil
	})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// TestHTTPClientsCheckAnswers: every HTTP client answers right calls
// without error on the real server, and fails a wrong echo, a short blob
// and a blob with a wrong byte.
func TestHTTPClientsCheckAnswers(t *testing.T) {
	good, liar := benchHTTPURL(t), lyingServer(t)
	ctx := t.Context()
	for _, ci := range httpClients {
		t.Run(ci.name, func(t *testing.T) {
			c, err := ci.dial(ctx, good)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Echo(ctx, 12); err != nil {
				t.Errorf("a right echo failed: %v", err)
			}
			if err := c.Blob(ctx, 1000); err != nil {
				t.Errorf("a right blob failed: %v", err)
			}
			l, err := ci.dial(ctx, liar)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			if err := l.Echo(ctx, 1); err == nil {
				t.Error("an echo answered with another call's text passed")
			}
			if err := l.Blob(ctx, 1000); err == nil {
				t.Error("a blob one byte short passed")
			}
			if err := l.Blob(ctx, 7); err == nil {
				t.Error("a blob with a wrong byte passed")
			}
		})
	}
}

// TestRunParallelCountsAnswers: the in-flight runner fails when a call's
// answer is wrong, naming the call.
func TestRunParallelCountsAnswers(t *testing.T) {
	if _, err := runParallel(t.Context(), wrongAt{at: 37}, 8, 100, 0); err == nil || !strings.Contains(err.Error(), "call 37") {
		t.Fatalf("runParallel with a wrong answer at call 37: %v", err)
	}
	if m, err := runParallel(t.Context(), wrongAt{at: -1}, 8, 100, 0); err != nil || m.Calls != 100 || m.P99 <= 0 {
		t.Fatalf("runParallel with right answers: %+v, %v", m, err)
	}
}

// wrongAt is a client whose echo call number at is answered wrongly.
type wrongAt struct{ at int64 }

func (w wrongAt) Echo(_ context.Context, seq int64) error {
	if seq == w.at {
		return checkRawEcho([]byte(`{"content":[{"type":"text","text":"hello"}]}`), echoTextFor(seq))
	}
	return nil
}
func (wrongAt) Blob(context.Context, int) error  { return nil }
func (wrongAt) Flood(context.Context, int) error { return nil }
func (wrongAt) Close() error                     { return nil }

// BenchmarkHTTPSequential measures one tools/call echo at a time per HTTP
// client against the benchmark's HTTP server (a separate process, so a
// profile shows only the client):
// go test -run X -bench HTTPSequential/mcptui -cpuprofile cpu.out
func BenchmarkHTTPSequential(b *testing.B) {
	for _, ci := range httpClients {
		b.Run(ci.name, func(b *testing.B) { benchSequentialOn(b, dialBenchTo(b, ci.dial, benchHTTPURL(b))) })
	}
}

// BenchmarkHTTPParallel is BenchmarkHTTPSequential with 64 calls in flight.
func BenchmarkHTTPParallel(b *testing.B) {
	for _, ci := range httpClients {
		b.Run(ci.name, func(b *testing.B) { benchParallelOn(b, dialBenchTo(b, ci.dial, benchHTTPURL(b))) })
	}
}

// BenchmarkHTTPBlob15MiB measures one 15 MiB response per HTTP client.
func BenchmarkHTTPBlob15MiB(b *testing.B) {
	for _, ci := range httpClients {
		b.Run(ci.name, func(b *testing.B) { benchBlobOn(b, dialBenchTo(b, ci.dial, benchHTTPURL(b)), 15<<20) })
	}
}
