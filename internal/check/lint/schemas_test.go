package lint

import (
	"slices"
	"testing"

	"github.com/mcptui/mcptui/internal/schemaform"
)

// The output-schema rule needs a JSON Schema validator, which the lint
// does not import (the model, which runs it live, depends on values
// only): NewWithSchemas takes one from above, New judges without it.
func TestStructuredContentIsJudgedWithTheValidatorGiven(t *testing.T) {
	lines := append(splitLines(initLines),
		`>{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`<{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}}]}}`,
		`>{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t"}}`,
		`<{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"{\"n\":\"x\"}"}],"structuredContent":{"n":"x"}}}`)
	judge := func(l *Linter) []string {
		var out []Finding
		for i, ln := range lines {
			out = append(out, l.Observe(Line{Seq: uint64(i + 1), Out: ln[0] == '>', Raw: []byte(ln[1:])})...)
		}
		return ids(out)
	}
	const rule = "tools.structured-content-conforms"
	if got := judge(NewWithSchemas(schemaform.Validator)); !slices.Contains(got, rule) {
		t.Errorf("with a validator: %v, want %s", got, rule)
	}
	if got := judge(New()); slices.Contains(got, rule) {
		t.Errorf("without a validator the rule was judged: %v", got)
	}
	l := NewWithSchemas(schemaform.Validator)
	l.Reset()
	if got := judge(l); !slices.Contains(got, rule) {
		t.Errorf("Reset dropped the validator: %v", got)
	}
}
