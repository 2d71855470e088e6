package schemaform

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcptui/mcptui/third_party/jsonschema"
)

// Form is a compiled schema: the Field tree a form shows, and a validator.
type Form struct {
	// Root is the instance's field (an Object for tool arguments and
	// elicitation content).
	Root *Field
	// Schema is the schema as given.
	Schema json.RawMessage
	// ValidatorErr is why the schema could not be compiled for
	// validation (a broken or unsupported schema); the form still works,
	// but only the form's own checks run.
	ValidatorErr error
	// TooLarge says why the schema got no form and no validator (more
	// than MaxSchemaNodes objects, or nested past MaxSchemaNesting): Root
	// is then one raw JSON field. "" for a schema of ordinary size.
	TooLarge string

	validator *jsonschema.Schema
}

// schemaURL is the name the schema is registered under for the validator;
// nothing is ever loaded from it.
const schemaURL = "mcptui:///schema.json"

// Compile reads a JSON Schema. It fails only when schema is not JSON; a
// schema the validator cannot compile still gives a form (see
// ValidatorErr), and a schema too large for a form gives one raw JSON field
// (see TooLarge). An empty schema means "no arguments": an object without
// properties.
func Compile(schema json.RawMessage) (*Form, error) {
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	if why := oversize(schema); why != "" {
		if !json.Valid(schema) {
			return nil, errors.New("the schema is not valid JSON")
		}
		return &Form{
			Root:         &Field{Kind: Raw, Note: why + ": type the JSON"},
			Schema:       schema,
			ValidatorErr: errors.New(why + ", so it is not checked here"),
			TooLarge:     why,
		}, nil
	}
	doc, err := parse(schema)
	if err != nil {
		return nil, fmt.Errorf("the schema is not valid JSON: %w", err)
	}
	b := &builder{root: doc, active: map[string]bool{}}
	f := &Form{Root: b.build(doc, 0), Schema: schema}
	f.validator, f.ValidatorErr = compileValidator(doc)
	return f, nil
}

// MustCompile is Compile for schemas known to be JSON (tests, built-in
// schemas); it panics otherwise.
func MustCompile(schema string) *Form {
	f, err := Compile(json.RawMessage(schema))
	if err != nil {
		panic(err)
	}
	return f
}

// noLoader refuses every external reference: a server's schema must not
// make the client read files or fetch URLs.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("not loading %s: only references inside the schema are followed", url)
}

// compileValidator compiles the schema for validation: drafts are taken
// from $schema (2020-12 when absent, MCP's default dialect), and formats
// (email, uri, date, date-time, ...) are asserted.
func compileValidator(doc any) (v *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("the validator failed on this schema: %v", r)
		}
	}()
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(schemaURL, plain(doc)); err != nil {
		return nil, err
	}
	return c.Compile(schemaURL)
}

// New is a Value for the form's root with the schema's defaults filled in.
func (f *Form) New() *Value { return NewValue(f.Root) }

// FieldError is a problem with one part of the instance.
type FieldError struct {
	// Path is the JSON pointer of the instance location ("" for the whole
	// instance, "/address/city", "/tags/2").
	Path string
	// Message says what is wrong.
	Message string
}

// Error implements error.
func (e FieldError) Error() string {
	if e.Path == "" {
		return e.Message
	}
	return e.Path + ": " + e.Message
}

// Errors is a list of FieldErrors as one error.
type Errors []FieldError

// Error implements error.
func (es Errors) Error() string {
	if len(es) == 0 {
		return "no errors"
	}
	s := es[0].Error()
	if len(es) > 1 {
		s += fmt.Sprintf(" (and %d more)", len(es)-1)
	}
	return s
}

// At returns the errors at path exactly.
func (es Errors) At(path string) []FieldError {
	var out []FieldError
	for _, e := range es {
		if e.Path == path {
			out = append(out, e)
		}
	}
	return out
}

// Submit builds v's instance and validates it: the JSON to send, or the
// errors (those of the form's own checks, such as a number that does not
// parse, and then the schema's), each at its field.
func (f *Form) Submit(v *Value) (json.RawMessage, Errors) {
	inst, errs := v.JSON()
	if len(errs) > 0 {
		return nil, errs
	}
	if errs := f.Validate(inst); len(errs) > 0 {
		return inst, errs
	}
	return inst, nil
}

// Validator compiles schema into a function that validates a value
// against it (nil when it conforms), for the live lint's output schemas
// (lint.CompileSchema); a schema the validator cannot compile is an error.
func Validator(schema json.RawMessage) (func(json.RawMessage) error, error) {
	f, err := Compile(schema)
	if err != nil {
		return nil, err
	}
	if f.ValidatorErr != nil {
		return nil, f.ValidatorErr
	}
	return func(v json.RawMessage) error {
		if errs := f.Validate(v); len(errs) > 0 {
			return errs
		}
		return nil
	}, nil
}

// Validate checks an instance against the schema. Invalid JSON is one
// error at "".
func (f *Form) Validate(inst json.RawMessage) Errors {
	doc, err := parse(inst)
	if err != nil {
		return Errors{{Message: "not valid JSON: " + err.Error()}}
	}
	if f.validator == nil {
		return nil
	}
	err = f.validator.Validate(plain(doc))
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return Errors{{Message: err.Error()}}
	}
	return fieldErrors(ve)
}
