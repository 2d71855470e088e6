// Package mcp is the Model Context Protocol layer of mcptui, over a small
// Transport interface that conn (stdio: a child process) and httpconn
// (Streamable HTTP, and the 2024-11-05 HTTP+SSE transport) both satisfy: it
// negotiates the protocol version with any server (the initialize era,
// 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25, or the stateless
// 2026-07-28 revision), records how it chose, and offers typed calls.
//
// Connect starts the server, or opens the URL it is given, and negotiates
// (see Connect for the steps on each transport; the Negotiation record
// keeps every one). Requests then follow the negotiated
// version: on 2026-07-28 every request carries the version, the client's
// capabilities and identity in params._meta, and input_required results
// are answered and re-sent round after round; on the initialize era the
// server sends requests of its own. Both kinds of question (sampling,
// form and URL elicitation, roots) reach the same Answerers as a Question,
// so a user interface shows one queue of "the server is asking you
// something". Server notifications reach Options.OnNotification in
// arrival order.
//
// Every error is, or wraps, a JSON-RPC *Error (conn.Error): -32000 when the
// connection is unusable or the server broke the protocol, -32001 for a
// timeout, -32601 for a method the version does not define, -32602 for
// missing parameters or no common version, -32603 for a failed answer.
package mcp
