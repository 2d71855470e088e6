package demo

import (
	"context"
	"encoding/json"
	"os"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// echo: the simplest call there is (go-sdk).

type echoIn struct {
	Message string `json:"message" jsonschema:"the text to send back"`
}

func (d *demo) echoTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "echo",
		Title:       "Echo",
		Description: "Sends the message back unchanged. The simplest request/response pair.",
		Annotations: readOnly("Echo"),
		InputSchema: schemaFor[echoIn](func(p props) { p.title("message", "Message") }),
	}
}

func (d *demo) echo(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{text(in.Message)}}, nil, nil
}

// fail: a tool error, that is a result with isError (go-sdk: a Go error
// returned from a typed handler becomes one).

type failIn struct {
	Message string `json:"message,omitempty" jsonschema:"what the error result says"`
}

func (d *demo) failTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "fail",
		Title:       "Fail (tool error)",
		Description: "Returns a tool error: a normal result with isError set, which a model would see. Not a JSON-RPC error (see rpc_error).",
		Annotations: readOnly("Fail (tool error)"),
		InputSchema: schemaFor[failIn](func(p props) {
			p.def("message", "The demo tool failed on purpose.").title("message", "Error message")
		}),
	}
}

func (d *demo) fail(_ context.Context, _ *mcp.CallToolRequest, in failIn) (*mcp.CallToolResult, any, error) {
	return toolError("%s", in.Message), nil, nil
}

// rpc_error: a JSON-RPC error response (go-sdk passes a *jsonrpc.Error
// through unchanged).

type rpcErrorIn struct {
	Code    int    `json:"code,omitempty" jsonschema:"the JSON-RPC error code"`
	Message string `json:"message,omitempty" jsonschema:"the error message"`
	Data    any    `json:"data,omitempty" jsonschema:"optional error data, any JSON value"`
}

func (d *demo) rpcErrorTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "rpc_error",
		Title:       "JSON-RPC error",
		Description: "Answers the call with a JSON-RPC error response of the given code, message and data instead of a result.",
		Annotations: readOnly("JSON-RPC error"),
		InputSchema: schemaFor[rpcErrorIn](func(p props) {
			p.def("code", -32000).title("code", "Error code")
			p.def("message", "The demo server answered with a JSON-RPC error on purpose.").title("message", "Message")
			p.title("data", "Data")
		}),
	}
}

func (d *demo) rpcError(_ context.Context, _ *mcp.CallToolRequest, in rpcErrorIn) (*mcp.CallToolResult, any, error) {
	e := &jsonrpc.Error{Code: int64(in.Code), Message: in.Message}
	if in.Data == nil {
		in.Data = map[string]any{"tool": "rpc_error", "hint": "this error was asked for"}
	}
	e.Data, _ = json.Marshal(in.Data)
	return nil, nil, e
}

// exit: the server process ends with the given status, without answering
// (by hand: os.Exit, or Config.Exit).

type exitIn struct {
	Status int `json:"status,omitempty" jsonschema:"the process exit status"`
}

func (d *demo) exitTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "exit",
		Title:       "Exit the server",
		Description: "Makes the server process exit at once with the given status, leaving this call (and any other) unanswered.",
		Annotations: destructive("Exit the server"),
		InputSchema: schemaFor[exitIn](func(p props) {
			p.def("status", 3).between("status", 0, 255).title("status", "Exit status")
		}),
	}
}

func (d *demo) exit(_ context.Context, _ *mcp.CallToolRequest, in exitIn) (*mcp.CallToolResult, any, error) {
	d.chatf("exit: exiting with status %d, as asked", in.Status)
	if d.cfg.Exit == nil {
		os.Exit(in.Status)
	}
	d.cfg.Exit(in.Status)
	// Still here: stop as if the process had gone.
	d.wire.halt()
	d.stop(&ExitError{Status: in.Status})
	return nil, nil, &ExitError{Status: in.Status}
}
