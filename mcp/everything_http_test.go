package mcp_test

import (
	"strings"
	"testing"

	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/testkit/everything"
	"github.com/mcptui/mcptui/mcp"
)

// The everything server (npm) in its two HTTP modes, a real field test of
// both transports: Streamable HTTP at /mcp, and the 2024-11-05 HTTP+SSE
// transport at /sse found by the fallback. Each lists its tools and
// echoes.
func TestEverythingHTTP(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want httpconn.Mode
	}{{"streamableHttp", httpconn.Streamable}, {"sse", httpconn.SSE}} {
		t.Run(tc.mode, func(t *testing.T) {
			url := everything.HTTPServer(t, tc.mode)
			c, err := mcp.Connect(t.Context(), url, nil, mcp.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if c.HTTPMode() != tc.want {
				t.Errorf("transport %v, want %v (negotiation %+v)", c.HTTPMode(), tc.want, c.Negotiation().Steps)
			}
			tools, err := c.ListTools(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			names := map[string]bool{}
			for _, tool := range tools.Items {
				names[tool.Name] = true
			}
			if !names["echo"] {
				t.Fatalf("tools: %v", names)
			}
			res, err := c.CallTool(t.Context(), "echo", map[string]any{"message": "over " + tc.mode})
			if err != nil || !strings.Contains(string(res.Raw), "over "+tc.mode) {
				t.Fatalf("echo: %+v, %v", res, err)
			}
			t.Logf("%s: %s, %d tools, version %s", tc.mode, url, len(tools.Items), c.Version())
		})
	}
}
