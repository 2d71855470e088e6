package screentest

import "fmt"

// typeName is the Go type of a message, as %T prints it.
func typeName(msg any) string { return fmt.Sprintf("%T", msg) }
