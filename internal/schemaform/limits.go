package schemaform

import "fmt"

// The sizes past which a schema gets no form and no validator, only the
// raw JSON editor: a server's schema must not stall the person typing.
// The validator's compile time grows faster than linearly with a schema's
// size (100,000 properties took minutes, 5,000 levels of nesting longer),
// and a form with more rows than these is no longer a form anyone fills in.
const (
	// MaxSchemaNodes is the most JSON objects a schema may hold.
	MaxSchemaNodes = 2000
	// MaxSchemaNesting is the deepest a schema's JSON may nest.
	MaxSchemaNesting = 64
)

// oversize scans a schema's JSON without decoding it and says why it is
// too large for a form ("" when it is not), in one pass over the bytes
// that stops at the first limit crossed. It does not validate: invalid
// JSON is the parser's to report.
func oversize(b []byte) string {
	nodes, depth := 0, 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			// Skip the string, escapes included.
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '{':
			nodes++
			if nodes > MaxSchemaNodes {
				return fmt.Sprintf("the schema has more than %d objects", MaxSchemaNodes)
			}
			fallthrough
		case '[':
			depth++
			if depth > MaxSchemaNesting {
				return fmt.Sprintf("the schema nests deeper than %d levels", MaxSchemaNesting)
			}
		case '}', ']':
			depth--
		}
	}
	return ""
}
