package verify

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// sdkServer is a go-sdk server with one tool, add, whose answer is sum.
func sdkServer(sum string) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "adder", Version: "1"}, nil)
	type in struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "add", Description: "adds"}, func(context.Context, *sdk.CallToolRequest, in) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: sum}}}, nil, nil
	})
	return s
}

// httpTransports serve a server over each HTTP transport mcptui speaks.
var httpTransports = []struct {
	name  string
	mode  httpconn.Mode
	serve func(*sdk.Server) http.Handler
}{
	{"streamable-http", httpconn.Auto, func(s *sdk.Server) http.Handler {
		return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	}},
	{"streamable-http-stateless", httpconn.Auto, func(s *sdk.Server) http.Handler {
		return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{Stateless: true})
	}},
	{"http+sse", httpconn.SSE, func(s *sdk.Server) http.Handler {
		return sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return s }, nil)
	}},
}

// TestVerifyOverHTTP: a session recorded over each HTTP transport is
// verified over it: the same server is the same throughout, a changed one
// is named with its difference.
func TestVerifyOverHTTP(t *testing.T) {
	for _, tr := range httpTransports {
		t.Run(tr.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			v1 := httptest.NewServer(tr.serve(sdkServer("5")))
			defer v1.Close()
			var buf bytes.Buffer
			rec := record.New(&buf, record.Header{Command: v1.URL})
			c, err := mcp.Connect(ctx, v1.URL, nil, mcp.Options{HTTP: httpconn.Options{Mode: tr.mode}, Conn: conn.Options{Observer: rec.Observe}})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.ListTools(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := c.CallTool(ctx, "add", map[string]any{"a": 2, "b": 3}); err != nil {
				t.Fatal(err)
			}
			c.Shutdown(time.Second)
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
			r, err := record.Read(&buf)
			if err != nil {
				t.Fatal(err)
			}
			verify := func(url string) *Report {
				rep, err := Run(ctx, r, Options{Command: url, HTTP: httpconn.Options{Mode: tr.mode}, Timeout: 20 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				return rep
			}
			if rep := verify(v1.URL); rep.Fails("any") || len(rep.Exchanges) < 3 {
				t.Fatalf("against the same server:\n%s", text(t, rep))
			}
			v2 := httptest.NewServer(tr.serve(sdkServer("6")))
			defer v2.Close()
			rep := verify(v2.URL)
			out := text(t, rep)
			if !rep.Fails("risky") || rep.Counts[Changed] != 1 || !strings.Contains(out, `.result.content[0].text: "5" → "6"`) {
				t.Fatalf("against a changed server, want the call changed:\n%s", out)
			}
		})
	}
}
