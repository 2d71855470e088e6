package demo

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Logging goes through go-sdk (ServerSession.Log), which applies the
// client's level: on 2026-07-28 the io.modelcontextprotocol/logLevel in the
// request's _meta (no level, no logs), on legacy sessions the level from
// logging/setLevel (starting at legacyLogLevel here).

var levels = []mcp.LoggingLevel{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// logLevelOf returns the level below which log messages for req are
// dropped, and "" when none are sent at all.
func (d *demo) logLevelOf(req *mcp.CallToolRequest) mcp.LoggingLevel {
	if modern(d.versionOf(req.Params.Meta)) {
		lvl, _ := req.Params.Meta[mcp.MetaKeyLogLevel].(string)
		return mcp.LoggingLevel(lvl)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.legacyLvl != "" {
		return d.legacyLvl
	}
	return legacyLogLevel
}

// delivered counts how many of the given levels pass floor.
func delivered(floor mcp.LoggingLevel, sent ...mcp.LoggingLevel) int {
	i := slices.Index(levels, floor)
	if i < 0 {
		return 0
	}
	n := 0
	for _, l := range sent {
		if slices.Index(levels, l) >= i {
			n++
		}
	}
	return n
}

// logOutcome says how many of the sent log messages went out, and why.
func logOutcome(floor mcp.LoggingLevel, went, sent int) string {
	if floor == "" {
		return "the request set no io.modelcontextprotocol/logLevel in _meta, so none went out"
	}
	return fmt.Sprintf("the client's level is %q, so %d of %d went out", floor, went, sent)
}

// log: one message at each of the eight syslog levels.

type logIn struct {
	Logger string `json:"logger,omitempty" jsonschema:"the logger name to put on the messages"`
}

func (d *demo) logTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "log",
		Title:       "Log at every level",
		Description: "Sends one log message (notifications/message) at each level from debug to emergency, some with text data and some with structured data. The client's log level decides which arrive.",
		Annotations: readOnly("Log at every level"),
		InputSchema: schemaFor[logIn](func(p props) { p.def("logger", "demo.log").title("logger", "Logger name") }),
	}
}

var levelLines = map[mcp.LoggingLevel]string{
	"debug":     "cache lookup for key demo:42 took 3µs",
	"info":      "the demo server is doing fine",
	"notice":    "configuration reloaded from defaults",
	"warning":   "disk 91% full (not really)",
	"error":     "failed to reach the imaginary upstream",
	"critical":  "the imaginary database is down",
	"alert":     "someone must look at this now (not really)",
	"emergency": "the demo is unusable (it is not)",
}

func (d *demo) log(ctx context.Context, req *mcp.CallToolRequest, in logIn) (*mcp.CallToolResult, any, error) {
	for i, lvl := range levels {
		var data any = levelLines[lvl]
		if i%2 == 1 { // every other one carries structured data
			data = map[string]any{"message": levelLines[lvl], "level": lvl, "seq": i + 1, "at": time.Now().UTC().Format(time.RFC3339Nano)}
		}
		req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: lvl, Logger: in.Logger, Data: data})
	}
	floor := d.logLevelOf(req)
	return &mcp.CallToolResult{Content: []mcp.Content{text(fmt.Sprintf(
		"Logged debug, info, notice, warning, error, critical, alert and emergency; %s.",
		logOutcome(floor, delivered(floor, levels...), len(levels))))}}, nil, nil
}

// chatter: lines on stderr, which is not part of the protocol (by hand:
// written to the errOut given to Serve).

type chatterIn struct {
	Lines int `json:"lines,omitempty" jsonschema:"how many lines to write to stderr"`
}

func (d *demo) chatterTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "chatter",
		Title:       "Stderr chatter",
		Description: "Writes lines to the server's stderr the way real servers do (timestamps, levels, ANSI colour, a very long line). Stderr is not MCP traffic; the client shows it apart.",
		Annotations: readOnly("Stderr chatter"),
		InputSchema: schemaFor[chatterIn](func(p props) {
			p.def("lines", 12).between("lines", 1, 10000).title("lines", "Lines")
		}),
	}
}

func (d *demo) chatter(_ context.Context, _ *mcp.CallToolRequest, in chatterIn) (*mcp.CallToolResult, any, error) {
	kinds := []func(i int) string{
		func(i int) string { return fmt.Sprintf("INFO  worker %d picked up job #%d", i%4, 1000+i) },
		func(i int) string { return fmt.Sprintf("DEBUG gc: heap %d MiB, %d goroutines", 40+i%17, 8+i%5) },
		func(i int) string {
			return fmt.Sprintf("\x1b[33mWARN\x1b[0m  slow response from upstream (%d ms)", 200+i*7%900)
		},
		func(i int) string { return fmt.Sprintf("ERROR retrying request %d: connection reset by peer", i) },
		func(i int) string { return "TRACE " + strings.Repeat("a very long line ", 40) + "end" },
		func(i int) string {
			return fmt.Sprintf("INFO  unicode is fine: naïve café, 日本語, emoji 🚀 (#%d)", i)
		},
	}
	for i := range in.Lines {
		d.chatf("%s", kinds[i%len(kinds)](i+1))
	}
	return &mcp.CallToolResult{Content: []mcp.Content{text(fmt.Sprintf("Wrote %d lines to stderr.", in.Lines))}}, nil, nil
}
