// Package schemaform turns a JSON Schema (a tool's inputSchema, an
// elicitation's requestedSchema) into a form: a tree of Fields saying what
// each part of the instance is (string, number, integer, boolean, single and
// multi-select enums, arrays, nested objects, unions, nullable, or raw JSON
// for what a form cannot express), and a tree of Values holding what a
// person entered, with the schema's defaults filled in.
//
// A Value builds the JSON instance it stands for (JSON), takes one apart
// again (Fill, for remembered arguments and a raw JSON editor), and the Form
// validates an instance with santhosh-tekuri/jsonschema (third_party/jsonschema),
// reporting every error at the instance location of the field it concerns.
//
// Schemas are read in their own key order (so a form lists properties as the
// server wrote them), local $ref and $defs/definitions are resolved (a
// recursive reference becomes a raw JSON field), allOf is merged, and
// nothing is ever loaded from the network or the disk. The package does no
// drawing: ui/form draws and edits a Value. Strings here come from the
// server and are kept as they are: escape them before drawing.
package schemaform
