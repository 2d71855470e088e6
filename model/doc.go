// Package model is the inspector's session state and the reducer that folds
// what happens into it.
//
// Everything the inspector shows is derived here from a stream of Events:
// the JSON-RPC lines crossing the wire in both directions (FromConn adapts
// conn's observer events), the server's stderr lines, the connection's
// lifecycle (started, negotiating, ready, exited, restarted), the call
// options the client used, and the questions the server asks a person
// (sampling, elicitation, roots). Session.Apply is the reducer: it is
// deterministic, never blocks, never reads a clock (every Event carries its
// own time) and does no I/O, so it is tested with plain values.
//
// The package has no terminal code: ui draws a Session, and nothing here
// escapes text for the screen; server strings are kept as received.
package model
