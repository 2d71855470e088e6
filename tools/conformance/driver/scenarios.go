package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// scenarios are the client scenarios of the suite whose checks concern an
// MCP client as such, each with what a person using mcptui would do to
// meet it.
var scenarios = map[string]func(context.Context, *driver) error{
	// The client initializes (or, on 2026-07-28, just talks) and lists.
	"initialize":               listTools,
	"request-metadata":         listTools,
	"json-schema-ref-no-deref": listTools,

	"tools_call":                          addNumbers,
	"elicitation-sep1034-client-defaults": elicitationDefaults,
	"sep-2322-client-request-state":       requestState,
	"json-schema-2020-12-preservation":    schemaEcho,

	// The HTTP transport's own scenarios (over HTTP only).
	"sse-retry":                 callListed("test_reconnection"),
	"http-standard-headers":     everyKind,
	"http-custom-headers":       contextCalls,
	"http-invalid-tool-headers": callEveryListed,
}

// callListed: list the tools, then call name (a stream the server breaks
// is resumed by the HTTP transport).
func callListed(name string) func(context.Context, *driver) error {
	return func(ctx context.Context, d *driver) error {
		tools, err := d.tools(ctx)
		if err != nil {
			return err
		}
		if err := need(tools, name); err != nil {
			return err
		}
		_, err = d.call(ctx, name, map[string]any{})
		return err
	}
}

// everyKind: list, call, read and get everything the server offers, each
// request with its standard headers.
func everyKind(ctx context.Context, d *driver) error {
	if err := callEveryListed(ctx, d); err != nil {
		return err
	}
	out, err := d.mcptui(ctx, "resources")
	if err != nil {
		return err
	}
	for _, uri := range names(out, "resources", "uri") {
		if _, err := d.mcptui(ctx, "read", uri); err != nil {
			return err
		}
	}
	out, err = d.mcptui(ctx, "prompts")
	if err != nil {
		return err
	}
	for _, name := range names(out, "prompts", "name") {
		if _, err := d.mcptui(ctx, "get", name); err != nil {
			return err
		}
	}
	return nil
}

// callEveryListed: list the tools and call each one mcptui listed (a tool
// it must not offer is left out of the list, so it is never called).
func callEveryListed(ctx context.Context, d *driver) error {
	tools, err := d.tools(ctx)
	if err != nil {
		return err
	}
	for name := range tools {
		if _, err := d.call(ctx, name, map[string]any{}); err != nil {
			return err
		}
	}
	return nil
}

// contextCalls: the tool calls the scenario's context names, with their
// arguments.
func contextCalls(ctx context.Context, d *driver) error {
	var c struct {
		ToolCalls []struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"toolCalls"`
	}
	if err := json.Unmarshal(d.context, &c); err != nil || len(c.ToolCalls) == 0 {
		return fmt.Errorf("the scenario's context %.200q names no toolCalls", d.context)
	}
	for _, tc := range c.ToolCalls {
		args := tc.Arguments
		if len(args) == 0 {
			args = json.RawMessage(`{}`)
		}
		if _, err := d.call(ctx, tc.Name, args); err != nil {
			return err
		}
	}
	return nil
}

// names are the field of every item of a list command's output
// ({"<list>": [...]} or the array).
func names(out []byte, list, field string) []string {
	var items []map[string]any
	var wrapped map[string]json.RawMessage
	if json.Unmarshal(out, &wrapped) == nil && wrapped[list] != nil {
		_ = json.Unmarshal(wrapped[list], &items)
	} else {
		_ = json.Unmarshal(out, &items)
	}
	var out2 []string
	for _, it := range items {
		if s, ok := it[field].(string); ok {
			out2 = append(out2, s)
		}
	}
	return out2
}

// listTools: `mcptui tools`.
func listTools(ctx context.Context, d *driver) error {
	_, err := d.tools(ctx)
	return err
}

// addNumbers: list the tools, then call add_numbers with two numbers.
func addNumbers(ctx context.Context, d *driver) error {
	tools, err := d.tools(ctx)
	if err != nil {
		return err
	}
	if err := need(tools, "add_numbers"); err != nil {
		return err
	}
	_, err = d.call(ctx, "add_numbers", map[string]any{"a": 5, "b": 3})
	return err
}

// elicitationDefaults: call the tool that asks a question, accepting the
// question's defaults (--answer elicitation=accept-defaults).
func elicitationDefaults(ctx context.Context, d *driver) error {
	const tool = "test_client_elicitation_defaults"
	tools, err := d.tools(ctx)
	if err != nil {
		return err
	}
	if err := need(tools, tool); err != nil {
		return err
	}
	_, err = d.call(ctx, tool, map[string]any{}, "--answer", "elicitation=accept-defaults")
	return err
}

// requestStateScript calls the four tools of the SEP-2322 scenario in one
// session: the two that ask ("Please confirm to continue", a boolean
// "confirmed") are answered by the --answer rule, and the unrelated call
// comes right after the first of them, on the same connection.
const requestStateScript = `# SEP-2322 (MRTR): requestState echoed, new ids, nothing leaks into other calls
tools
call test_mrtr_echo_state
call test_mrtr_unrelated
call test_mrtr_no_state
call test_mrtr_no_result_type
`

// requestState: `mcptui run` of requestStateScript, confirming when asked.
func requestState(ctx context.Context, d *driver) error {
	confirm, err := d.answerFile("elicitation", "confirm.json",
		map[string]any{"action": "accept", "content": map[string]any{"confirmed": true}})
	if err != nil {
		return err
	}
	script := filepath.Join(d.tmp, "sep-2322.mcpt")
	if err := os.WriteFile(script, []byte(requestStateScript), 0o600); err != nil {
		return fmt.Errorf("writing the script: %w", err)
	}
	_, err = d.mcptui(ctx, "run", script, "--answer", confirm)
	return err
}

// schemaEcho: list the tools, then pass json_schema_2020_12_tool's
// inputSchema, as mcptui printed it, to json_schema_echo.
func schemaEcho(ctx context.Context, d *driver) error {
	const focal, echo = "json_schema_2020_12_tool", "json_schema_echo"
	tools, err := d.tools(ctx)
	if err != nil {
		return err
	}
	if err := need(tools, focal, echo); err != nil {
		return err
	}
	var tool struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	if err := json.Unmarshal(tools[focal], &tool); err != nil || len(tool.InputSchema) == 0 {
		return fmt.Errorf("%s has no inputSchema in the tool list", focal)
	}
	_, err = d.call(ctx, echo, map[string]any{"schema": tool.InputSchema})
	return err
}
