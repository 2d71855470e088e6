package check

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/schemaform"
	"github.com/mcptui/mcptui/mcp"
)

// toolName is the character set and length of 2025-11-25's tool names.
var toolName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.\-]{1,128}$`) })

// tools lists the tools and judges each, then calls the safe ones.
func (r *run) tools() {
	if r.cur().Session().Capabilities.Tools == nil {
		r.skip("tools.list-shape", "the server declares no tools")
		return
	}
	items, e := r.list(mcp.MethodListTools, "tools", byName)
	if transportGone(e) {
		r.skip("tools.list-shape", "tools/list got no answer: "+describe(e))
		return
	}
	if e != nil {
		r.fail("tools.list-shape", "tools/list got %s", describe(e))
		return
	}
	names := map[string]bool{}
	var callable []map[string]json.RawMessage
	for _, t := range items {
		name := str(t["name"])
		ok := isString(t["name"]) && name != "" && isObject(t["inputSchema"])
		r.judge("tools.list-shape", ok, "a tool with name %s and inputSchema %s", orAbsent(t["name"]), orAbsent(t["inputSchema"]))
		if !ok {
			continue
		}
		r.judge("tools.names", toolName().MatchString(name) && !names[name], "tool name %q: %s", clip(name, 80), nameProblem(name, names))
		names[name] = true
		schema := object(t["inputSchema"])
		r.judge("tools.input-schema-object", str(schema["type"]) == "object", "tool %q inputSchema has type %s", clip(name, 60), orAbsent(schema["type"]))
		r.schemaValid("tools.input-schema-valid", name, t["inputSchema"])
		if t["outputSchema"] != nil {
			r.schemaValid("tools.output-schema-valid", name, t["outputSchema"])
			os := object(t["outputSchema"])
			r.judge("tools.output-schema-object", str(os["type"]) == "object", "tool %q outputSchema has type %s", clip(name, 60), orAbsent(os["type"]))
		}
		if ex := t["execution"]; ex == nil {
			r.pass("tools.execution")
		} else {
			ts := object(ex)["taskSupport"]
			r.judge("tools.execution", isObject(ex) && (ts == nil || slices.Contains([]string{"forbidden", "optional", "required"}, str(ts))),
				"tool %q execution is %s", clip(name, 60), clip(string(ex), 80))
		}
		r.annotations(name, t["annotations"])
		if r.o.CallTools || readOnly(t) {
			callable = append(callable, t)
		}
	}
	if len(callable) > r.o.MaxItems {
		callable = callable[:r.o.MaxItems]
	}
	if r.wants(callRules...) {
		r.callAll(callable)
	}
	r.unknownTool()
}

func nameProblem(name string, seen map[string]bool) string {
	switch {
	case seen[name]:
		return "listed twice"
	case len(name) > 128:
		return fmt.Sprintf("%d characters (at most 128)", len(name))
	}
	return "characters outside A-Z a-z 0-9 _ - ."
}

func readOnly(t map[string]json.RawMessage) bool {
	return string(object(t["annotations"])["readOnlyHint"]) == "true"
}

// schemaValid compiles a tool's schema with the validator forms use.
func (r *run) schemaValid(rule, tool string, schema json.RawMessage) {
	f, err := schemaform.Compile(schema)
	switch {
	case err != nil:
		r.fail(rule, "tool %q: %v", clip(tool, 60), err)
	case f.ValidatorErr != nil:
		r.fail(rule, "tool %q: the schema does not compile: %s", clip(tool, 60), clip(f.ValidatorErr.Error(), 200))
	default:
		r.pass(rule)
	}
}

var hints = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

func (r *run) annotations(tool string, raw json.RawMessage) {
	if raw == nil {
		return
	}
	a := object(raw)
	if a == nil {
		r.fail("tools.annotations", "tool %q annotations is %s, not an object", clip(tool, 60), clip(string(raw), 80))
		return
	}
	for _, h := range hints {
		if v := a[h]; v != nil && !isBool(v) {
			r.fail("tools.annotations", "tool %q %s is %s, not a boolean", clip(tool, 60), h, clip(string(v), 40))
			return
		}
	}
	if v := a["title"]; v != nil && !isString(v) {
		r.fail("tools.annotations", "tool %q annotation title is %s, not a string", clip(tool, 60), clip(string(v), 40))
		return
	}
	r.pass("tools.annotations")
}

// callRules are the rules judged on the tool calls' traffic: a check of
// others alone makes no calls.
var callRules = []string{"tools.call-result", "tools.structured-content", "tools.invalid-arguments", "tools.embedded",
	"content.", "progress.", "cancellation.", "logging.level-respected", "logging.valid-level", "logging.request-scoped", "mrtr.", "sampling.", "elicitation."}

// callConcurrency is how many tool calls run at once.
const callConcurrency = 4

// callAll calls each tool with derived arguments (and, with CallTools,
// boundary and invalid ones too).
func (r *run) callAll(tools []map[string]json.RawMessage) {
	if len(tools) == 0 {
		r.skip("tools.call-result", "no tool is annotated readOnlyHint: true (pass --call-tools to call the others)")
	}
	var writers []string
	for _, t := range tools {
		if !readOnly(t) {
			writers = append(writers, str(t["name"]))
		}
	}
	if len(writers) > 0 {
		r.note("--call-tools: called %s (not annotated read-only) with arguments derived from their schemas (strings such as \"a\" and \"x\"): they may have changed what the server serves", strings.Join(writers, ", "))
	}
	sem := make(chan struct{}, callConcurrency)
	var wg sync.WaitGroup
	for _, t := range tools {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			name, schema := str(t["name"]), t["inputSchema"]
			r.call(name, deriveArgs(schema, argsValid))
			if !r.o.CallTools {
				return
			}
			r.call(name, deriveArgs(schema, argsBoundary))
			if bad, ok := invalidArgs(schema); ok {
				r.callInvalid(name, bad)
			}
		}()
	}
	wg.Wait()
}

// call calls a tool and judges the result's shape.
func (r *run) call(name string, args json.RawMessage) {
	// A tool that reports progress and is still running after
	// callTimeout is a long one: it is cancelled then, which exercises
	// cancellation. Any other call has the whole request timeout, so that
	// a slow machine does not cost verdicts.
	ctx, cancel := context.WithCancelCause(r.ctx)
	defer cancel(nil)
	var progressed atomic.Bool
	stop := time.AfterFunc(r.callTimeout(), func() {
		if progressed.Load() {
			cancel(r.callTimeoutCause())
		}
	})
	defer stop.Stop()
	start := time.Now()
	res, e := r.requestCtx(ctx, mcp.MethodCallTool, map[string]any{"name": name, "arguments": args},
		mcp.WithProgress(func(conn.Progress) error {
			progressed.Store(true)
			if time.Since(start) >= r.callTimeout() {
				cancel(r.callTimeoutCause())
			}
			return nil
		}), mcp.WithTimeout(r.o.Timeout))
	if e != nil {
		// A protocol error is a legitimate answer (a tool may need what a
		// check cannot give); timeouts and lost connections are no verdict.
		return
	}
	m := object(res)
	var content []json.RawMessage
	if json.Unmarshal(m["content"], &content) != nil || m["content"] == nil {
		if !mcp.Stateless(r.era) || m["content"] != nil || str(m["resultType"]) == "complete" {
			r.fail("tools.call-result", "tool %q returned %s (no content array)", clip(name, 60), clip(string(res), 160))
			return
		}
	}
	for _, c := range content {
		if p := contentProblem(c); p != "" {
			r.fail("tools.call-result", "tool %q: %s in %s", clip(name, 60), p, clip(string(c), 120))
			return
		}
	}
	r.pass("tools.call-result")
	if sc := m["structuredContent"]; sc != nil && string(m["isError"]) != "true" {
		r.judge("tools.structured-content-text", hasJSONText(content, sc),
			"tool %q returned structuredContent and no text item holding its JSON", clip(name, 60))
	}
}

// callTimeout is how long a tool that reports progress runs before the
// check cancels it, which exercises cancellation (the linter watches for
// an answer after it); calls without progress have the request timeout.
func (r *run) callTimeout() time.Duration { return min(r.o.Timeout, 5*time.Second) }

// callTimeoutCause is the cause of a call the check ended at callTimeout
// (a context.DeadlineExceeded): a recording's post-mortem names it.
func (r *run) callTimeoutCause() error {
	return fmt.Errorf("the check's call timeout (%s): %w", r.callTimeout(), context.DeadlineExceeded)
}

// callInvalid calls a tool with arguments that break its schema.
func (r *run) callInvalid(name string, args json.RawMessage) {
	res, e := r.request(mcp.MethodCallTool, map[string]any{"name": name, "arguments": args}, mcp.WithTimeout(r.o.Timeout))
	if transportGone(e) {
		return
	}
	ok := (e != nil && e.Code == mcp.CodeInvalidParams) || (e == nil && string(object(res)["isError"]) == "true")
	r.judge("tools.invalid-arguments", ok, "tool %q with invalid arguments %s got %s %s", clip(name, 60), clip(string(args), 80), describe(e), clip(string(res), 80))
}

func (r *run) unknownTool() {
	res, e := r.request(mcp.MethodCallTool, map[string]any{"name": "mcptui-check-no-such-tool", "arguments": map[string]any{}})
	if transportGone(e) {
		return
	}
	r.judge("tools.unknown-tool", e != nil && e.Code == mcp.CodeInvalidParams,
		"tools/call of a tool that does not exist got %s %s (want -32602)", describe(e), clip(string(res), 80))
}

// contentTypes are the content item types and their required members.
var contentTypes = map[string][]string{
	"text": {"text"}, "image": {"data", "mimeType"}, "audio": {"data", "mimeType"},
	"resource_link": {"uri", "name"}, "resource": {"resource"},
}

func contentProblem(raw json.RawMessage) string {
	c := object(raw)
	if c == nil {
		return "a content item that is not an object"
	}
	typ := str(c["type"])
	need, ok := contentTypes[typ]
	if !ok {
		return fmt.Sprintf("content type %q", clip(typ, 40))
	}
	for _, k := range need {
		if c[k] == nil {
			return fmt.Sprintf("a %s item without %q", typ, k)
		}
	}
	if typ == "resource" {
		if res := object(c["resource"]); res == nil || !isString(res["uri"]) || (res["text"] == nil) == (res["blob"] == nil) {
			return "an embedded resource without uri and exactly one of text or blob"
		}
	}
	return ""
}

// hasJSONText reports whether a text item holds sc's JSON.
func hasJSONText(content []json.RawMessage, sc json.RawMessage) bool {
	var want any
	_ = json.Unmarshal(sc, &want)
	wb, _ := json.Marshal(want)
	return slices.ContainsFunc(content, func(c json.RawMessage) bool {
		o := object(c)
		if str(o["type"]) != "text" {
			return false
		}
		var got any
		if json.Unmarshal([]byte(strings.TrimSpace(str(o["text"]))), &got) != nil {
			return false
		}
		gb, _ := json.Marshal(got)
		return string(gb) == string(wb)
	})
}
