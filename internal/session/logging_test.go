package session

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// startLogging is start with Config.LogLevel set.
func startLogging(t *testing.T, level string, versions ...string) *harness {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(roleEnv, "1")
	s, err := Start(context.Background(), Config{
		Command:  exe,
		MCP:      mcp.Options{Versions: versions},
		Inbox:    inbox.New(inbox.Limits{}),
		LogLevel: level,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	return &harness{t: t, s: s}
}

// The log level asked for at start reaches the server the way its era
// takes it — logging/setLevel on the initialize era, every request's _meta
// on 2026-07-28 (nothing on the wire) — so that the demo's log tool shows
// all eight levels, debug included; Ready carries the server's
// instructions and how the version was chosen.
func TestLogLevelAtStart(t *testing.T) {
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			var h *harness
			if version == "2026-07-28" {
				h = startLogging(t, "debug")
			} else {
				h = startLogging(t, "debug", version, "2025-06-18")
			}
			ready := waitFor(h, "Ready", anyOf[model.Ready])
			if !strings.Contains(ready.Info.Instructions, "mcptui's demo server") || !strings.Contains(string(ready.Info.Capabilities), `"logging"`) ||
				ready.Info.Reason == "" || len(ready.Info.Allowed) == 0 {
				t.Errorf("Ready.Info = %+v", ready.Info)
			}
			set := waitFor(h, "the level set", anyOf[model.LogLevelSet])
			if set.Level != "debug" || set.Err != "" {
				t.Fatalf("LogLevelSet = %+v", set)
			}
			sent := false
			for _, ev := range h.events {
				if w, ok := ev.(model.Wire); ok && w.Dir == model.Out && strings.Contains(string(w.Line), `"logging/setLevel"`) {
					sent = true
				}
			}
			if want := version != "2026-07-28"; sent != want {
				t.Errorf("logging/setLevel on the wire: %v, want %v", sent, want)
			}
			args, _ := json.Marshal(map[string]any{"name": "log", "arguments": map[string]any{}})
			if _, err := h.s.Send(context.Background(), "tools/call", args, 0); err != nil {
				t.Fatal(err)
			}
			waitFor(h, "a debug log message", func(w model.Wire) bool {
				return w.Dir == model.In && strings.Contains(string(w.Line), `"notifications/message"`) && strings.Contains(string(w.Line), `"level":"debug"`)
			})
		})
	}
}

// SetLogLevel changes the level later, and an unknown level is refused
// with the level in effect kept.
func TestSetLogLevel(t *testing.T) {
	h := startLogging(t, "debug", "2025-11-25")
	waitFor(h, "the level set", func(e model.LogLevelSet) bool { return e.Level == "debug" })
	if err := h.s.SetLogLevel(context.Background(), "warning"); err != nil {
		t.Fatal(err)
	}
	waitFor(h, "warning set", func(e model.LogLevelSet) bool { return e.Level == "warning" && e.Err == "" })
	if err := h.s.SetLogLevel(context.Background(), "loud"); err == nil {
		t.Fatal("an unknown level was accepted")
	}
	waitFor(h, "the refusal", func(e model.LogLevelSet) bool { return e.Level == "warning" && strings.Contains(e.Err, "loud") })
}
