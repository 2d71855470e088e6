package hostprofile

import (
	"encoding/json"
	"strings"
	"testing"
)

// One measure of a result serves check (counted whole) and the
// inspector's marks (counting stops once past every cap), and each host's
// caps are judged from it: its default cap in tokens and the size a tool
// declares for it in _meta.
func TestResultOvers(t *testing.T) {
	code, ok := HostNamed("claude-code")
	if !ok || code.ResultTokens == 0 || code.ResultMetaKey == "" {
		t.Fatalf("claude-code's profile has no result cap: %+v", code)
	}
	result := func(text string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"content": []any{
			map[string]any{"type": "text", "text": text[:len(text)/2]},
			map[string]any{"type": "resource", "resource": map[string]any{"uri": "x:", "text": text[len(text)/2:]}},
		}})
		return b
	}
	big := strings.Repeat("lorem ipsum dolor sit amet, ", 400<<10/28) // over the 25,000-token cap
	if got := ResultText(result(big)); got != big {
		t.Fatalf("ResultText lost text: %d bytes of %d", len(got), len(big))
	}
	whole, err := MeasureResult(big, nil, true)
	if err != nil || whole.Partial || whole.Counted != len(big) || whole.Tokens <= code.ResultTokens || whole.Chars != len(big) {
		t.Fatalf("counted whole: %+v, %v", whole, err)
	}
	part, err := MeasureResult(big, []Host{code}, false)
	if err != nil || !part.Partial || part.Counted >= len(big) || part.Tokens <= code.ResultTokens || part.Tokens >= whole.Tokens {
		t.Fatalf("counted until past the cap: %+v (whole: %+v), %v", part, whole, err)
	}
	if small, _ := MeasureResult("short", []Host{code}, false); small.Tokens != 0 || small.Chars != 5 {
		t.Errorf("a text shorter in bytes than the cap was counted: %+v", small)
	}
	tool := json.RawMessage(`{"name":"t","_meta":{"` + code.ResultMetaKey + `":1000}}`)
	overs := code.ResultOvers(part, tool)
	if len(overs) != 2 || overs[0].MetaKey != "" || overs[1].MetaKey != code.ResultMetaKey ||
		!strings.Contains(overs[0].String(), "more than ") || !strings.HasPrefix(overs[0].Short(), "over claude-code's 25k-token cap: >") ||
		!strings.Contains(overs[1].String(), `of 1000`) {
		t.Errorf("overs: %+v", overs)
	}
	if overs := code.ResultOvers(whole, nil); len(overs) != 1 || !strings.Contains(overs[0].Amount(), "about ") {
		t.Errorf("counted whole, with no listing: %+v", overs)
	}
	if overs := code.ResultOvers(ResultSize{Tokens: 10, Chars: 10}, tool); len(overs) != 0 {
		t.Errorf("a small result is over: %+v", overs)
	}
}
