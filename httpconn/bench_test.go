package httpconn_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/httpconn"
)

// benchServer is go-sdk's Streamable HTTP handler (JSON answers) with an
// echo tool, on 127.0.0.1.
func benchServer(b *testing.B) string {
	s := sdk.NewServer(&sdk.Implementation{Name: "bench", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
	})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{JSONResponse: true}))
	b.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// reportLatency adds p50 and p99 (µs) of the calls' durations.
func reportLatency(b *testing.B, d []time.Duration) {
	slices.Sort(d)
	if len(d) == 0 {
		return
	}
	b.ReportMetric(float64(d[len(d)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(d[len(d)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(len(d))/b.Elapsed().Seconds(), "calls/s")
}

// Sequential tools/call over Streamable HTTP: httpconn, then go-sdk's own
// client, on the same server. go test -run '^$' -bench HTTPCall ./httpconn
func BenchmarkHTTPCallHTTPConn(b *testing.B) {
	url := benchServer(b)
	c, err := httpconn.Dial(b.Context(), url, httpconn.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	ctx := b.Context()
	if _, err := c.Call(ctx, "initialize", json.RawMessage(`{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}`)); err != nil {
		b.Fatal(err)
	}
	_ = c.Notify(ctx, "notifications/initialized", nil)
	params := json.RawMessage(`{"name":"echo","arguments":{}}`)
	d := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		if _, err := c.Call(ctx, "tools/call", params); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(start))
	}
	reportLatency(b, d)
}

func BenchmarkHTTPCallGoSDK(b *testing.B) {
	url := benchServer(b)
	client := sdk.NewClient(&sdk.Implementation{Name: "b", Version: "1"}, nil)
	cs, err := client.Connect(b.Context(), &sdk.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	ctx := b.Context()
	d := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{}}); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(start))
	}
	reportLatency(b, d)
}
