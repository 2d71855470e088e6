package headless

import (
	"strings"
	"testing"
)

// TestToolsCost: tools --cost gives each tool's definition in o200k_base
// tokens, costliest first, with the total and the share of the stated
// context; --format text is the table.
func TestToolsCost(t *testing.T) {
	t.Parallel()
	r := run(t, args("tools", "--cost", "--context", "10000", server("demo"))...)
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	res := r.result(t)
	tools, _ := res["tools"].([]any)
	if len(tools) < 2 || !strings.HasPrefix(res["tokenizer"].(string), "o200k_base") || res["contextTokens"].(float64) != 10000 {
		t.Fatalf("%s", r.stdout)
	}
	total, prev := 0.0, 1e18
	for _, x := range tools {
		n := x.(map[string]any)["tokens"].(float64)
		if n > prev || n <= 0 {
			t.Fatalf("not sorted, or an empty count: %s", r.stdout)
		}
		prev, total = n, total+n
	}
	if res["totalTokens"].(float64) != total || res["shareOfContext"].(float64) != total/100 {
		t.Fatalf("total %v share %v, want %v", res["totalTokens"], res["shareOfContext"], total)
	}
	text := run(t, args("tools", "--cost", "--format", "text", server("demo"))...)
	if text.code != ExitOK || !strings.Contains(text.stdout, "200,000-token context") || !strings.Contains(text.stdout, "total for") {
		t.Errorf("text: exit %d\n%s", text.code, text.stdout)
	}
}
