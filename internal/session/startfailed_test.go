package session

import (
	"context"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// TestStartFailureSaysWhoStoppedTheServer: a server silent on initialize,
// or answering it with an error, is stopped by mcptui once the start has
// failed (Failed.Stopped); a server that exits during its start stopped on
// its own.
func TestStartFailureSaysWhoStoppedTheServer(t *testing.T) {
	for _, c := range []struct {
		script  string
		stopped bool
	}{
		{"cat >/dev/null", true},
		{`read l; printf '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no"}}\n'; cat >/dev/null`, true},
		{"exit 3", false},
	} {
		t.Run(c.script, func(t *testing.T) {
			s, err := Start(context.Background(), Config{Command: "sh", Args: []string{"-c", c.script},
				MCP:   mcp.Options{Versions: []string{mcp.Version20251125}, RequestTimeout: 300 * time.Millisecond},
				Inbox: inbox.New(inbox.Limits{})})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			for {
				batch, err := s.Next(ctx)
				if err != nil {
					t.Fatalf("no Failed event: %v", err)
				}
				for _, ev := range batch {
					if f, ok := ev.(model.Failed); ok {
						if f.Stopped != c.stopped {
							t.Errorf("Failed %+v; want Stopped %v", f, c.stopped)
						}
						return
					}
				}
			}
		})
	}
}
