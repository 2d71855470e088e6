package schemaform

import (
	"encoding/json"
	"strings"
	"testing"
)

// describe is a compact picture of a field tree: name:kind, flags, options.
func describe(f *Field) string {
	var b strings.Builder
	var walk func(f *Field, indent string)
	walk = func(f *Field, indent string) {
		b.WriteString(indent + f.Name + ":" + f.Kind.String())
		if f.Required {
			b.WriteString(" required")
		}
		if f.Nullable {
			b.WriteString(" nullable")
		}
		if f.Format != "" {
			b.WriteString(" format=" + f.Format)
		}
		if f.Default != nil {
			b.WriteString(" default=" + string(f.Default))
		}
		for _, o := range f.Options {
			b.WriteString(" [" + o.Label)
			if o.Titled {
				b.WriteString("=" + string(o.Value))
			}
			b.WriteString("]")
		}
		if f.Note != "" {
			b.WriteString(" (" + f.Note + ")")
		}
		b.WriteString("\n")
		for _, c := range f.Fields {
			walk(c, indent+"  ")
		}
		if f.Item != nil {
			walk(f.Item, indent+"  ")
		}
		for _, v := range f.Variants {
			walk(v, indent+"  | ")
		}
	}
	walk(f, "")
	return b.String()
}

