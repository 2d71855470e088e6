package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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

// requestState: call each of the four tools, confirming when asked (the
// two MRTR tools ask "Please confirm to continue" with a boolean
// "confirmed"), the unrelated one in between.
func requestState(ctx context.Context, d *driver) error {
	tools, err := d.tools(ctx)
	if err != nil {
		return err
	}
	order := []string{"test_mrtr_echo_state", "test_mrtr_unrelated", "test_mrtr_no_state", "test_mrtr_no_result_type"}
	if err := need(tools, order...); err != nil {
		return err
	}
	confirm, err := d.answerFile("elicitation", "confirm.json",
		map[string]any{"action": "accept", "content": map[string]any{"confirmed": true}})
	if err != nil {
		return err
	}
	var errs []error
	for _, name := range order {
		if _, err := d.call(ctx, name, map[string]any{}, "--answer", confirm); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
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
