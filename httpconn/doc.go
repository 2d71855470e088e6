// Package httpconn is the HTTP client transport of MCP: Streamable HTTP
// (2025-03-26 on) and, found by the spec's fallback or asked for with
// Mode SSE, the 2024-11-05 HTTP+SSE transport (see legacy.go). Over
// Streamable HTTP each message is POSTed, answered with JSON or with an SSE
// stream that may carry server requests and notifications before the
// response; the session id from the initialize answer and the negotiated
// MCP-Protocol-Version go on every later request; the optional GET stream
// carries server-initiated messages; DELETE ends the session at Close; a
// broken stream is resumed with Last-Event-ID after the server's retry.
//
// Conn follows package conn's rules where they apply — request ids,
// timeouts (-32001 and notifications/cancelled), progress with reset and
// a maximum total, server requests under a concurrency limit, a bounded
// message size (larger messages are discarded as they arrive), and conn's
// Observer events, where a "line" is one JSON-RPC message — and reports
// each HTTP exchange to OnExchange with credentials redacted. It accepts
// conn's CallOptions and satisfies mcp.Transport.
package httpconn
