package inert

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestEscapeJSONKeepsTheValue(t *testing.T) {
	in := []byte(`{"a":"x` + "\u009b\u202e\U0001F600\u00e9" + `\"\u001b]","b\u0007":[1,"` + "\u200b" + `"]}`)
	out := EscapeJSON(in)
	if !json.Valid(out) {
		t.Fatalf("not JSON: %s", out)
	}
	var a, b any
	_ = json.Unmarshal(in, &a)
	_ = json.Unmarshal(out, &b)
	if !jsonEqual(a, b) {
		t.Fatalf("value changed:\n%s\n%s", in, out)
	}
	if bytes.Contains(out, []byte("\u009b")) || bytes.Contains(out, []byte("\u202e")) || bytes.Contains(out, []byte("\u200b")) {
		t.Fatalf("not escaped: %s", out)
	}
	if !bytes.Contains(out, []byte("\U0001F600\u00e9")) {
		t.Fatalf("printable text escaped: %s", out)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestWriteJSON(t *testing.T) {
	var b strings.Builder
	if err := WriteJSON(&b, []byte(`{"a": [1, "x\u001b"]}`), true); err != nil {
		t.Fatal(err)
	}
	if b.String() != "{\n  \"a\": [\n    1,\n    \"x\\u001b\"\n  ]\n}\n" {
		t.Fatalf("%q", b.String())
	}
	b.Reset()
	if err := WriteJSON(&b, []byte(`{"a": 1}`), false); err != nil || b.String() != "{\"a\":1}\n" {
		t.Fatalf("%q %v", b.String(), err)
	}
	if err := WriteJSON(&b, []byte(`{`), false); err == nil {
		t.Fatal("invalid JSON written")
	}
}
