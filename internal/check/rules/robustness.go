package rules

import "slices"

// robustness are the rules written toward the server tests of
// @yawlabs/mcp-compliance for 2025-11-25 (internal/check/anchors.md maps
// each of its tests onto a rule): a server that keeps serving whatever it
// is sent, and tool lists a model can trust. They hold on the initialize
// eras; 2026-07-28 has its own rules for what it changed.
var robustness = []Rule{
	{ID: "lifecycle.reinitialize", Group: "lifecycle", Level: Robustness, Section: "basic/lifecycle#initialization", Since: first, Until: legacy,
		Text: "The initialization phase MUST be the first interaction between client and server, once per session: a second initialize on an initialized session is refused with an error, not answered as if the session began again.",
		Fix:  `answer a second initialize on the same connection with an error (e.g. -32600 "already initialized") and keep the first one's version and capabilities`},
	{ID: "lifecycle.keeps-serving", Group: "lifecycle", Level: Must, Section: "basic/utilities/ping", Since: first, Until: legacy,
		Text: "The receiver MUST respond promptly to a ping, also after messages it could not handle: an unknown method, and notifications it does not expect (progress or a cancel for nothing, roots/list_changed, an unknown one).",
		Fix:  "answer what you cannot handle with an error, ignore notifications you do not expect, and keep reading stdin: never exit, stall or desynchronise on one bad message"},
	{ID: "basic.meta-tolerated", Group: "transport", Level: Practice, Section: "basic#meta", Since: v0618, Until: legacy,
		Text: "The _meta property is reserved by MCP to allow clients and servers to attach additional metadata to their interactions: a request whose _meta carries keys the server does not know is served as it would be without them.",
		Fix:  "ignore _meta keys you do not use instead of rejecting the request (do not validate params._meta with a closed schema)"},
	{ID: "capabilities.client-only", Group: "capabilities", Level: Practice, Section: "basic/lifecycle#capability-negotiation", Since: first, Until: legacy,
		Text: "roots, sampling and (from 2025-06-18) elicitation are client capabilities: a server declares only its own (tools, resources, prompts, logging, completions, tasks, experimental).",
		Fix:  "remove roots, sampling and elicitation from the server's capabilities; read the client's capabilities in initialize instead"},
	{ID: "tools.stable-list", Group: "tools", Level: Should, Section: "server/tools#list-changed-notification", Since: first, Until: legacy,
		Text: "When the list of available tools changes, servers that declared the listChanged capability SHOULD send a notification: two tools/list calls with no notifications/tools/list_changed between them list the same tools, with the same descriptions and schemas.",
		Fix:  "keep tool definitions fixed for the session; when one changes, declare tools.listChanged and send notifications/tools/list_changed"},
	{ID: "tools.hidden-instructions", Group: "tools", Level: Practice, Section: "server/tools#security-considerations", Since: first, Until: legacy,
		Text: "Tool names, titles and descriptions reach the model: they carry no hidden text (zero-width, bidirectional-control or Unicode tag characters) and no instructions aimed at the model (\"ignore previous instructions\", \"do not tell the user\").",
		Fix:  "write descriptions in plain visible text that says what the tool does; remove invisible characters and instructions to the model"},
	{ID: "tools.extra-arguments", Group: "tools", Level: Practice, Section: "server/tools#security-considerations", Since: first, Until: legacy,
		Text: "Servers MUST validate all tool inputs: a call with an argument the inputSchema does not declare is answered (the extra ignored, or refused as a tool error or -32602), and the server keeps serving.",
		Fix:  "validate arguments against the inputSchema: ignore or refuse unknown members, never crash on them"},
	{ID: "tools.shell-injection", Group: "tools", Level: Must, Section: "server/tools#security-considerations", Since: first, Until: legacy,
		Text: "Servers MUST validate all tool inputs: a string argument never reaches a shell unquoted (the check sends $(echo …), backticks and ; echo, which print a canary only when a shell evaluates them).",
		Fix:  "pass arguments to programs as an argument list (execFile, exec.Command, subprocess.run([...])), never through a shell command line; or quote them"},
	{ID: "errors.no-internals", Group: "errors", Level: Practice, Section: "basic#responses", Since: first, Until: legacy, Live: true,
		Text: "Error messages are for the client: they carry no stack traces and no private network addresses of the server's host.",
		Fix:  "log the stack trace to stderr and answer with a short message (and a code) that says what was wrong with the request"},
	{ID: "transport.concurrent-requests", Group: "transport", Level: Must, Section: "basic#responses", Since: first, Until: legacy,
		Text: "Responses MUST include the same ID as the request they correspond to, also with several requests in flight at once: each is answered on its own line with its own id.",
		Fix:  "handle requests independently (or queue them), and write each response whole, with its own request's id"},
	{ID: "transport.large-message", Group: "transport", Level: Practice, Section: "basic/transports#stdio", Since: first, Until: legacy,
		Text: "Messages are delimited by newlines: a large one (a 1 MiB line) is read whole and answered, an error will do, and the server keeps serving.",
		Fix:  "read stdin with a line reader that has no small fixed limit (or answer an oversized line with an error), and keep serving"},
	{ID: "transport.unicode", Group: "transport", Level: Must, Section: "basic/transports#stdio", Since: first, Until: legacy,
		Text: "Messages are encoded in UTF-8: text the client sent (\"héllo 世界 🚀\") comes back in the server's messages unchanged, never as mojibake or replacement characters.",
		Fix:  "read and write stdin and stdout as UTF-8 (set the stream encoding explicitly; do not decode as Latin-1 or the platform code page)"},
}

// add puts each rule into t after the last one of its group, so that
// reports list it beside its group's others.
func add(t, rs []Rule) []Rule {
	for _, r := range rs {
		at := len(t)
		for i, c := range t {
			if c.Group == r.Group {
				at = i + 1
			}
		}
		t = slices.Insert(t, at, r)
	}
	return t
}
