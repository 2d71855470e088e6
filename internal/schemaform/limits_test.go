package schemaform

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// wide is an object schema with n string properties (n+2 objects).
func wide(n int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"string","description":"a \"{[\" in a string is no object"}`, i)
	}
	b.WriteString(`}}`)
	return json.RawMessage(b.String())
}

// deep is an object schema nested n objects deep (2n+1 JSON levels, as
// each level is an object inside "properties").
func deep(n int) json.RawMessage {
	return json.RawMessage(strings.Repeat(`{"type":"object","properties":{"a":`, n) + `{"type":"string"}` + strings.Repeat(`}}`, n))
}

// TestSchemaLimits: a schema past the limits gets one raw field that says
// why and no validator (whose compile time grows faster than the schema),
// and one just inside them still gets its form.
func TestSchemaLimits(t *testing.T) {
	cases := []struct {
		name   string
		schema json.RawMessage
		over   string
	}{
		{"wide at the limit", wide(MaxSchemaNodes - 2), ""},
		{"wide past the limit", wide(MaxSchemaNodes - 1), "more than 2000 objects"},
		{"wide 100k", wide(100_000), "more than 2000 objects"},
		{"deep at the limit", deep(MaxSchemaNesting/2 - 1), ""},
		{"deep past the limit", deep(MaxSchemaNesting / 2), "deeper than 64 levels"},
		{"deep 4990", deep(4990), "deeper than 64 levels"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := Compile(c.schema)
			if err != nil {
				t.Fatal(err)
			}
			if c.over == "" {
				if f.TooLarge != "" || f.Root.Kind != Object || f.validator == nil {
					t.Fatalf("a schema inside the limits lost its form: %q, %v, validator %v", f.TooLarge, f.Root.Kind, f.validator != nil)
				}
				return
			}
			if !strings.Contains(f.TooLarge, c.over) || f.Root.Kind != Raw || !strings.Contains(f.Root.Hint(nil), c.over) {
				t.Fatalf("TooLarge %q, root %v %q; want a raw field saying %q", f.TooLarge, f.Root.Kind, f.Root.Hint(nil), c.over)
			}
			if f.validator != nil || f.ValidatorErr == nil {
				t.Fatal("a schema past the limits was compiled for validation")
			}
			v := f.New()
			v.SetText(`{"p1":"x"}`)
			if inst, errs := f.Submit(v); len(errs) > 0 || string(inst) != `{"p1":"x"}` {
				t.Fatalf("the raw field does not send what was typed: %s %v", inst, errs)
			}
		})
	}
	if _, err := Compile(json.RawMessage(string(wide(3000)) + "{")); err == nil {
		t.Error("invalid JSON past the limits was taken")
	}
}
