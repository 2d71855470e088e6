package rules

// The rules added for 2026-07-28 after the first table: the raw wire
// (ids, parse errors, invalid envelopes: every era; batches from
// 2025-06-18, which removed them), and from 2026-07-28 on the error-code
// ranges, the per-request _meta, the methods the revision removed,
// x-mcp-header annotations and the tasks extension. Their sections are
// named as 2026-07-28 names them.

// tasksSpec is the tasks extension's page (URL finds its site).
const tasksSpec = "extensions/tasks"

var table26 = []Rule{
	// transport: what the server does with lines a client should not send.
	{ID: "basic.string-id", Group: "transport", Level: Must, Section: "basic#requests", Since: first,
		Text: "Requests MUST include a string or integer ID; responses MUST include the same ID as the request they correspond to: a string id comes back as the same string.",
		Fix:  `copy the id into the response as the JSON value it was: "0042" stays the string "0042", never 42`},
	{ID: "errors.parse-error", Group: "errors", Level: Robustness, Section: "jsonrpc#error_object", Since: first,
		Text: "JSON-RPC 2.0 (not MCP, whose clients never send one) answers a line that is not JSON with -32700 (Parse error) and a null id; the server goes on reading.",
		Fix:  `catch the parse failure, write {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}} and read the next line`},
	{ID: "errors.invalid-request", Group: "errors", Level: Robustness, Section: "jsonrpc#error_object", Since: first,
		Text: "JSON-RPC 2.0 (not MCP, whose clients never send one) answers a JSON value that is not a valid message (here an object with neither method, result nor error) with -32600 (Invalid Request); the server goes on reading.",
		Fix:  "validate the envelope before dispatch and answer -32600 (id null when it cannot be read) instead of ignoring the line or exiting"},
	{ID: "transport.batch-refused", Group: "transport", Level: Robustness, Section: "jsonrpc#batch", Since: v0618,
		Text: "JSON-RPC batches are not part of MCP from 2025-06-18 (its clients never send one); a line holding an array is refused with an error and none of its elements is processed.",
		Fix:  "when a line parses to an array, answer one -32600 error with id null and process none of its elements"},

	// errors: the code ranges of 2026-07-28.
	{ID: "errors.retired-codes", Group: "errors", Level: Must, Section: "basic#error-codes", Since: v0728, Live: true,
		Text: "Implementations of this protocol version MUST NOT emit these codes: -32002 (resource not found, replaced by -32602) and -32042 (URL elicitation required).",
		Fix:  "answer a missing resource with -32602, and ask for a URL elicitation inside an input_required result"},
	{ID: "errors.reserved-range", Group: "errors", Level: Must, Section: "basic#error-codes", Since: v0728, Live: true,
		Text: "-32020 to -32099 are reserved for the MCP specification: implementations MUST NOT emit any code from this sub-range that is not defined by it (-32020, -32021, -32022).",
		Fix:  "move your own error codes outside -32768…-32000 (the rest of the integer space is for applications)"},

	// lifecycle: the per-request _meta, and what 2026-07-28 removed.
	{ID: "lifecycle.client-info-optional", Group: "lifecycle", Level: Should, Section: "basic#meta", Since: v0728,
		Text: "io.modelcontextprotocol/clientInfo is not a required _meta field: a request without it is well-formed and is served.",
		Fix:  "read clientInfo when it is there (for logs) and serve the request when it is not"},
	{ID: "lifecycle.meta-open", Group: "lifecycle", Level: Should, Section: "basic#meta", Since: v0728,
		Text: "Extensions define additional _meta keys under their own prefix: a request carrying _meta keys the server does not know is still served.",
		Fix:  "read the io.modelcontextprotocol/* keys you need and ignore the rest of _meta (no additionalProperties: false on it)"},
	{ID: "lifecycle.removed-methods", Group: "lifecycle", Level: Should, Section: "changelog#major-changes", Since: v0728,
		Text: "2026-07-28 removed ping, logging/setLevel and resources/subscribe (subscriptions/listen and the per-request logLevel replace them): on a 2026-07-28 request they are unknown methods, answered -32601.",
		Fix:  "serve ping, logging/setLevel and resources/subscribe only to initialize-era sessions; let 2026-07-28 requests for them fall through to -32601"},

	// tools: header mirroring annotations.
	{ID: "tools.x-mcp-header", Group: "tools", Level: Must, Section: "basic/transports/streamable-http#custom-headers-from-tool-parameters", Since: v0728,
		Text: "An x-mcp-header value MUST NOT be empty, MUST be an HTTP token, unique (case-insensitively) within the inputSchema, on a string, integer or boolean property statically reachable through properties alone; clients MUST drop a tool that breaks this.",
		Fix:  `annotate only top-level (or properties-nested) string, integer or boolean parameters, each with a distinct token name such as "x-mcp-header":"Region"`},

	{ID: "tools.deterministic-order", Group: "tools", Level: Should, Section: "server/tools#capabilities", Since: v0728,
		Text: "Servers SHOULD return tools in a deterministic order (i.e., the same ordering across requests when the underlying set of tools has not changed).",
		Fix:  "sort the tools (by name, or registration order) instead of iterating a map whose order changes"},

	// tasks: the io.modelcontextprotocol/tasks extension.
	{ID: "tasks.declared-only", Group: "tasks", Level: Must, Section: tasksSpec + "#capability-negotiation", Since: v0728, Live: true,
		Text: "A server MUST NOT return CreateTaskResult (resultType \"task\") to a client that did not include the io.modelcontextprotocol/tasks extension capability on its request, regardless of prior declarations.",
		Fix:  "look at the request's clientCapabilities.extensions before creating a task; without the extension answer with the result (or -32021 naming the extension)"},
	{ID: "tasks.create-result", Group: "tasks", Level: Must, Section: tasksSpec + "#task-creation", Since: v0728, Live: true,
		Text: "CreateTaskResult answers only tools/call, with resultType \"task\" and a Task: taskId (string), status (working, input_required, completed, cancelled, failed), createdAt and lastUpdatedAt (ISO 8601 strings), ttlMs (integer or null).",
		Fix:  `answer {"resultType":"task","taskId":"…","status":"working","createdAt":"…","lastUpdatedAt":"…","ttlMs":60000} and only for tools/call`},
	{ID: "tasks.get-result", Group: "tasks", Level: Must, Section: tasksSpec + "#task-polling", Since: v0728, Live: true,
		Text: "tasks/get returns the task with resultType \"complete\" and the payload of its status: inputRequests when input_required, result when completed, error when failed.",
		Fix:  `answer tasks/get with {"resultType":"complete","taskId":…,"status":"completed","result":{…},…} (inputRequests / error for those statuses)`},
	{ID: "tasks.undeclared-client", Group: "tasks", Level: Must, Section: tasksSpec + "#protocol-errors", Since: v0728,
		Text: "Servers MUST return -32021 (Missing Required Client Capability) for non-declaring clients issuing tasks/get, tasks/update and tasks/cancel requests.",
		Fix:  `answer tasks/* from a request without the extension in clientCapabilities with -32021, data {"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`},
	{ID: "tasks.unknown-task", Group: "tasks", Level: Must, Section: tasksSpec + "#protocol-errors", Since: v0728,
		Text: "Invalid or nonexistent taskId: servers MUST return -32602 (Invalid params) for tasks/get.",
		Fix:  "look the taskId up and answer -32602 when it names no task (or one already purged)"},

	// http: the Streamable HTTP endpoint of 2026-07-28 (judged on a URL).
	{ID: "http.header-mismatch", Group: "http", Level: Must, Section: "basic/transports/streamable-http#server-validation", Since: v0728,
		Text: "Servers that process the request body MUST reject requests where the values specified in the headers do not match the corresponding values in the request body: 400 Bad Request with a -32020 HeaderMismatch error.",
		Fix:  `compare Mcp-Method (and Mcp-Name, Mcp-Param-*) with the body before dispatch; answer a difference with 400 and {"code":-32020,…}`},
	{ID: "http.header-required", Group: "http", Level: Must, Section: "basic/transports/streamable-http#server-validation", Since: v0728,
		Text: "A required standard header (MCP-Protocol-Version, Mcp-Method, Mcp-Name) that is missing is a validation failure: 400 Bad Request with a -32020 HeaderMismatch error.",
		Fix:  "treat Mcp-Method as required; answer its absence with 400 and -32020 instead of reading the body's method"},
	{ID: "http.version-header", Group: "http", Level: Must, Section: "basic/transports/streamable-http#protocol-version-header", Since: v0728,
		Text: "The MCP-Protocol-Version header MUST match the io.modelcontextprotocol/protocolVersion field of the body's _meta; if they do not match, the server MUST reject the request with 400 Bad Request and a HeaderMismatch error.",
		Fix:  "compare the header with _meta's protocolVersion before negotiating, and answer a difference with 400 and -32020"},
	{ID: "http.method-not-found", Group: "http", Level: Must, Section: "basic/transports/streamable-http#protocol-version-header", Since: v0728,
		Text: "If the server does not implement the requested RPC method, it MUST respond with 404 Not Found and a JSON-RPC error with code -32601.",
		Fix:  "answer unknown methods with HTTP 404 and the -32601 error in the body (the body tells a modern server from a legacy endpoint)"},
	{ID: "http.notification", Group: "http", Level: Must, Section: "basic/transports/streamable-http#sending-messages", Since: v0728,
		Text: "If the body is a JSON-RPC notification: if the server accepts it, it MUST return 202 Accepted with no body; if it cannot accept it, it MUST return an HTTP error status code.",
		Fix:  "answer a POSTed notification with 202 and an empty body (or 400 when you refuse it), never 200 or 204"},
	{ID: "http.legacy-methods", Group: "http", Level: Should, Section: "basic/transports/streamable-http#earlier-streamable-http-revisions", Since: v0728,
		Text: "A server that supports only this revision SHOULD respond to HTTP GET or DELETE to the MCP endpoint with 405 Method Not Allowed (the GET stream and sessions are gone).",
		Fix:  "answer GET and DELETE on the MCP endpoint with 405 (Allow: POST)"},
	{ID: "http.no-sessions", Group: "http", Level: Should, Section: "basic/transports/streamable-http#earlier-streamable-http-revisions", Since: v0728,
		Text: "An Mcp-Session-Id header on a request: ignore it, and do not mint or echo session IDs.",
		Fix:  "serve requests whatever Mcp-Session-Id they carry, and never set Mcp-Session-Id on a response"},
	{ID: "http.content-type", Group: "http", Level: Must, Section: "basic/transports/streamable-http#sending-messages", Since: v0728,
		Text: "If the body is a JSON-RPC request, the server MUST return either Content-Type: application/json (a single JSON object) or Content-Type: text/event-stream (an SSE response stream).",
		Fix:  `set "Content-Type: application/json" (or text/event-stream for a stream) on every answer to a request, error paths included`},
	{ID: "http.status-400", Group: "http", Level: Must, Section: "basic#meta", Since: v0728,
		Text: "A request missing a required _meta field is rejected with -32602, and an unsupported protocol version with -32022: on HTTP, the response status MUST be 400 Bad Request.",
		Fix:  "send these JSON-RPC errors with HTTP status 400, not 200 or 500"},
	{ID: "http.body-refused", Group: "http", Level: Robustness, Section: "basic/transports/streamable-http#sending-messages", Since: v0728,
		Text: "The body of the HTTP POST MUST be a single JSON-RPC request or notification: a batch (an array) or a body that is not JSON is refused with a 4xx status.",
		Fix:  "answer an array body or unparsable JSON with 400 (a -32600 or -32700 error without an id), never a 2xx or a 5xx"},
	{ID: "http.origin", Group: "http", Level: Must, Section: "basic/transports#security-warning", Since: first,
		Text: "Servers MUST validate the Origin header on all incoming connections to prevent DNS rebinding attacks: a foreign Origin is refused (from 2025-11-25: if the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden).",
		Fix:  "keep an allowlist of origins and answer any other Origin with 403 (requests without Origin may proceed)"},
}
