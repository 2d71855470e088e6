package marks

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/hostprofile"
	"github.com/mcptui/mcptui/internal/snapshot"
)

func hosts(t *testing.T, names string) []hostprofile.Host {
	t.Helper()
	hs, err := hostprofile.ParseHosts(names)
	if err != nil {
		t.Fatal(err)
	}
	return hs
}

// TestResultOverTheCap: a tool result over a chosen host's cap says so,
// with the host, the size in tokens and the cap; a small one, a result
// with no host chosen, and a host with no cap recorded say nothing; a
// result over the size the tool declares in _meta says that; a huge one
// is counted only until it is over.
func TestResultOverTheCap(t *testing.T) {
	text := func(s string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}})
		return b
	}
	big := text(strings.Repeat("lorem ipsum dolor sit amet, ", 150_000/28))
	tool := json.RawMessage(`{"name":"t","_meta":{"anthropic/maxResultSizeChars":1000}}`)
	cfg := &Config{Hosts: hosts(t, "claude-code")}
	got := cfg.Result(tool, big)
	if len(got) != 2 || !strings.Contains(got[0], "over claude-code's result cap: ") || !strings.Contains(got[0], "its default cap is 25000 (MAX_MCP_OUTPUT_TOKENS)") ||
		!strings.Contains(got[1], `over its _meta["anthropic/maxResultSizeChars"] of 1000`) {
		t.Errorf("a 150 KB result: %q", got)
	}
	// A result of megabytes is counted until it is over the cap, not to
	// its end.
	huge := cfg.Result(json.RawMessage(`{"name":"t"}`), text(strings.Repeat("lorem ipsum dolor sit amet, ", 4<<20/28)))
	if len(huge) != 1 || !strings.Contains(huge[0], "more than ") || !strings.Contains(huge[0], "KiB") {
		t.Errorf("a 4 MiB result: %q", huge)
	}
	// A request's row says it short.
	overs, err := cfg.Overs(tool, big)
	if err != nil || len(overs) != 2 || !strings.HasPrefix(overs[0].Short(), "over claude-code's 25k-token cap: ") || !strings.HasSuffix(overs[0].Short(), " tokens") ||
		overs[1].Short() != "over the 1,000 chars it declares for claude-code: 149,996 chars" {
		t.Errorf("short: %+v, %v", overs, err)
	}
	if overs, _ := cfg.Overs(nil, text(strings.Repeat("lorem ipsum dolor sit amet, ", 4<<20/28))); len(overs) != 1 || !strings.Contains(overs[0].Short(), "cap: >") {
		t.Errorf("a 4 MiB result, short: %+v", overs)
	}
	if got := cfg.Result(json.RawMessage(`{"name":"t"}`), text("small")); got != nil {
		t.Errorf("a small result: %q", got)
	}
	if got := (&Config{Hosts: hosts(t, "cursor")}).Result(tool, big); got != nil {
		t.Errorf("a host with no cap recorded: %q", got)
	}
	var none *Config
	if got := none.Result(tool, big); got != nil {
		t.Errorf("no host chosen: %q", got)
	}
}

// TestListWithoutABaselineList: a baseline that did not list prompts
// compares no prompts (every one would read as new), and a baseline of
// another era is compared with when it is the only one.
func TestListWithoutABaselineList(t *testing.T) {
	doc := []byte(`{"format":"mcptui-snapshot","version":1,"eras":[{"protocol":"2025-06-18","tools":[{"name":"a","inputSchema":{"type":"object"}}]}]}`)
	cfg := &Config{Baseline: mustParse(t, doc)}
	s := cfg.List("prompts", "2025-11-25", "srv", []json.RawMessage{json.RawMessage(`{"name":"p"}`)})
	if s.Compared || len(s.Marks) != 0 {
		t.Errorf("prompts compared with a baseline that has none: %+v", s)
	}
	s = cfg.List("tools", "2025-11-25", "srv", []json.RawMessage{json.RawMessage(`{"name":"b","inputSchema":{"type":"object"}}`)})
	if !s.Compared || s.Of("b") == nil || s.Of("b").Class != "additive" || len(s.Removed) != 1 || s.Removed[0] != "a" {
		t.Errorf("tools: %+v", s)
	}
}

func mustParse(t *testing.T, b []byte) *snapshot.Document {
	t.Helper()
	d, err := snapshot.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
