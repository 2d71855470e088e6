package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addTools registers every tool. Each tool lives in the tools_*.go file of
// its topic. They all go through go-sdk's typed mcp.AddTool, which infers
// the input schema from the argument struct (tweaked below for defaults,
// bounds and enums), validates arguments, and turns a returned Go error
// into an isError result (a *jsonrpc.Error stays a JSON-RPC error).
func (d *demo) addTools(srv *mcp.Server) {
	// Basics and errors (tools_basic.go).
	mcp.AddTool(srv, d.echoTool(), d.echo)
	mcp.AddTool(srv, d.failTool(), d.fail)
	mcp.AddTool(srv, d.rpcErrorTool(), d.rpcError)
	mcp.AddTool(srv, d.exitTool(), d.exit)
	// Content kinds (tools_content.go).
	mcp.AddTool(srv, d.imageTool(), d.image)
	mcp.AddTool(srv, d.largeTool(), d.large)
	mcp.AddTool(srv, d.structuredTool(), d.structured)
	mcp.AddTool(srv, d.hostileTool(), d.hostile)
	// Progress and cancellation (tools_progress.go).
	mcp.AddTool(srv, d.progressTool(), d.progress)
	mcp.AddTool(srv, d.slowTool(), d.slow)
	mcp.AddTool(srv, d.burstTool(), d.burst)
	// Asking the client (tools_elicit.go, tools_sample.go, tools_roots.go).
	mcp.AddTool(srv, d.elicitFormTool(), d.elicitForm)
	mcp.AddTool(srv, d.elicitURLTool(), d.elicitURL)
	mcp.AddTool(srv, d.sampleTool(), d.sample)
	mcp.AddTool(srv, d.sampleWithToolsTool(), d.sampleWithTools)
	mcp.AddTool(srv, d.rootsTool(), d.roots)
	// Logging and stderr (tools_log.go).
	mcp.AddTool(srv, d.logTool(), d.log)
	mcp.AddTool(srv, d.chatterTool(), d.chatter)
	// List changes and resource updates (tools_lists.go).
	mcp.AddTool(srv, d.toggleToolTool(), d.toggleTool)
	mcp.AddTool(srv, d.toggleResourceTool(), d.toggleResource)
	mcp.AddTool(srv, d.togglePromptTool(), d.togglePrompt)
	mcp.AddTool(srv, d.bumpTool(), d.bump)
}

// schemaFor infers the JSON Schema of T (argument structs) and lets edit
// adjust its properties: defaults, bounds, enums, titles.
func schemaFor[T any](edit func(p props)) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("demo: schema for %T: %v", *new(T), err))
	}
	if edit != nil {
		edit(props(s.Properties))
	}
	return s
}

// props edits the properties of an inferred schema.
type props map[string]*jsonschema.Schema

func (p props) get(name string) *jsonschema.Schema {
	s, ok := p[name]
	if !ok {
		panic("demo: no property " + name)
	}
	return s
}

// def sets the default of a property.
func (p props) def(name string, v any) props {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	p.get(name).Default = b
	return p
}

// between bounds a numeric property.
func (p props) between(name string, lo, hi float64) props {
	s := p.get(name)
	s.Minimum, s.Maximum = &lo, &hi
	return p
}

// oneOf restricts a property to the given values.
func (p props) oneOf(name string, values ...any) props {
	p.get(name).Enum = values
	return p
}

// title sets a property's human-readable title.
func (p props) title(name, title string) props {
	p.get(name).Title = title
	return p
}

func boolPtr(b bool) *bool { return &b }

// readOnly, mutating and destructive are the tool annotations the demo uses.
func readOnly(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: boolPtr(false)}
}

func mutating(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: boolPtr(false), OpenWorldHint: boolPtr(false)}
}

func destructive(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, DestructiveHint: boolPtr(true), OpenWorldHint: boolPtr(false)}
}

// wait pauses for dur, or less if the request is cancelled or Serve ends.
// It reports whether the whole pause elapsed.
func (d *demo) wait(ctx context.Context, dur time.Duration) bool {
	if dur <= 0 {
		return ctx.Err() == nil && d.ctx.Err() == nil
	}
	t := time.NewTimer(dur)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
	case <-d.ctx.Done():
	}
	return false
}

// progressReporter sends notifications/progress for one request, if the
// client asked for progress (params._meta.progressToken). go-sdk does the
// sending; this only remembers the token.
type progressReporter struct {
	ss    *mcp.ServerSession
	token any
}

func progressOf(req *mcp.CallToolRequest) progressReporter {
	return progressReporter{ss: req.Session, token: req.Params.GetProgressToken()}
}

func (p progressReporter) enabled() bool { return p.token != nil }

func (p progressReporter) report(ctx context.Context, progress, total float64, message string) {
	if p.token == nil {
		return
	}
	p.ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: p.token, Progress: progress, Total: total, Message: message,
	})
}
