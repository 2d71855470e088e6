package schemaform

import (
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
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
	}
	return Errors{{Path: path, Message: e.ErrorKind.LocalizedString(printer)}}
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
