package demo

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Progress goes through go-sdk (ServerSession.NotifyProgress), sent only
// when the request carries _meta.progressToken. Cancellation reaches a
// handler as its context being done: go-sdk cancels it on
// notifications/cancelled (and wire.go keeps the late answer off the wire).

// progress: a run of progress notifications, with or without total and
// message.

type progressIn struct {
	Steps      int  `json:"steps,omitempty" jsonschema:"how many progress notifications to send"`
	IntervalMs int  `json:"intervalMs,omitempty" jsonschema:"pause between notifications in milliseconds"`
	WithTotal  bool `json:"withTotal,omitempty" jsonschema:"send a total, so the client can draw a bar; without it progress just grows"`
	WithMsg    bool `json:"withMessage,omitempty" jsonschema:"send a message with each notification"`
}

var progressMessages = []string{
	"Reticulating splines", "Warming up the caches", "Counting the bytes twice",
	"Aligning the JSON", "Negotiating with the kernel", "Polishing the results",
}

func (d *demo) progressTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "progress",
		Title:       "Progress",
		Description: "Works for a while and reports progress (notifications/progress) at each step: with or without a total, with or without messages. Send a progressToken to see it.",
		Annotations: readOnly("Progress"),
		InputSchema: schemaFor[progressIn](func(p props) {
			p.def("steps", 10).between("steps", 1, 1000).title("steps", "Steps")
			p.def("intervalMs", 300).between("intervalMs", 0, 10000).title("intervalMs", "Interval (ms)")
			p.def("withTotal", true).title("withTotal", "With total")
			p.def("withMessage", true).title("withMessage", "With messages")
		}),
	}
}

func (d *demo) progress(ctx context.Context, req *mcp.CallToolRequest, in progressIn) (*mcp.CallToolResult, any, error) {
	p := progressOf(req)
	start := time.Now()
	for i := 1; i <= in.Steps; i++ {
		if !d.wait(ctx, time.Duration(in.IntervalMs)*time.Millisecond) {
			return nil, nil, ctx.Err()
		}
		var total float64
		progress := float64(i)
		if in.WithTotal {
			total = float64(in.Steps)
		} else {
			progress = math.Round(float64(i)*1.5*100) / 100 // no total: any growing number
		}
		var msg string
		if in.WithMsg {
			msg = fmt.Sprintf("%s (%d of %d)", progressMessages[(i-1)%len(progressMessages)], i, in.Steps)
		}
		p.report(ctx, progress, total, msg)
	}
	note := "no progressToken came with the request, so no progress was sent"
	if p.enabled() {
		note = fmt.Sprintf("sent %d progress notifications (total: %v, messages: %v)", in.Steps, in.WithTotal, in.WithMsg)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		text(fmt.Sprintf("Done: %d steps in %s; %s.", in.Steps, time.Since(start).Round(time.Millisecond), note)),
	}}, nil, nil
}

// slow: runs long and stops as soon as it is cancelled.

type slowIn struct {
	Seconds float64 `json:"seconds,omitempty" jsonschema:"how long to run"`
}

func (d *demo) slowTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "slow",
		Title:       "Slow (cancel me)",
		Description: "Runs for the given number of seconds, reporting progress every second, and stops at once when the client cancels it (notifications/cancelled); a cancelled call gets no answer.",
		Annotations: readOnly("Slow (cancel me)"),
		InputSchema: schemaFor[slowIn](func(p props) {
			p.def("seconds", 30).between("seconds", 0, 3600).title("seconds", "Seconds")
		}),
	}
}

func (d *demo) slow(ctx context.Context, req *mcp.CallToolRequest, in slowIn) (*mcp.CallToolResult, any, error) {
	p := progressOf(req)
	start := time.Now()
	total := time.Duration(in.Seconds * float64(time.Second))
	for elapsed := time.Duration(0); elapsed < total; {
		step := min(time.Second, total-elapsed)
		if !d.wait(ctx, step) {
			d.chatf("slow: cancelled after %s (%v); stopping", time.Since(start).Round(time.Millisecond), context.Cause(ctx))
			return nil, nil, ctx.Err()
		}
		elapsed += step
		p.report(ctx, elapsed.Seconds(), total.Seconds(), fmt.Sprintf("%.0f s left", (total-elapsed).Seconds()))
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		text(fmt.Sprintf("Finished after %s without being cancelled.", time.Since(start).Round(time.Millisecond))),
	}}, nil, nil
}

// burst: many notifications as fast as the server can write them.

type burstIn struct {
	Count int    `json:"count,omitempty" jsonschema:"how many notifications to send"`
	Kind  string `json:"kind,omitempty" jsonschema:"progress: notifications/progress (needs a progressToken); log: notifications/message at level info"`
}

func (d *demo) burstTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "burst",
		Title:       "Burst of notifications",
		Description: "Sends a burst of N notifications as fast as possible (progress, or log messages), then answers. Tests how the client keeps up.",
		Annotations: readOnly("Burst of notifications"),
		InputSchema: schemaFor[burstIn](func(p props) {
			p.def("count", 200).between("count", 1, 100000).title("count", "Count")
			p.def("kind", "progress").oneOf("kind", "progress", "log").title("kind", "Kind")
		}),
	}
}

func (d *demo) burst(ctx context.Context, req *mcp.CallToolRequest, in burstIn) (*mcp.CallToolResult, any, error) {
	p := progressOf(req)
	if in.Kind == "progress" && !p.enabled() {
		return toolError("A progress burst needs a progressToken in the request's _meta; call again with one, or use kind \"log\"."), nil, nil
	}
	start := time.Now()
	for i := 1; i <= in.Count; i++ {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		msg := fmt.Sprintf("burst %d of %d", i, in.Count)
		if in.Kind == "progress" {
			p.report(ctx, float64(i), float64(in.Count), msg)
		} else {
			req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "demo.burst", Data: msg})
		}
	}
	took := time.Since(start).Round(time.Microsecond)
	if in.Kind == "log" {
		floor := d.logLevelOf(req)
		return &mcp.CallToolResult{Content: []mcp.Content{text(fmt.Sprintf(
			"Logged %d messages at level info in %s; %s.", in.Count, took, logOutcome(floor, in.Count*delivered(floor, "info"), in.Count)))}}, nil, nil
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		text(fmt.Sprintf("Sent %d progress notifications in %s.", in.Count, took)),
	}}, nil, nil
}
