package doctor

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/mcp"
)

// Hints found in a server's stderr.
var (
	envHint = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(environment variable|env var|not set|is required|missing|api[_ -]?key|token|credential|unauthori[sz]ed)`)
	})
	httpHint = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(listening on (port|http)|http://|https://localhost|0\.0\.0\.0:|127\.0\.0\.1:|sse server|streamable http)`)
	})
	useHint = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(usage:|unknown (option|flag|command|argument)|invalid (option|argument))`)
	})
)

// diagnose turns what was seen into findings.
func diagnose(r *Report, opts Options, err error) {
	add := func(d Diagnosis) { r.Diagnoses = append(r.Diagnoses, d) }
	if err != nil {
		add(failure(r, opts, err))
	}
	if r.JunkLines > 0 {
		sev := Warning
		summary := fmt.Sprintf("it wrote %d line(s) on stdout that are not JSON-RPC before its first message, such as %q; mcptui skips them, but most clients (the official SDKs, Claude Desktop) fail on them",
			r.JunkLines, first(r.StdoutJunk))
		if err != nil && r.FirstMessage == 0 {
			sev = Error
			summary = fmt.Sprintf("it wrote %d line(s) on stdout, such as %q, and not one JSON-RPC message", r.JunkLines, first(r.StdoutJunk))
		}
		add(Diagnosis{Kind: KindLogsToStdout, Severity: sev, Summary: summary,
			Fix: "write logs and banners to stderr: console.error (Node), print(..., file=sys.stderr) or logging (Python), log.SetOutput(os.Stderr) (Go); stdout is only for JSON-RPC messages"})
	}
	if r.Negotiation != nil {
		for i, st := range r.Negotiation.Steps {
			if st.Kind == mcp.StepAbandon.String() && strings.Contains(st.Decision, "silent") {
				add(silentProbe(r, r.Negotiation.Steps[:i]))
				break
			}
		}
	}
	if err == nil && r.Transport == httpconn.SSE.String() {
		add(Diagnosis{Kind: KindHTTPSSE, Severity: Warning,
			Summary: "it speaks the 2024-11-05 HTTP+SSE transport (a GET stream and an endpoint to POST to), deprecated since 2025-03-26; newer clients may not speak it",
			Fix:     "serve Streamable HTTP (one endpoint taking POST and GET; every current SDK has it); until then mcptui --transport sse skips the Streamable HTTP attempt"})
	}
	if err == nil && time.Duration(r.Ready) > opts.SlowStart {
		summary := fmt.Sprintf("the handshake took %s (the limit for a quick start here is %s)", r.Ready, roundDuration(opts.SlowStart))
		if r.FirstOutput > 0 && time.Duration(r.FirstOutput) > time.Duration(r.Ready)/2 {
			summary += fmt.Sprintf("; it wrote nothing for %s: a launcher downloading the package (npx, uvx) or a slow start-up", r.FirstOutput)
		}
		add(Diagnosis{Kind: KindSlowStart, Severity: Warning, Summary: summary,
			Fix: "install the server ahead of time (npm install -g PKG, uv tool install PKG) or run it once to fill the launcher's cache; clients often give up after 10 to 60 s; raise --timeout for mcptui"})
	}
	if r.ServerExit > 0 || strings.HasPrefix(r.Shutdown, "the server exited ") {
		add(Diagnosis{Kind: KindChildHoldsStdout, Severity: Warning,
			Summary: r.Shutdown,
			Fix:     "end the processes the server starts when it exits, or do not give them its stdout: a client waits for stdout to close"})
	} else if strings.Contains(r.Shutdown, "did not exit") || strings.Contains(r.Shutdown, "ignored EOF") || strings.Contains(r.Shutdown, "still running") {
		add(Diagnosis{Kind: KindIgnoresEOF, Severity: Warning,
			Summary: "it kept running after its stdin closed: " + r.Shutdown,
			Fix:     "exit when stdin reaches end of file; that is how a client stops a stdio server (signals come only after a grace period)"})
	}
	for _, kind := range []string{"tools", "resources", "prompts"} {
		if why, ok := r.ListErrors[kind]; ok {
			add(brokenList(kind, why))
		}
	}
	if err == nil && !hasError(r.Diagnoses) {
		add(Diagnosis{Kind: KindHealthy, Severity: OK, Summary: healthy(r)})
	}
}

func hasError(ds []Diagnosis) bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

func first(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return lines[0]
}

// errorLine matches the line that names an uncaught error: Node's
// "Error: ..." or "TypeError: ...", Python's last traceback line, Go's
// "panic: ...".
var errorLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\S*Error(\s\[\w+\])?:\s|\w+(\.\w+)*(Error|Exception):\s|panic:\s|fatal error:\s|Uncaught\s)`)
})

