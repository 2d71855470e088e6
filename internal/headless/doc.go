// Package headless runs mcptui's commands that print instead of opening the
// inspector: the lists (tools, resources, templates, prompts), the one-shot
// requests (call, read, get, complete, request) and scripts (run). They use
// the same engine as the inspector (package mcp over package conn), the same
// flags, and the same recording (--record).
//
// A one-shot command connects, sends one thing, prints the result as JSON on
// stdout (or as text with --format text), shuts the server down and exits.
// Progress goes to stderr: a bar redrawn in place on a terminal, one line per
// notification otherwise. Text that came from the server is never written raw
// to a terminal: JSON output escapes control, escape-introducing and
// invisible characters as \uXXXX, text output spells them visibly.
//
// # Errors and exit codes
//
// A failure prints one JSON object on one line to stderr:
//
//	{"error":{"kind":"timeout","exitCode":6,"message":"...","rpc":{"code":-32001,"message":"..."},"serverStderr":["..."]}}
//
// "rpc" is the JSON-RPC error when there is one; "serverStderr" is the tail
// of the server's stderr when the server failed to start or went away. The
// exit codes are distinct per kind:
//
//	0    success
//	1    internal: mcptui itself failed (writing output or the recording,
//	     reading a file)
//	2    usage: the command line (or a script) is wrong
//	3    start: the server could not be started or did not finish the
//	     handshake (not found, not executable, exited, no common version)
//	4    protocol: the server answered with a JSON-RPC error, or sent
//	     something the protocol does not allow, or an answer mcptui had
//	     to discard (over --max-line-bytes, nested past the parser's
//	     limit): its call fails at once, the reason named
//	5    tool: the tool ran and returned isError: true (the result is
//	     still printed on stdout)
//	6    timeout: a request, or the handshake, timed out
//	7    connection: the server exited or closed the connection during the
//	     command, or an HTTP server redirected to another origin (refused
//	     by the outbound policy, both origins named)
//	8    check: a step of a run script failed
//	9    not declared: the server declares no capability for the request
//	     (resources, templates, prompts, complete), so it was not sent
//	128+N  ended by signal N: 130 SIGINT (ctrl+c), 143 SIGTERM, 129 SIGHUP;
//	     the server is shut down first
//
// # Answers without a person
//
// Every question the server may ask is answered by a rule: --answer
// sampling=@reply.json (a CreateMessageResult), sampling=text:REPLY or
// sampling=reject; --answer elicitation=accept-defaults, decline, cancel or
// @answer.json; --root URI for roots/list. The client declares sampling,
// elicitation (form and URL) and roots in any case, so that a server that
// asks is answered: a question with no rule gets a JSON-RPC error whose
// message names the flag that would answer it, and a note on stderr says so.
// A prepared answer that does not fit its question (accept-defaults on a
// form whose required field has no default) is not sent either: the server
// gets an error, and the command fails with exit 2 whatever the server made
// of it.
//
// # Scripts
//
// mcptui run SCRIPT runs a script of steps against one connection, for
// repeatable checks (see ParseScript for the language), prints a report and
// optionally writes a JUnit XML file.
package headless
