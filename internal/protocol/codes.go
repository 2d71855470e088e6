package protocol

// JSON-RPC 2.0 error codes.
const (
	// CodeParseError: the line is not JSON.
	CodeParseError = -32700
	// CodeInvalidRequest: the JSON is not a valid request.
	CodeInvalidRequest = -32600
	// CodeMethodNotFound: the method does not exist (or is not in the
	// negotiated revision).
	CodeMethodNotFound = -32601
	// CodeInvalidParams: the parameters are not what the method needs.
	CodeInvalidParams = -32602
	// CodeInternal: the receiver failed inside.
	CodeInternal = -32603
)

// Codes of the implementation-defined range that mcptui gives a meaning.
const (
	// CodeConnection: the connection failed (the server exited, a write
	// failed, an unusable response); mcptui's own error, never on the wire.
	CodeConnection = -32000
	// CodeTimeout: a request's answer did not arrive in time (mcptui's own).
	CodeTimeout = -32001
	// CodeResourceNotFound is the resource-not-found error of the
	// revisions before 2026-07-28 (2026-07-28 answers -32602).
	CodeResourceNotFound = -32002
)

// Error codes the 2026-07-28 revision defines.
const (
	// CodeMissingCapability is MissingRequiredClientCapability.
	CodeMissingCapability = -32021
	// CodeUnsupportedVersion is UnsupportedProtocolVersion: its data names
	// the versions the server speaks.
	CodeUnsupportedVersion = -32022
)
