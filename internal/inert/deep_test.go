package inert

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// WriteJSONJSON indents as json.Indent does, down to MaxIndentDepth.
func TestWriteIndentsLikeIndent(t *testing.T) {
	for _, in := range []string{
		`{"a":[1,2,{"b":null}],"c":{},"d":[],"e":"x\"y\\\\","f":{"g":[[]]}}`,
		` [ 1 , "two" , { "three" : 3 } ] `,
		`"just a string"`,
		`{"k":"\u00e9 caf\u00e9 — ok"}`,
	} {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(in), "", "  "); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteJSON(&got, []byte(in), true); err != nil {
			t.Fatal(err)
		}
		if got.String() != string(EscapeJSON(bytes.TrimSpace(want.Bytes())))+"\n" {
			t.Errorf("WriteJSON(%s) =\n%s\nwant\n%s", in, got.String(), want.String())
		}
		got.Reset()
		var compact bytes.Buffer
		_ = json.Compact(&compact, []byte(in))
		if err := WriteJSON(&got, []byte(in), false); err != nil || got.String() != compact.String()+"\n" {
			t.Errorf("compact WriteJSON(%s) = %s", in, got.String())
		}
	}
}

// A document nested 9,000 deep (what conn still accepts) and one past
// encoding/json's limit are written in output linear in their size.
func TestWriteIsLinearInDepth(t *testing.T) {
	for _, depth := range []int{9_000, 20_000} {
		in := []byte(`{"tools":[{"name":"deep","inputSchema":` + strings.Repeat(`{"a":`, depth) + `1` + strings.Repeat(`}`, depth) + `}]}`)
		var out bytes.Buffer
		if err := WriteJSON(&out, in, true); err != nil {
			t.Fatalf("depth %d: %v", depth, err)
		}
		t.Logf("depth %d: %d bytes in, %d bytes out", depth, len(in), out.Len())
		if out.Len() > 2*len(in)+64*MaxIndentDepth*MaxIndentDepth {
			t.Errorf("depth %d: %d bytes became %d", depth, len(in), out.Len())
		}
	}
}
