// Package protocol is the vocabulary of the Model Context Protocol as
// mcptui speaks it, in one place: the revisions and their order, the
// methods and notifications of each revision, the features each revision
// brought, the log levels and their order, the JSON-RPC and MCP error
// codes, and the limits every layer shares (the longest line).
//
// It imports nothing of the module (and only the standard library), so
// that every layer — conn, httpconn, mcp, model, check and its rules,
// the command line — can read it. A fact written here is written nowhere
// else: a test fails when a revision date appears as a string literal in
// the module's code outside this package.
package protocol
