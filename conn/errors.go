package conn

import (
	"encoding/json"
	"fmt"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Error codes the transport itself produces.
const (
	// CodeConnection is used when the connection is closed, the server
	// exited, a write failed, or the server sent an unusable response.
	CodeConnection = protocol.CodeConnection
	// CodeTimeout is used when a request or a subscription acknowledgement
	// did not arrive in time.
	CodeTimeout = protocol.CodeTimeout
	// CodeMethodNotFound answers server requests nobody handles.
	CodeMethodNotFound = protocol.CodeMethodNotFound
	// CodeInvalidParams reports parameters that are not what a method needs.
	CodeInvalidParams = protocol.CodeInvalidParams
	// CodeInternal answers server requests whose handler failed.
	CodeInternal = protocol.CodeInternal
)

// Messages of the transport's own errors.
const (
	msgExecutableNotFound = "Executable not found: "
	msgCouldNotStart      = "Could not start the stdio server"
	msgServerExited       = "The stdio server exited"
	msgNotAcceptingInput  = "The stdio server is not accepting input"
	msgClosed             = "The stdio connection is closed"
	msgTimedOut           = "Request timed out"
	msgMaxTotalTimeout    = "Maximum total timeout exceeded"
	msgBothResultAndError = "The server sent both a result and an error"
	msgInvalidResponse    = "The server sent an invalid JSON-RPC response"
)

// Error is a JSON-RPC error: one the server answered with, or one the
// transport made (Code -32000 or -32001).
type Error struct {
	Code    int
	Message string
	Data    json.RawMessage
	// Cause is not on the wire: the exit status, the write error, or the
	// reason given to CloseWithError.
	Cause error
}

// Error formats the code, the message and the cause.
func (e *Error) Error() string {
	s := fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message)
	if len(e.Data) > 0 {
		s += " (data " + string(e.Data) + ")"
	}
	if e.Cause != nil {
		s += ": " + e.Cause.Error()
	}
	return s
}

// Unwrap returns the cause, so errors.Is and errors.As see through an Error.
func (e *Error) Unwrap() error { return e.Cause }
