// Package record writes and reads mcptui recordings: a session with a stdio
// MCP server kept as JSON Lines, so that the exact bytes seen on Friday can be
// looked at, replayed and served again on Monday.
//
// A Recorder is fed from the connection's hooks (Observe for conn's
// Observer, Stderr around the server's stderr writer, Negotiation and
// Connected once mcp.Connect returns) by the inspector and by the headless
// commands alike. It is safe for concurrent use, and its hooks never wait for
// the disk: entries are encoded on the caller's goroutine and queued, and one
// goroutine of the Recorder writes them. Past a bound on the queue (a disk
// that cannot keep up with a flood) entries are dropped and counted, and a
// "lost" entry says how many.
//
// # File format
//
// One JSON object per line. Every entry has "type", "t" (the time, RFC 3339
// with nanoseconds) and "ms" (milliseconds since the recording began). The
// first entry is the header:
//
//	{"type":"header","format":"mcptui-recording","version":1,"t":...,"ms":0,
//	 "mcptui":"dev","mode":"call","command":"npx","args":["-y","server"],
//	 "dir":"","env":[{"name":"API_KEY","value":"[redacted]"},{"name":"DEBUG","unset":true}],
//	 "secrets":false,"settings":{"timeout":"30s","resetTimeoutOnProgress":true,...}}
//
// The environment is the changes mcptui was given for the server (-e, --unset),
// not the inherited environment; values are replaced by "[redacted]" unless
// --record-secrets was given, and so are the secrets in the server's
// arguments, in every form RedactArgs lists (--token=..., --api-key VALUE,
// -e NAME=VALUE, -H "Authorization: ...", secret NAME=VALUE, URL passwords
// and query parameters, token literals). What crossed the wire is recorded
// as it was. Every line is strictly valid JSON (see below).
//
// The other entries, in the order they happened:
//
//	sent        a line written to the server's stdin
//	received    a JSON-RPC message read from the server's stdout
//	discarded   a line read from stdout that could not be used, with "reason"
//	            (content kept unless it was over the line limit)
//	stderr      one line of the server's stderr
//	exit        the server process ended; "status" as conn reports it ("exit
//	            status 0", "signal: killed")
//	negotiation how the protocol version was chosen: "negotiation" holds the
//	            allowed versions, the decision and every step with its timing
//	ready       the connection is usable: "server" (name, version),
//	            "protocol", "pid", "capabilities", "instructions"
//	failed      mcptui gave up on the server: "error"; "stopped" true when
//	            the server still ran and mcptui stopped it (a request of
//	            the negotiation failed: an error answer, no answer in time)
//	note        something mcptui did that is not a line (a headless step)
//	http        an exchange with a server reached over HTTP: method, url,
//	            status, timing, headers redacted (see HTTPFields)
//	http-end    the end of that exchange's response body
//	lost        "count" entries were dropped because the disk fell behind
//	end         the recording was closed normally
//
// A line ("sent", "received", "discarded") carries "size", the bytes of the
// line on the wire, and its content in one of three members: "msg", the line
// itself embedded verbatim when it is strictly valid JSON (so a JSON reader
// gets the same bytes back), "text" when it is UTF-8 but not, or "b64"
// (base64) otherwise. A line a tap's breakpoint held carries "mark", what was
// done to it in words, and "withheld": true when it did not go on (dropped,
// or replaced by an edit or an answer, which follow as lines of their own). A
// "stderr" entry carries "text" or "b64" the same way.
//
// A "sent" notifications/cancelled that mcptui sent because it gave up on
// one of its requests carries "gaveUp" (GaveUp), which says why: "why" is
// "timeout" (the per-request timeout fired), "max-total-timeout" (progress
// kept restarting that timer, and the cap on the restarts fired),
// "cancelled" (a person's cancel key, a shutdown: "cause" says),
// "deadline" (the caller's own deadline, such as mcptui check's call
// timeout: "cause" names it) or "progress-callback"; with the durations the
// timers were set with ("timeout", "resetTimeoutOnProgress",
// "maxTotalTimeout", "extended" by the person) and when it gave up
// ("afterMs" from the request's start; "progress" notifications, the last
// at "lastProgressMs"):
//
//	{"type":"sent","t":...,"ms":1012.5,"size":93,"gaveUp":{"why":"timeout",
//	 "timeout":"1s","afterMs":1001.2},"msg":{"jsonrpc":"2.0",
//	 "method":"notifications/cancelled","params":{"requestId":7,...}}}
//
// Recordings made before it have no "gaveUp": the cancellation's reason
// alone ("Request timed out") says a timer fired, not which. Readers that
// do not know the member ignore it.
//
// Reading (ReadLimited) holds no line over MaxEntryBytes of the line limit:
// a longer one becomes a "discarded" entry without content that says so.
package record