// crashLine is the line of stderr that says why the process crashed, or "":
// the last line naming an error, ahead of the trailer a runtime adds (Node
// ends with "Node.js v20..." after the stack, Python with the exception
// after its traceback).
func crashLine(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(lines[i]); errorLine().MatchString(s) {
			return s
		}
	}
	return ""
}

// lastLine is the last non-empty stderr line.
func lastLine(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(lines[i]); s != "" {
			return s
		}
	}
	return ""
}

func healthy(r *Report) string {
	s := fmt.Sprintf("it works: ready in %s on protocol %s", r.Ready, r.Protocol)
	var offers []string
	for _, k := range []string{"tools", "resources", "prompts"} {
		if n, ok := r.Lists[k]; ok {
			offers = append(offers, fmt.Sprintf("%d %s", n, k))
		}
	}
	if len(offers) > 0 {
		s += ", offering " + strings.Join(offers, ", ")
	}
	return s
}

// failure explains a handshake that did not succeed.
func failure(r *Report, opts Options, err error) Diagnosis {
	if mcp.IsURL(opts.Command) {
		if d, ok := httpFailure(opts, err); ok {
			return d
		}
	}
	e := rpcError(err)
	stderr := strings.Join(r.Stderr, "\n")
	switch {
	case e != nil && strings.HasPrefix(e.Message, "Executable not found"):
		return Diagnosis{Kind: KindNotFound, Severity: Error, Summary: e.Message, Fix: "check the command's name and PATH"}
	case e != nil && strings.HasPrefix(e.Message, "Could not start"):
		return Diagnosis{Kind: KindNotExecutable, Severity: Error, Summary: fmt.Sprintf("the system refused to run it: %v", causeOf(err)),
			Fix: "make it executable (chmod +x), give a script a #! line, or run it through its interpreter"}
	case r.ExitedEarly:
		return exitedAtOnce(r, stderr)
	case e != nil && e.Code == mcp.CodeTimeout:
		summary := "it started but never finished the handshake: " + e.Message
		switch {
		case r.FirstOutput == 0:
			summary += "; it wrote nothing at all on stdout"
		case r.FirstMessage == 0:
			summary += "; it wrote only lines that are not JSON-RPC on stdout"
		}
		fix := "make sure it is an MCP server speaking stdio; it may be waiting for a terminal, a login or a download; if it is only slow, raise --timeout"
		if httpHint().MatchString(stderr) {
			fix = "its stderr mentions an HTTP address: it looks like it serves MCP over HTTP or SSE, not stdio; start it in its stdio mode (often an argument such as stdio or --stdio)"
		}
		return Diagnosis{Kind: KindNoAnswer, Severity: Error, Summary: summary, Fix: fix}
	case e != nil && e.Code == mcp.CodeInvalidParams && (strings.Contains(e.Message, "protocol") || strings.Contains(e.Message, "version")):
		return wrongProtocol(e, opts)
	case e != nil && strings.Contains(e.Message, "no protocolVersion"):
		return Diagnosis{Kind: KindWrongProtocol, Severity: Error, Summary: "it answered initialize without a protocolVersion: it does not speak MCP's handshake",
			Fix: "update the server's MCP SDK; an initialize result must carry protocolVersion, capabilities and serverInfo"}
	case initializeRefused(r):
		return Diagnosis{Kind: KindWrongProtocol, Severity: Error, Summary: "it refused initialize: " + e.Error(),
			Fix: "update the server's MCP SDK, or allow an older version with --protocol (mcptui speaks " + strings.Join(mcp.DefaultVersions, ", ") + ")"}
	}
	return Diagnosis{Kind: KindExitsAtOnce, Severity: Error, Summary: "the handshake failed: " + err.Error(),
		Fix: "run the command by hand to see what it does; its stderr is shown above"}
}

// initializeRefused reports whether the server answered initialize with an
// error (a JSON-RPC error line in answer to it).
func initializeRefused(r *Report) bool {
	initID := ""
	for _, w := range r.Wire {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal([]byte(w.Line), &m) != nil {
			continue
		}
		if w.Dir == "out" && m.Method == mcp.MethodInitialize {
			initID = string(m.ID)
		}
		if w.Dir == "in" && initID != "" && string(m.ID) == initID && m.Error != nil {
			return true
		}
	}
	return false
}

