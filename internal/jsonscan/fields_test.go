package jsonscan

import (
	"bytes"
	"strings"
	"testing"
)

var fieldsSeeds = []string{
	`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"flood","data":"tick"}}`,
	`{"id":7,"result":{"content":[{"type":"text","text":"a\"b\u00e9"}],"isError":false}}`,
	`{"id":null,"error":{"code":-32600,"message":"bad"}}`,
	` { "id" : 1.5e-3 , "method" : "x" } `,
	`{"m\u0065thod":"escaped name","method":"second"}`,
	`{"a":1x}`, `{"a":tru}`, `{"a":[1,2,}`, `{"a":"\x01"}`, `{"a":"\q"}`, `{"a":1`, `{"a" 1}`, `{"a":1 "b":2}`,
	`{"a":{"b":{"c":[[[[]]]]}}, "id": "deep"}`, `{}`, `[]`, `"x"`, ``, `{"a":-}`, `{"a":01}`, `{"a":1.}`,
	`{"a":"` + "\xff\xfe" + `","id":3}`, `{"id":"\ud800"}`, `{"a":1,}`, `{,}`, `{"a":1}garbage`,
	`{"a":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `,"id":9}`,
}

// Fields reads what the decoder reads, on any bytes: the same answer, the
// same values.
func FuzzFields(f *testing.F) {
	for _, s := range fieldsSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkFields(t, raw)
	})
}

func TestFieldsLikeTheDecoder(t *testing.T) {
	for _, s := range fieldsSeeds {
		checkFields(t, []byte(s))
	}
}

func checkFields(t *testing.T, raw []byte) {
	t.Helper()
	want := []string{"id", "method", "params", "result", "error", "a"}
	fast, slow := make([][]byte, len(want)), make([][]byte, len(want))
	okFast, okSlow := Fields(raw, fast, want...), fieldsDecoded(raw, slow, want...)
	if okFast != okSlow {
		t.Fatalf("%q: Fields %v, the decoder %v", raw, okFast, okSlow)
	}
	for i := range want {
		if !bytes.Equal(fast[i], slow[i]) || (fast[i] == nil) != (slow[i] == nil) {
			t.Fatalf("%q: %s = %q, the decoder %q", raw, want[i], fast[i], slow[i])
		}
	}
}

// Reading the members of a line allocates nothing.
func TestFieldsAllocatesNothing(t *testing.T) {
	line := []byte(fieldsSeeds[0])
	var v [4][]byte
	if n := testing.AllocsPerRun(100, func() { Fields(line, v[:], "id", "method", "params", "result") }); n != 0 {
		t.Errorf("%.0f allocations", n)
	}
}
