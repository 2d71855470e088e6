package schemaform

import (
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/mcptui/mcptui/third_party/jsonschema"
	"github.com/mcptui/mcptui/third_party/jsonschema/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var printer = message.NewPrinter(language.English)

// fieldErrors flattens a validation error tree into one error per problem,
// each at the instance location it concerns. A missing required property is
// reported at the property's own location, so the form can show it on the
// field; in anyOf/oneOf, the alternatives that failed only on their type are
// left out when another one failed for a better reason (a nullable field
// that is not null should not also say "want null").
func fieldErrors(ve *jsonschema.ValidationError) Errors {
	var out Errors
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		causes := e.Causes
		switch e.ErrorKind.(type) {
		case *kind.AnyOf, *kind.OneOf:
			if rest := slices.DeleteFunc(slices.Clone(causes), typeOnly); len(rest) > 0 {
				causes = rest
			}
		}
		if len(causes) == 0 {
			out = append(out, leaf(e)...)
			return
		}
		for _, c := range causes {
			walk(c)
		}
	}
	walk(ve)
	// The same problem can come from several branches.
	var uniq Errors
	for _, e := range out {
		if !slices.Contains(uniq, e) {
			uniq = append(uniq, e)
		}
	}
	return uniq
}

// typeOnly reports whether an alternative failed on its type alone.
func typeOnly(e *jsonschema.ValidationError) bool {
	if _, ok := e.ErrorKind.(*kind.Type); ok {
		return true
	}
	if _, ok := e.ErrorKind.(*kind.Group); ok && len(e.Causes) == 1 {
		return typeOnly(e.Causes[0])
	}
	if _, ok := e.ErrorKind.(*kind.Reference); ok && len(e.Causes) == 1 {
		return typeOnly(e.Causes[0])
	}
	return false
}

// leaf turns one error into FieldErrors.
func leaf(e *jsonschema.ValidationError) Errors {
	path := pointer(e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		var out Errors
		for _, name := range k.Missing {
			out = append(out, FieldError{Path: path + "/" + escapeToken(name), Message: "required"})
		}
		return out
	case *kind.Dependency:
		var out Errors
		for _, name := range k.Missing {
			out = append(out, FieldError{Path: path + "/" + escapeToken(name), Message: "required when " + k.Prop + " is set"})
		}
		return out
	case *kind.DependentRequired:
		var out Errors
		for _, name := range k.Missing {
			out = append(out, FieldError{Path: path + "/" + escapeToken(name), Message: "required when " + k.Prop + " is set"})
		}
		return out
	case *kind.Maximum:
		return Errors{{Path: path, Message: boundBroken("maximum", k.Got, k.Want)}}
	case *kind.Minimum:
		return Errors{{Path: path, Message: boundBroken("minimum", k.Got, k.Want)}}
	case *kind.ExclusiveMaximum:
		return Errors{{Path: path, Message: boundBroken("exclusive maximum", k.Got, k.Want)}}
	case *kind.ExclusiveMinimum:
		return Errors{{Path: path, Message: boundBroken("exclusive minimum", k.Got, k.Want)}}
	case *kind.MultipleOf:
		return Errors{{Path: path, Message: "not a multiple of " + ratText(k.Want) + ": got " + ratText(k.Got)}}
	}
	return Errors{{Path: path, Message: e.ErrorKind.LocalizedString(printer)}}
}

// boundBroken says which numeric bound a value broke, with both numbers written
// as people write them (67108864, not the validator's 6.7108864 × 10⁰⁷).
func boundBroken(what string, got, want *big.Rat) string {
	return what + ": got " + ratText(got) + ", want " + ratText(want)
}

// ratText is a number from the validator: whole numbers exactly, others in
// decimal notation.
func ratText(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// pointer is a JSON pointer from path tokens.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteString("/" + escapeToken(t))
	}
	return b.String()
}

// escapeToken escapes one JSON pointer token.
func escapeToken(t string) string {
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
}
