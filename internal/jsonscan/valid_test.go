package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// validCases are texts Valid must judge as encoding/json.Valid does.
var validCases = []string{
	``, ` `, `{}`, ` {"a":1} `, `{"a":1,}`, `{"a":1}x`, `{"a":1}{"b":2}`, `[1,]`, `[1 2]`, `[]`, `[ ]`,
	`01`, `-`, `-0`, `1.`, `1.5e`, `1e+9`, `-0.0E-1`, `"a\u00e9\n"`, `"a\x"`, `"a\u12"`, "\"a\tb\"",
	`tru`, `true`, `null`, `nul`, `{"a" 1}`, `{a:1}`, `{"a":}`, `[{"a":[{"b":"}"}]},"x\\"]`,
	`"\"\\/\b\f\n\r\t\u0041"`, `"unclosed`, `{"a":1`, "\xff\"\xfe\"", `"` + "\xff" + `"`,
	strings.Repeat("[", 100) + strings.Repeat("]", 100), strings.Repeat("[", 100) + strings.Repeat("]", 99),
	strings.Repeat(`{"a":`, 70) + "1" + strings.Repeat("}", 70),
}

func TestValidIsEncodingJSONs(t *testing.T) {
	for _, c := range append(validCases, `{}`, ` { } `, `{ ,}`, `{"a":1,}`, `{"a":1 x`, `{"a":1}}`, `{"a":{"b":[1,2]},"c":"d"}`) {
		want := json.Valid([]byte(c))
		if got := Valid([]byte(c)); got != want {
			t.Errorf("Valid(%q) = %v, encoding/json says %v", c, got, want)
		}
		fieldsValidAgrees(t, []byte(c), want)
	}
}

// fieldsValidAgrees: FieldsValid answers Fields' ok and, for an object not
// nested too deep, whether it is valid JSON.
func fieldsValidAgrees(t *testing.T, b []byte, valid bool) {
	t.Helper()
	var v1, v2 [2][]byte
	ok, gotValid := FieldsValid(b, v1[:], "a", "b")
	if Fields(b, v2[:], "a", "b") != ok || string(v1[0]) != string(v2[0]) || string(v1[1]) != string(v2[1]) {
		t.Errorf("FieldsValid(%q) is not Fields", b)
	}
	if gotValid && !valid || !gotValid && valid && firstByteIs(b, '{') && !DeeperThan(b, maxDepth-1) {
		t.Errorf("FieldsValid(%q) says valid %v, encoding/json %v", b, gotValid, valid)
	}
}

func firstByteIs(b []byte, c byte) bool {
	i := SkipSpace(b, 0)
	return i < len(b) && b[i] == c
}

// FuzzValid holds Valid to encoding/json.Valid on any bytes.
func FuzzValid(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		want := json.Valid(b)
		if got := Valid(b); got != want {
			t.Errorf("Valid(%q) = %v, encoding/json says %v", b, got, want)
		}
		fieldsValidAgrees(t, b, want)
	})
}

func TestEachElement(t *testing.T) {
	var got []string
	err := EachElement([]byte(`[ 1 , "a]" ,{"b":[2]},[] ,true]`), func(v []byte) error {
		got = append(got, string(v))
		return nil
	})
	want := []string{`1`, `"a]"`, `{"b":[2]}`, `[]`, `true`}
	if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("EachElement = %q, %v; want %q", got, err, want)
	}
	if err := EachElement([]byte(`[ ]`), func([]byte) error { t.Fatal("no elements"); return nil }); err != nil {
		t.Fatal(err)
	}
}
