package ui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/hostprofile"
	"github.com/mcptui/mcptui/internal/session"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/catalog/marks"
)

// TestResultOverACapIsMarkedInPane1: with claude-code chosen (mcptui
// --host claude-code), the demo's large tool's 1 MiB result is marked
// under its request's row in pane 1 (the host, its cap, the count) and
// echo's is not; the keys answer meanwhile; opening the request says it
// in full. Without a host chosen nothing is marked.
func TestResultOverACapIsMarkedInPane1(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo server")
	}
	hosts, err := hostprofile.ParseHosts("claude-code")
	if err != nil {
		t.Fatal(err)
	}
	l := startServer(t, demoEnv, "1", nil, model.Config{}, func(o *Options, s *session.Session) {
		o.CatalogMarks = &marks.Config{Hosts: hosts}
		o.Catalog = s.Catalog("demo")
	})
	l.waitText("● ready")
	call := func(tool string, args map[string]any) {
		t.Helper()
		params, _ := json.Marshal(map[string]any{"name": tool, "arguments": args})
		if _, err := l.sess.Call(context.Background(), backend.CallRequest{Method: "tools/call", Params: params}); err != nil {
			t.Fatalf("calling %s: %v", tool, err)
		}
	}
	call("large", map[string]any{})
	call("echo", map[string]any{"message": "hi"})
	s := l.waitText("✗ over claude-code's 25k-token cap: >")
	l.answersKeys()
	rows := strings.Split(s, "\n")
	under := func(target string) string {
		for i, r := range rows {
			if strings.Contains(r, "tools/call") && strings.Contains(r, " "+target+" ") && i+1 < len(rows) {
				return rows[i+1]
			}
		}
		t.Fatalf("no row for %s:\n%s", target, s)
		return ""
	}
	if got := under("large"); !strings.Contains(got, "✗ over claude-code's 25k-token cap: >") || !strings.Contains(got, " tokens") {
		t.Errorf("under large's row: %q", got)
	}
	if got := under("echo"); strings.Contains(got, "over claude-code") {
		t.Errorf("echo is marked: %q", got)
	}
	// The request's outcome says it in full. The rows are newest first:
	// echo, then large.
	l.p.Send(keyMsg("1"))
	l.p.Send(keyMsg("down"))
	l.p.Send(keyMsg("enter"))
	l.waitText("over claude-code's result cap: more than ")
	l.waitText("(MAX_MCP_OUTPUT_TOKENS)")
}

// TestNoHostNoCapMark: without a host chosen, a large result is not
// marked (the catalog marks nothing either).
func TestNoHostNoCapMark(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo server")
	}
	l := startServer(t, demoEnv, "1", nil, model.Config{})
	l.waitText("● ready")
	params, _ := json.Marshal(map[string]any{"name": "large", "arguments": map[string]any{}})
	if _, err := l.sess.Call(context.Background(), backend.CallRequest{Method: "tools/call", Params: params}); err != nil {
		t.Fatal(err)
	}
	l.waitMatch(`tools/call +large .* ok`)
	l.answersKeys()
	if s := l.screen(); strings.Contains(s, "over claude-code") || strings.Contains(s, "✗ over") {
		t.Errorf("marked without a host chosen:\n%s", s)
	}
}