func compileFile(t *testing.T, name string) *Form {
	t.Helper()
	s, ok := corpusSchemas(t)[name]
	if !ok {
		t.Fatalf("no schema %s", name)
	}
	f, err := Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestEverythingElicitationFields(t *testing.T) {
	f := compileFile(t, "everything/elicit-trigger-elicitation-request")
	want := `:object
  name:string required
  check:boolean
  firstLine:string default="It was a dark and stormy night."
  email:string format=email
  homepage:string format=uri
  birthdate:string format=date
  integer:integer default=42
  number:number default=3.14
  untitledSingleSelectEnum:enum default="Monica" [Monica] [Rachel] [Joey] [Chandler] [Ross] [Phoebe]
  untitledMultipleSelectEnum:multi-select default=["Guitar"] [Guitar] [Piano] [Violin] [Drums] [Bass]
  titledSingleSelectEnum:enum default="hero-1" [Superman="hero-1"] [Green Lantern="hero-2"] [Wonder Woman="hero-3"]
  titledMultipleSelectEnum:multi-select default=["fish-1"] [Tuna="fish-1"] [Salmon="fish-2"] [Trout="fish-3"]
  legacyTitledEnum:enum default="pet-1" [Cats="pet-1"] [Dogs="pet-2"] [Birds="pet-3"] [Fish="pet-4"] [Reptiles="pet-5"]
`
	if got := describe(f.Root); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	integer := f.Root.Fields[6]
	if h := integer.Hint(nil); h != "integer, 1 to 100, default 42" {
		t.Errorf("hint %q", h)
	}
	v := f.New()
	if got, _ := v.JSON(); string(got) != `{"firstLine":"It was a dark and stormy night.","integer":42,"number":3.14,"untitledSingleSelectEnum":"Monica","untitledMultipleSelectEnum":["Guitar"],"titledSingleSelectEnum":"hero-1","titledMultipleSelectEnum":["fish-1"],"legacyTitledEnum":"pet-1"}` {
		t.Errorf("defaults: %s", got)
	}
}

func TestEverythingElicitationErrors(t *testing.T) {
	f := compileFile(t, "everything/elicit-trigger-elicitation-request")
	v := f.New()
	v.Prop("email").SetText("not an email")
	v.Prop("homepage").SetText("no scheme")
	v.Prop("birthdate").SetText("31/12/1999")
	v.Prop("integer").SetText("500")
	v.Prop("number").SetText("lots")
	multi := v.Prop("untitledMultipleSelectEnum")
	multi.Toggle(0) // none picked: below minItems
	_, errs := f.Submit(v)
	// The form's own check comes first: "lots" is not a number.
	if len(errs) != 1 || errs[0].Path != "/number" || errs[0].Message != "not a number" {
		t.Fatalf("errs %v", errs)
	}
	v.Prop("number").SetText("2000")
	_, errs = f.Submit(v)
	for _, p := range []string{"/name", "/email", "/homepage", "/birthdate", "/integer", "/number", "/untitledMultipleSelectEnum"} {
		if len(errs.At(p)) != 1 {
			t.Errorf("want one error at %s, have %v", p, errs.At(p))
		}
	}
	if len(errs) != 7 {
		t.Errorf("%d errors: %v", len(errs), errs)
	}
	if m := errs.At("/name")[0].Message; m != "required" {
		t.Errorf("name: %q", m)
	}
	v.Prop("name").SetText("Ada")
	v.Prop("email").SetText("ada@example.com")
	v.Prop("homepage").SetText("https://example.com/ada")
	v.Prop("birthdate").SetText("1815-12-10")
	v.Prop("integer").SetText("7")
	v.Prop("number").SetText("2.5")
	multi.Toggle(1)
	multi.Toggle(3)
	inst, errs := f.Submit(v)
	if len(errs) != 0 {
		t.Fatalf("errs %v", errs)
	}
	want := `{"name":"Ada","firstLine":"It was a dark and stormy night.","email":"ada@example.com","homepage":"https://example.com/ada","birthdate":"1815-12-10","integer":7,"number":2.5,"untitledSingleSelectEnum":"Monica","untitledMultipleSelectEnum":["Piano","Drums"],"titledSingleSelectEnum":"hero-1","titledMultipleSelectEnum":["fish-1"],"legacyTitledEnum":"pet-1"}`
	if string(inst) != want {
		t.Errorf("got  %s\nwant %s", inst, want)
	}
}

func TestNested(t *testing.T) {
	f := compileFile(t, "hard/nested")
	want := `:object
  customer:object required
    name:string required
    address:object
      street:string
      city:string required
      zip:string
  lines:array required
    :object
      sku:string required
      qty:integer required default=1
      gift:boolean
  tags:array
    :string
  matrix:array
    :array
      :number
`
	if got := describe(f.Root); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	v := f.New()
	_, errs := f.Submit(v)
	if len(errs.At("/customer")) != 1 || len(errs.At("/lines")) != 1 {
		t.Fatalf("errs %v", errs)
	}
	v.Prop("customer").Prop("name").SetText("Ada")
	v.Prop("customer").Prop("address").Prop("zip").SetText("12a")
	lines := v.Prop("lines")
	it := lines.AddItem()
	it.Prop("sku").SetText("X-1")
	it2 := lines.AddItem()
	it2.Prop("qty").SetText("0")
	v.Prop("tags").AddItem().SetText("new")
	row := v.Prop("matrix").AddItem()
	row.AddItem().SetText("1.5")
	row.AddItem().SetText("2")
	inst, errs := f.Submit(v)
	if string(inst) != `{"customer":{"name":"Ada","address":{"zip":"12a"}},"lines":[{"sku":"X-1","qty":1},{"qty":0}],"tags":["new"],"matrix":[[1.5,2]]}` {
		t.Errorf("inst %s", inst)
	}
	for _, p := range []string{"/customer/address/city", "/customer/address/zip", "/lines/1/sku", "/lines/1/qty"} {
		if len(errs.At(p)) != 1 {
			t.Errorf("want an error at %s: %v", p, errs)
		}
	}
	if len(errs) != 4 {
		t.Errorf("errs %v", errs)
	}
	// Fill takes it apart again, items and all.
	again := f.New()
	if err := again.Fill(inst); err != nil {
		t.Fatal(err)
	}
	if back, _ := again.JSON(); string(back) != string(inst) {
		t.Errorf("round trip %s", back)
	}
}

func TestNullable(t *testing.T) {
	f := compileFile(t, "hard/nullable")
	want := `:object
  colour:enum nullable [red] [green]
  size:enum nullable default=null [S] [M] [L]
  note:string nullable default=null
  count:integer nullable
  legacy:string nullable
  owner:object nullable
    name:string required
`
	if got := describe(f.Root); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	v := f.New()
	inst, errs := f.Submit(v)
	if string(inst) != `{"size":null,"note":null}` || len(errs) > 0 {
		t.Fatalf("%s %v", inst, errs)
	}
	v.Prop("colour").SetNull(true)
	v.Prop("size").Choose(2)
	v.Prop("count").SetText("-1")
	v.Prop("owner").Prop("name").SetText("")
	v.Prop("owner").Prop("name").Unset()
	v.Prop("owner").Set = true
	inst, errs = f.Submit(v)
	if string(inst) != `{"colour":null,"size":"L","note":null,"count":-1,"owner":{}}` {
		t.Errorf("inst %s", inst)
	}
	// A nullable that is not null reports only the real problem, not
	// "want null" as well.
	if len(errs) != 2 || len(errs.At("/count")) != 1 || len(errs.At("/owner/name")) != 1 {
		t.Errorf("errs %v", errs)
	}
	if strings.Contains(errs.Error(), "null") {
		t.Errorf("errors mention null: %v", errs)
	}
}

func TestRefs(t *testing.T) {
	f := compileFile(t, "hard/refs")
	want := `:object
  home:object required
    city:string required
    country:enum [PT] [FR] [DE]
  work:object
    city:string
  pet:object
    name:string required
    species:enum required [cat] [dog]
  tree:object
    value:integer
    children:array
      :json (recursive $ref #/$defs/Node)
  anchored:enum [Red="#f00"] [Green="#0f0"]
  far:json (unresolved $ref https://example.invalid/schema.json)
  disk:json (unresolved $ref file:///etc/passwd)
`
	if got := describe(f.Root); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if home := f.Root.Fields[0]; home.Description != "sibling description wins" || home.Title != "Address" {
		t.Errorf("home %q %q", home.Title, home.Description)
	}
	// The external references are never loaded, so the validator refuses
	// the schema; the form still builds and checks what it can.
	if f.ValidatorErr == nil || !strings.Contains(f.ValidatorErr.Error(), "not loading") {
		t.Errorf("validator err %v", f.ValidatorErr)
	}
	v := f.New()
	v.Prop("home").Prop("city").SetText("Lisbon")
	v.Prop("tree").Prop("children").AddItem().SetText(`{"value": 2, "children": []}`)
	v.Prop("anchored").Choose(1)
	inst, errs := f.Submit(v)
	if len(errs) > 0 || string(inst) != `{"home":{"city":"Lisbon"},"tree":{"children":[{"value":2,"children":[]}]},"anchored":"#0f0"}` {
		t.Errorf("%s %v", inst, errs)
	}
	v.Prop("tree").Prop("children").Items[0].SetText(`{"value": 2,`)
	if _, errs := f.Submit(v); len(errs.At("/tree/children/0")) != 1 {
		t.Errorf("errs %v", errs)
	}
}

func TestRefsValidated(t *testing.T) {
	// The same references without the external ones validate through
	// $defs and definitions.
	f := MustCompile(`{"type":"object","properties":{"home":{"$ref":"#/$defs/A"},"pet":{"$ref":"#/$defs/Pet"}},
		"$defs":{"A":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]},
		"Pet":{"allOf":[{"$ref":"#/definitions/Named"},{"properties":{"species":{"enum":["cat","dog"]}},"required":["species"]}]}},
		"definitions":{"Named":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}`)
	if f.ValidatorErr != nil {
		t.Fatal(f.ValidatorErr)
	}
	v := f.New()
	v.Prop("home").Set = true
	v.Prop("pet").Prop("species").Choose(0)
	_, errs := f.Submit(v)
	if len(errs) != 2 || len(errs.At("/home/city")) != 1 || len(errs.At("/pet/name")) != 1 {
		t.Errorf("errs %v", errs)
	}
}

func TestUnions(t *testing.T) {
	f := compileFile(t, "hard/unions")
	want := `:object
  target:one of
    | :object
    |   path:string required
    | :object
    |   url:string required format=uri
  limit:one of
    | :integer
    | :string
  mode:enum required [fast]
  headers:json (an object with any keys)
  point:json (a tuple (prefixItems))
  anything:json
  ratio:number
  when:string format=date-time
  levels:multi-select [1] [2] [3]
`
	if got := describe(f.Root); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if h := f.Root.Fields[6].Hint(nil); h != "number, > 0 and < 1" {
		t.Errorf("ratio hint %q", h)
	}
	v := f.New()
	v.Prop("target").Choose(1)
	v.Prop("target").Variant().Prop("url").SetText("https://example.com")
	v.Prop("limit").Choose(1)
	v.Prop("limit").Variant().SetText("all")
	v.Prop("headers").SetText(`{"X-A": "1"}`)
	v.Prop("ratio").SetText("1")
	v.Prop("when").SetText("yesterday")
	v.Prop("levels").Toggle(2)
	inst, errs := f.Submit(v)
	if string(inst) != `{"target":{"url":"https://example.com"},"limit":"all","mode":"fast","headers":{"X-A":"1"},"ratio":1,"when":"yesterday","levels":[3]}` {
		t.Errorf("inst %s", inst)
	}
	if len(errs) != 2 || len(errs.At("/ratio")) != 1 || len(errs.At("/when")) != 1 {
		t.Errorf("errs %v", errs)
	}
	// Fill picks the variant that fits.
	again := f.New()
	if err := again.Fill(json.RawMessage(`{"target":{"path":"/tmp/x"},"limit":5,"mode":"fast"}`)); err != nil {
		t.Fatal(err)
	}
	if again.Prop("target").Choice != 0 || again.Prop("limit").Choice != 0 {
		t.Errorf("choices %d %d", again.Prop("target").Choice, again.Prop("limit").Choice)
	}
}

func TestFillKeepsUnknownAndReportsMismatch(t *testing.T) {
	f := MustCompile(`{"type":"object","properties":{"n":{"type":"integer"},"s":{"type":"string"}}}`)
	v := f.New()
	err := v.Fill(json.RawMessage(`{"n":"five","s":"ok","extra":[1,2]}`))
	if err == nil || !strings.Contains(err.Error(), "/n") {
		t.Fatalf("err %v", err)
	}
	if inst, _ := v.JSON(); string(inst) != `{"s":"ok","extra":[1,2]}` {
		t.Errorf("inst %s", inst)
	}
	closed := MustCompile(`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`)
	cv := closed.New()
	if err := cv.Fill(json.RawMessage(`{"a":"x","b":1}`)); err == nil {
		t.Error("a closed object accepted an unknown member")
	}
	if _, errs := closed.Submit(cv); len(errs) != 1 {
		t.Errorf("errs %v", errs)
	}
}

func TestEmptyAndBrokenSchemas(t *testing.T) {
	f, err := Compile(nil)
	if err != nil || f.Root.Kind != Object || len(f.Root.Fields) != 0 {
		t.Fatalf("%v %+v", err, f.Root)
	}
	if inst, errs := f.Submit(f.New()); string(inst) != "{}" || len(errs) > 0 {
		t.Errorf("%s %v", inst, errs)
	}
	if _, err := Compile(json.RawMessage(`{"type":`)); err == nil {
		t.Error("broken JSON compiled")
	}
	// A schema the validator rejects still makes a form.
	bad := MustCompile(`{"type":"object","properties":{"a":{"type":"string","pattern":"(["}}}`)
	if bad.ValidatorErr == nil || bad.Root.Fields[0].Kind != String {
		t.Errorf("%v %+v", bad.ValidatorErr, bad.Root.Fields[0])
	}
}

func TestNumbers(t *testing.T) {
	for _, c := range []struct {
		in      string
		integer bool
		want    string
		err     bool
	}{
		{"42", true, "42", false}, {"4.0", true, "4", false}, {"4.5", true, "", true}, {"x", false, "", true},
		{"1e3", false, "1e3", false}, {"+5", false, "5", false}, {"0x10", false, "", true}, {"-0.5", false, "-0.5", false},
	} {
		n, msg := parseNumber(c.in, c.integer)
		if (msg != "") != c.err || (!c.err && string(n) != c.want) {
			t.Errorf("%q: %q %q", c.in, n, msg)
		}
	}
}

// TestBoundErrorsReadAsPeopleWriteNumbers: a broken numeric bound names
// both numbers in plain digits (the validator's own text said
// "got 9.9999999999 × 10¹⁰, want 6.7108864 × 10⁰⁷").
func TestBoundErrorsReadAsPeopleWriteNumbers(t *testing.T) {
	f, err := Compile(json.RawMessage(`{"type":"object","properties":{
		"mib":{"type":"integer","maximum":67108864},
		"ratio":{"type":"number","exclusiveMinimum":0.25},
		"step":{"type":"integer","multipleOf":1000000}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for inst, want := range map[string]string{
		`{"mib":99999999999}`: "maximum: got 99999999999, want 67108864",
		`{"ratio":0.125}`:     "exclusive minimum: got 0.125, want 0.25",
		`{"step":1500000}`:    "not a multiple of 1000000: got 1500000",
	} {
		errs := f.Validate(json.RawMessage(inst))
		if len(errs) != 1 || errs[0].Message != want {
			t.Errorf("Validate(%s) = %+v, want %q", inst, errs, want)
		}
	}
}
