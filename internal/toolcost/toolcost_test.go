package toolcost

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestKnownVectors checks the tokenizer against tiktoken's own test
// vector for o200k_base (tests/test_encoding.py: "hello world" is
// [24912, 2375]).
func TestKnownVectors(t *testing.T) {
	ids, err := Encode("hello world")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{24912, 2375}; !slices.Equal(ids, want) {
		t.Fatalf("o200k_base(%q) = %v, want %v", "hello world", ids, want)
	}
	n, err := Count(strings.Repeat("hello world", 100))
	if err != nil {
		t.Fatal(err)
	}
	if n >= len(strings.Repeat("hello world", 100))/2 || n < 100 {
		t.Fatalf("Count of 100 × hello world = %d: not BPE tokens", n)
	}
}

// TestOfSortsAndShares: the costliest tool first, the total and the
// share of the stated context.
func TestOfSortsAndShares(t *testing.T) {
	small := json.RawMessage(`{"name":"a","inputSchema":{"type":"object"}}`)
	big := json.RawMessage(`{"name":"b","description":"` + strings.Repeat("a long description ", 200) + `","inputSchema":{"type":"object"}}`)
	l, err := Of([]json.RawMessage{small, big}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if l.Tools[0].Name != "b" || l.Tools[1].Name != "a" {
		t.Fatalf("order %v, want b first", l.Tools)
	}
	if l.Total != l.Tools[0].Tokens+l.Tools[1].Tokens || l.Context != 1000 {
		t.Fatalf("total %d context %d", l.Total, l.Context)
	}
	if want := float64(l.Total) / 10; l.Share != want {
		t.Fatalf("share %v, want %v", l.Share, want)
	}
	var b strings.Builder
	if err := l.WriteText(&b, func(s string) string { return s }); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "o200k_base") || !strings.Contains(b.String(), "total for 2 tools") {
		t.Fatalf("text:\n%s", b.String())
	}
}
