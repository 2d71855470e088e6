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
	for _, c := range validCases {
		if got, want := Valid([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("Valid(%q) = %v, encoding/json says %v", c, got, want)
		}
	}
}

// FuzzValid holds Valid to encoding/json.Valid on any bytes.
func FuzzValid(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Errorf("Valid(%q) = %v, encoding/json says %v", b, got, want)
		}
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
