// Package form is the schema-driven form editor: it draws a
// schemaform.Value as rows (one per field, nested objects and array items
// indented, multi-select options as check boxes) and edits it from the
// keyboard, with required marks, each field's description and constraints
// as help, the errors of the last submission shown on their fields, and a
// raw JSON mode for anything a form cannot express.
//
// The editor is a component, not a program: its host routes keys to Update,
// draws View into its own layout, and calls Submit (on ctrl+s, say) to get
// the validated JSON. Every string that came from the server (titles,
// descriptions, option labels, defaults) is drawn escaped.
package form