func exitedAtOnce(r *Report, stderr string) Diagnosis {
	summary := fmt.Sprintf("it exited before the handshake finished (%s)", r.Exit)
	if crash := crashLine(r.Stderr); crash != "" {
		summary += fmt.Sprintf("; it crashed: %q", crash)
	} else if last := lastLine(r.Stderr); last != "" {
		summary += fmt.Sprintf("; its last words on stderr: %q", last)
	}
	fix := "run the command by hand to see why it stops; it usually needs an argument, an environment variable (-e KEY=VALUE) or a working directory (--cwd DIR)"
	switch {
	case envHint().MatchString(stderr):
		fix = "its stderr asks for configuration: pass the variable it names with -e KEY=VALUE (mcptui doctor -e KEY=VALUE -- ...), or check its config file"
	case useHint().MatchString(stderr):
		fix = "its stderr complains about its command line: check the arguments after -- (many servers need a mode such as stdio)"
	case strings.Contains(r.Exit, "status 0") || r.Exit == "exited cleanly (status 0)":
		fix = "it ended cleanly at once: it may not be a stdio server (it may need an argument such as stdio, or it starts an HTTP server elsewhere), or it exits when stdin is not a terminal"
	}
	return Diagnosis{Kind: KindExitsAtOnce, Severity: Error, Summary: summary, Fix: fix}
}

// silentProbe explains a server that did not answer the probe: one that
// wrote nothing at all until the probe gave up was still starting (a
// launcher's download, a slow start-up), not speaking another protocol;
// one that was up and still said nothing ignores unknown requests.
func silentProbe(r *Report, before []Step) Diagnosis {
	var gaveUp time.Duration // when the probe gave up: the steps before it, back to back
	for _, st := range before {
		gaveUp += time.Duration(st.Took)
	}
	if r.FirstOutput == 0 || time.Duration(r.FirstOutput) >= gaveUp {
		return Diagnosis{Kind: KindSlowStart, Severity: Warning,
			Summary: fmt.Sprintf("slow start: it wrote nothing for %s, the probe's patience, so mcptui started it again and used initialize; a cold launcher (npx, uvx, docker) downloading the server looks like this", roundDuration(gaveUp)),
			Fix:     "give it more time with --probe-timeout (for example --probe-timeout 2m), or install the server ahead of time (npm install -g PKG, uv tool install PKG)"}
	}
	return Diagnosis{Kind: KindWrongProtocol, Severity: Warning,
		Summary: "it did not answer server/discover at all, so mcptui started it again and used initialize; a JSON-RPC server must answer a request it does not know with error -32601",
		Fix:     "answer unknown methods with -32601 Method not found (the MCP SDKs do); until then clients wait for their probe timeout on every start"}
}

func wrongProtocol(e *mcp.Error, opts Options) Diagnosis {
	var data struct {
		Negotiated string   `json:"negotiated"`
		Requested  any      `json:"requested"`
		Supported  []string `json:"supported"`
	}
	_ = json.Unmarshal(e.Data, &data)
	speaks := data.Negotiated
	if speaks == "" && len(data.Supported) > 0 {
		speaks = strings.Join(data.Supported, ", ")
	}
	allowed := opts.Versions
	if len(allowed) == 0 {
		allowed = mcp.DefaultVersions
	}
	summary := fmt.Sprintf("it speaks MCP %s; mcptui allowed %s", orUnknown(speaks), strings.Join(allowed, ", "))
	fix := "mcptui speaks " + strings.Join(mcp.DefaultVersions, ", ") + "; the server's MCP SDK answered a version no published revision has: update it"
	if len(opts.Versions) > 0 {
		fix = "you limited the versions with --protocol; allow one the server speaks, or drop --protocol"
	}
	return Diagnosis{Kind: KindWrongProtocol, Severity: Error, Summary: summary, Fix: fix}
}

func orUnknown(s string) string {
	if s == "" {
		return "a version it did not name"
	}
	return s
}

// causeOf is the innermost cause of a connection error.
func causeOf(err error) error {
	if e := rpcError(err); e != nil && e.Cause != nil {
		return e.Cause
	}
	return err
}

// brokenList explains a list the server offers but gave no usable answer
// to: a server whose tools cannot be listed is no healthy server.
func brokenList(kind, why string) Diagnosis {
	d := Diagnosis{Kind: KindBrokenList, Severity: Error,
		Summary: fmt.Sprintf("%s/list got no usable answer: %s", kind, why),
		Fix:     fmt.Sprintf("make %s/list answer: check its handler and its stderr", kind)}
	switch {
	case strings.Contains(why, "over the") && strings.Contains(why, "limit"):
		d.Fix = fmt.Sprintf("raise the line limit (mcptui doctor --max-line-bytes 64MiB -- ...; clients have limits too), or make the answer smaller: page %s/list with nextCursor, shorten descriptions and schemas", kind)
	case strings.Contains(why, "nested deeper"):
		d.Fix = "flatten the schemas: no JSON parser reads nesting that deep, and clients reject the whole answer"
	case strings.Contains(why, "timed out"):
		d.Fix = fmt.Sprintf("make %s/list answer within the timeout (or raise --timeout)", kind)
	}
	return d
}
