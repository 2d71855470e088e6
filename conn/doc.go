// Package conn is a stdio JSON-RPC 2.0 transport for Model Context Protocol
// clients: it starts a server as a child process, writes one message per line
// to its stdin and reads newline-delimited messages from its stdout.
//
// Responses are correlated by id, so any number of goroutines can share one
// Conn with requests in flight at once. Requests time out (the server is then
// sent notifications/cancelled), may receive progress notifications, and may
// reset their timer on progress. Requests the server sends to the client run
// a Handler in their own goroutine. Subscriptions opened with Listen share the
// connection with ordinary requests.
//
// The behaviour follows the stdio transport of the Snodo library, rule by
// rule; errors are JSON-RPC shaped: -32000 when the connection is unusable,
// -32001 when a request timed out.
package conn
