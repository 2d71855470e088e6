package toolcost

import (
	"encoding/json"
	"fmt"
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

// TestVectorsUnchanged: the compressed ranks give the ids the
// uncompressed ones gave (tiktoken-go-loader's o200k_base.tiktoken, before
// the ranks were embedded deflated): tiktoken's own vector and strings of
// every kind a tool definition holds.
func TestVectorsUnchanged(t *testing.T) {
	for _, v := range []struct {
		text string
		ids  []int
	}{
		{"hello world", []int{24912, 2375}},
		{"", []int{}},
		{" ", []int{220}},
		{"Hello, World! 123", []int{13225, 11, 5922, 0, 220, 7633}},
		{"日本語のテキスト", []int{9048, 40909, 3385, 16056, 18368, 38236}},
		{"func main() {\n\tfmt.Println(\"héllo\")\n}", []int{5652, 2758, 416, 405, 24728, 28250, 568, 79163, 72807, 1896, 92}},
		{"🙂👍🏽 emoji", []int{37459, 82514, 52622, 121, 74471}},
		{"{\"name\":\"get_weather\",\"description\":\"Get the weather\",\"input_schema\":{\"type\":\"object\"}}", []int{10848, 897, 7534, 522, 170154, 4294, 9186, 7534, 1816, 290, 11122, 4294, 2586, 56952, 70649, 2493, 7534, 3369, 57612}},
		{"    indented\r\n\ttabs", []int{271, 1383, 23537, 370, 6264, 6071}},
		{"supercalifragilisticexpialidocious antidisestablishmentarianism", []int{17789, 5842, 366, 17764, 311, 6207, 8067, 563, 315, 170661, 4624, 129901, 376, 160388, 21203, 2367}},
	} {
		ids, err := Encode(v.text)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ids, v.ids) {
			t.Errorf("o200k_base(%q) = %v, want %v", v.text, ids, v.ids)
		}
	}
}

// TestDecodeRanksRefusesDamage: ranks cut short are an error, not a
// tokenizer that counts wrong.
func TestDecodeRanksRefusesDamage(t *testing.T) {
	if _, err := decodeRanks(o200kRanks[:len(o200kRanks)/2]); err == nil {
		t.Fatal("half the ranks decoded")
	}
	if _, err := (embeddedLoader{}).LoadTiktokenBpe("https://example/cl100k_base.tiktoken"); err == nil {
		t.Fatal("cl100k_base loaded")
	}
}

// TestCacheCountsOnce: a Cache's counts are Of's, and a definition it
// counted is not counted again (a changed one is); tools counted on
// every core keep the list's order of errors.
func TestCacheCountsOnce(t *testing.T) {
	tools := []json.RawMessage{
		json.RawMessage(`{"name":"a","description":"one","inputSchema":{"type":"object"}}`),
		json.RawMessage(`{"name":"b","description":"a longer description than the other","inputSchema":{"type":"object"}}`),
	}
	want, err := Of(tools, 0)
	if err != nil {
		t.Fatal(err)
	}
	var c Cache
	got, err := c.Of(tools, 0)
	if err != nil || got.Total != want.Total || len(got.Tools) != 2 || got.Tools[0] != want.Tools[0] {
		t.Fatalf("cached: %+v, %v; want %+v", got, err, want)
	}
	if len(c.tokens) != 2 {
		t.Fatalf("%d definitions remembered; want 2", len(c.tokens))
	}
	changed := append(slices.Clone(tools), json.RawMessage(`{"name":"a","description":"changed","inputSchema":{"type":"object"}}`))
	if _, err := c.Of(changed, 0); err != nil || len(c.tokens) != 3 {
		t.Fatalf("a changed definition: %d remembered, %v; want 3", len(c.tokens), err)
	}
	// A list that changes on every listing does not grow it without end.
	for i := range 3000 {
		if _, err := c.Of([]json.RawMessage{json.RawMessage(fmt.Sprintf(`{"name":"t%d"}`, i))}, 0); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(c.tokens); n > 2*1+1024+1 {
		t.Fatalf("%d definitions remembered after 3,000 one-tool lists", n)
	}
	bad := []json.RawMessage{tools[0], json.RawMessage(`1`), json.RawMessage(`"x"`)}
	if _, err := c.Of(bad, 0); err == nil || !strings.Contains(err.Error(), "number") {
		t.Fatalf("the first bad tool's error: %v", err)
	}
}
