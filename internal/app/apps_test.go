package app

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/apps"
	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/mcp"
)

// TestInspectorDeclaresApps: the inspector renders MCP Apps (its bridge),
// so the initialize it sends declares io.modelcontextprotocol/ui under
// capabilities.extensions with mimeTypes ["text/html;profile=mcp-app"],
// as the extension asks of such a client; on 2026-07-28, which has no
// initialize, each request's clientCapabilities say it.
func TestInspectorDeclaresApps(t *testing.T) {
	t.Setenv(asMainEnv, "1")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ era, method, path string }{
		{mcp.Version20251125, mcp.MethodInitialize, "params.capabilities"},
		{"2026-07-28", mcp.MethodDiscover, "params._meta." + mcp.MetaClientCapabilities},
	} {
		t.Run(c.era, func(t *testing.T) {
			cfg, err := cli.Parse([]string{"--protocol", c.era, "--", self, "demo-server"})
			if err != nil {
				t.Fatal(err)
			}
			opts := inspectorOptions(cfg)
			var mu sync.Mutex
			var sent [][]byte
			opts.Conn.Observer = func(ev conn.Event) {
				if ev.Kind == conn.Sent && ev.Line != nil {
					mu.Lock()
					sent = append(sent, slices.Clone(ev.Line))
					mu.Unlock()
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cl, err := mcp.Connect(ctx, self, []string{"demo-server"}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if mcp.Stateless(c.era) {
				if _, err := cl.Discover(ctx); err != nil {
					t.Fatal(err)
				}
			}
			cl.Shutdown(10 * time.Second)
			mu.Lock()
			defer mu.Unlock()
			for _, line := range sent {
				var m struct {
					Method string `json:"method"`
					Params struct {
						Capabilities json.RawMessage            `json:"capabilities"`
						Meta         map[string]json.RawMessage `json:"_meta"`
					} `json:"params"`
				}
				if json.Unmarshal(line, &m) != nil || m.Method != c.method {
					continue
				}
				caps := m.Params.Capabilities
				if c.method == mcp.MethodDiscover {
					caps = m.Params.Meta[mcp.MetaClientCapabilities]
				}
				var got struct {
					Extensions map[string]struct {
						MIMETypes []string `json:"mimeTypes"`
					} `json:"extensions"`
				}
				_ = json.Unmarshal(caps, &got)
				ui, ok := got.Extensions[apps.ExtensionID]
				if !ok || !slices.Equal(ui.MIMETypes, []string{apps.MIMEType}) {
					t.Fatalf("%s sent %s: %s lacks extensions.%s.mimeTypes [%s]", c.method, line, c.path, apps.ExtensionID, apps.MIMEType)
				}
				return
			}
			t.Fatalf("no %s among the %d lines sent", c.method, len(sent))
		})
	}
}
