package schemaform

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Kind is what a field edits.
type Kind int

// The kinds of Field.
const (
	// Raw is any JSON value typed as text: what a form cannot express
	// (no type, additionalProperties maps, tuples, recursion).
	Raw Kind = iota
	// String is a JSON string, possibly with a Format.
	String
	// Number is a JSON number.
	Number
	// Integer is a JSON number without a fraction.
	Integer
	// Boolean is true or false.
	Boolean
	// Enum is one value picked from Options.
	Enum
	// Multi is an array of distinct values picked from Options.
	Multi
	// Array is a list of Item values.
	Array
	// Object is a fixed set of named Fields.
	Object
	// Union is one of several Variants, picked by the person.
	Union
)

// String names the kind as a schema would.
func (k Kind) String() string {
	return [...]string{"json", "string", "number", "integer", "boolean", "enum", "multi-select", "array", "object", "one of"}[k]
}

// Option is one choice of an Enum or Multi field.
type Option struct {
	// Value is the JSON value sent when the option is chosen.
	Value json.RawMessage
	// Label is the option's title, or the value itself when untitled.
	Label string
	// Titled is set when Label came from a title (oneOf/anyOf const with
	// title, or enumNames) rather than from the value.
	Titled bool
}

// Field is one part of the instance a schema describes.
type Field struct {
	// Name is the property name; "" for the root and array items.
	Name        string
	Title       string
	Description string
	Kind        Kind
	// Required is set when the parent object requires this property.
	Required bool
	// Nullable is set when null is allowed besides the field's kind.
	Nullable bool
	// Default is the schema's default, raw; nil when none.
	Default json.RawMessage
	// Format is the string format (email, uri, date, date-time, ...).
	Format string
	// Options are the choices of Enum and Multi fields.
	Options []Option
	// Fields are an Object's properties, in schema order.
	Fields []*Field
	// Item is an Array's item.
	Item *Field
	// Variants are a Union's alternatives.
	Variants []*Field
	// Closed is set on an Object whose schema forbids other properties.
	Closed bool
	// Constraints, when the schema gives them.
	Minimum, Maximum                   *float64
	ExclusiveMinimum, ExclusiveMaximum bool
	MinLength, MaxLength               *int
	MinItems, MaxItems                 *int
	Pattern                            string
	// Note says why a field is Raw, or anything else worth knowing.
	Note string
}

// Label is what a form calls the field: its title, else its name.
func (f *Field) Label() string {
	if f.Title != "" {
		return f.Title
	}
	return f.Name
}

// Hint sums up the field's type and constraints in a few words, for the
// help line: "integer, 0 to 150, default 42".
//
// num draws the numbers of ranges and a number default (the UI's number
// formatter); nil means strconv's shortest form.
func (f *Field) Hint(num func(float64) string) string {
	if num == nil {
		num = func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	}
	var parts []string
	kind := f.Kind.String()
	if f.Kind == String && f.Format != "" {
		kind = f.Format
	}
	if f.Nullable {
		kind += " or null"
	}
	parts = append(parts, kind)
	if f.Required {
		parts = append(parts, "required")
	}
	if r := rangeText(num, f.Minimum, f.Maximum, f.ExclusiveMinimum, f.ExclusiveMaximum); r != "" {
		parts = append(parts, r)
	}
	if r := countText(f.MinLength, f.MaxLength, "characters"); r != "" {
		parts = append(parts, r)
	}
	if r := countText(f.MinItems, f.MaxItems, "items"); r != "" {
		parts = append(parts, r)
	}
	if f.Pattern != "" {
		parts = append(parts, "pattern "+f.Pattern)
	}
	if f.Default != nil {
		parts = append(parts, "default "+numberDefault(num, f.Default))
	}
	if f.Note != "" {
		parts = append(parts, f.Note)
	}
	return strings.Join(parts, ", ")
}

// numberDefault is a default as written, or drawn by num when it is a
// number in exponent form.
func numberDefault(num func(float64) string, raw json.RawMessage) string {
	s := string(raw)
	if strings.ContainsAny(s, "eE") && !strings.HasPrefix(s, "\"") {
		if v, err := strconv.ParseFloat(s, 64); err == nil {
			return num(v)
		}
	}
	return s
}

func rangeText(num func(float64) string, lo, hi *float64, exLo, exHi bool) string {
	switch {
	case lo != nil && hi != nil && !exLo && !exHi:
		return num(*lo) + " to " + num(*hi)
	case lo != nil && hi != nil:
		return bound(num, ">", *lo, exLo) + " and " + bound(num, "<", *hi, exHi)
	case lo != nil:
		return bound(num, ">", *lo, exLo)
	case hi != nil:
		return bound(num, "<", *hi, exHi)
	}
	return ""
}

func bound(num func(float64) string, op string, v float64, exclusive bool) string {
	if !exclusive {
		op += "="
	}
	return op + " " + num(v)
}

func countText(lo, hi *int, unit string) string {
	switch {
	case lo != nil && hi != nil:
		return strconv.Itoa(*lo) + " to " + strconv.Itoa(*hi) + " " + unit
	case lo != nil:
		return "at least " + strconv.Itoa(*lo) + " " + unit
	case hi != nil:
		return "at most " + strconv.Itoa(*hi) + " " + unit
	}
	return ""
}
