// Package demo is mcptui's built-in MCP server: a stdio server with one
// small tool, prompt or resource for every feature the inspector shows.
// `mcptui demo-server` runs it alone (Serve on os.Stdin, os.Stdout and
// os.Stderr); `mcptui --demo` starts the inspector on it.
//
// It speaks protocol 2026-07-28 (stateless: per-request _meta,
// server/discover, input_required results, subscriptions/listen) and the
// initialize era, 2025-11-25 and 2025-06-18, on the same binary.
//
// # Tools
//
//	echo               a plain request and answer
//	progress           notifications/progress: with or without total, with or without messages
//	slow               a long call, with progress every second, that stops when cancelled
//	burst              N notifications as fast as possible (progress, or log messages)
//	elicit_form        a form elicitation with every field kind: string formats email, uri,
//	                   date, date-time; bounded number; integer; boolean; untitled, titled
//	                   (oneOf) and legacy-titled (enumNames) single select; untitled and
//	                   titled (anyOf) multi-select; defaults
//	elicit_url         a URL-mode elicitation (2025-11-25 and later)
//	sample             a sampling request
//	sample_with_tools  sampling that offers the model tools, several rounds
//	roots              lists the client's roots
//	log                one log message at each of the eight levels
//	chatter            lines on stderr (timestamps, ANSI colour, a long line, Unicode)
//	hostile            text full of escape sequences and control characters
//	image              a PNG drawn in Go
//	large              a text payload of exactly the asked number of bytes
//	structured         structuredContent checked against an outputSchema
//	fail               a tool error (isError)
//	rpc_error          a JSON-RPC error of the asked code, message and data
//	exit               the process exits with the asked status, unanswered
//	toggle_tool        adds/removes the tool "surprise" (tools list_changed)
//	toggle_resource    adds/removes demo://surprise (resources list_changed)
//	toggle_prompt      adds/removes the prompt "surprise" (prompts list_changed)
//	bump               changes demo://counter (resources/updated to subscribers)
//
// Prompts: greet and code_review (arguments, required and optional, that
// complete), describe_resource (embedded resource and image content) and
// interview (asks the user first: a multi round-trip prompts/get).
//
// Resources: demo://readme (Markdown), demo://logo.png (binary),
// demo://counter (see bump), demo://clock (ticks while subscribed),
// demo://secret (asks the user first: a multi round-trip resources/read);
// templates
// demo://colors/{name} (completion that pages: total and hasMore) and
// demo://teams/{team}/members/{member} (completion that depends on the
// team: completion context). Lists come in pages of 10.
//
// # What go-sdk does, and what is by hand
//
// The server is github.com/modelcontextprotocol/go-sdk v1.8.0 wherever it
// covers the feature: the JSON-RPC connection and newline framing,
// initialize and version negotiation, server/discover and the per-request
// _meta of 2026-07-28 (with serverInfo on every result and the -32022
// error), tools with schemas inferred from Go types and argument validation,
// structured output and its schema, prompts, resources, templates and
// pagination, ttlMs and cacheScope, completion, logging (setLevel on legacy
// sessions, the _meta level on 2026-07-28), progress, cancellation of
// handlers, resources/subscribe and subscriptions/listen (acknowledgement,
// subscriptionId tags, terminal result), list_changed notifications, and
// multi round-trip requests: a handler returns InputRequests, which go-sdk
// sends as an input_required result on 2026-07-28 and turns into
// server-to-client requests on legacy sessions.
//
// By hand, where go-sdk v1.8.0 does not do what the specs say (each is
// marked where it is done):
//
//   - wire.go: a cancelled request gets no response (go-sdk answers
//     anyway); a malformed input line is answered with -32700 or -32600 and
//     skipped (go-sdk ends the session on it).
//   - protocol.go: a missing client capability is the 2026-07-28 error
//     -32021 (or a tool error on legacy sessions); initialize asking for
//     2026-07-28 is clamped to 2025-11-25 (go-sdk would otherwise treat the
//     session as 2026-07-28); an unknown resource is -32002 on legacy
//     sessions; stderr chatter for every request.
//   - mrtr.go: requestState is signed and checked, and rounds are tracked.
//   - tools_elicit.go: the form follows the protocol version; URL mode has
//     an elicitationId and notifications/elicitation/complete on 2025-11-25
//     only.
//   - tools_sample.go: sampling rounds after the first on legacy sessions
//     (go-sdk's middleware re-runs a handler only once).
//   - resources.go, prompts.go, mrtr.go: input_required results carry empty
//     contents/messages/content lists rather than go-sdk's null (which on
//     legacy sessions makes a resources/read that asks first fail).
//   - serve.go: legacy sessions start at log level debug, so that logs show
//     before logging/setLevel; the exit tool.
package demo
