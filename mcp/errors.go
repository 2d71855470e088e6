package mcp

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcptui/mcptui/conn"

	"github.com/mcptui/mcptui/internal/protocol"
)

// Error is the JSON-RPC error type shared with conn: every error this
// package returns is, or wraps (see errors.As), an *Error.
//
// It is an alias, kept on purpose: the transports (conn, httpconn) report
// *conn.Error and mcp returns those as they are or wrapped, so one
// errors.As target matches every error whichever layer made it, and a
// program that uses mcp alone names it without importing conn.
type Error = conn.Error

// Error codes this package produces or recognises, besides conn's.
const (
	// CodeConnection: the connection is unusable, or the server broke the
	// protocol (a repeated cursor, an unknown resultType, too many rounds).
	CodeConnection = conn.CodeConnection
	// CodeTimeout: a request timed out.
	CodeTimeout = conn.CodeTimeout
	// CodeMethodNotFound: the method is not in the negotiated version.
	CodeMethodNotFound = conn.CodeMethodNotFound
	// CodeInvalidParams: parameters missing or invalid; also no version in
	// common and input requests nobody can answer.
	CodeInvalidParams = conn.CodeInvalidParams
	// CodeInternal: an answerer failed or gave an invalid answer.
	CodeInternal = conn.CodeInternal
	// CodeMissingCapability is 2026-07-28's MissingRequiredClientCapability.
	CodeMissingCapability = protocol.CodeMissingCapability
	// CodeUnsupportedVersion is 2026-07-28's UnsupportedProtocolVersion.
	CodeUnsupportedVersion = protocol.CodeUnsupportedVersion
)

// MsgInvalidAnswer is the message of the -32603 error returned when an
// answerer's answer is not valid for its method.
const MsgInvalidAnswer = "invalid answer"

// newError makes an *Error; data is marshalled when not nil.
func newError(code int, msg string, data any) *Error {
	e := &Error{Code: code, Message: msg}
	if data != nil {
		if raw, ok := data.(json.RawMessage); ok {
			e.Data = raw
		} else {
			e.Data = mustMarshal(data)
		}
	}
	return e
}

func errorf(code int, format string, args ...any) *Error {
	return newError(code, fmt.Sprintf(format, args...), nil)
}

// asError returns the *Error inside err, or nil.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// errorCode returns the code of the *Error inside err, or 0.
func errorCode(err error) int {
	if e := asError(err); e != nil {
		return e.Code
	}
	return 0
}

// wrap adds the method as context to an error; nil stays nil.
func wrap(method string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("mcp %s: %w", method, err)
}

// NotDeclaredError is a typed request the server did not declare the
// capability for: nothing was sent (MCP: a client requests only what the
// server declared). It wraps a -32601 *Error with the same message.
type NotDeclaredError struct {
	// Method is the request not sent; Capability the one missing.
	Method, Capability string
}

// Error says plainly what is missing.
func (e *NotDeclaredError) Error() string {
	return fmt.Sprintf("the server declares no %s capability: %s was not sent", e.Capability, e.Method)
}

// Unwrap is the -32601 *Error every error of this package carries.
func (e *NotDeclaredError) Unwrap() error {
	return &Error{Code: CodeMethodNotFound, Message: e.Error()}
}

// NegotiationFailed says Connect failed on a request of the negotiation (an
// error answer, no answer in time, a version the client may not speak)
// rather than on the connection's end: the server was still running, and
// the client then stops it.
func NegotiationFailed(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code != CodeConnection
}
