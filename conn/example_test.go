package conn_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/demo"
)

// demoRole makes this test binary, run as a child, mcptui's demo server
// (see TestMain): the examples' server, where a program names its own.
const demoRole = "demo"

// serveDemo is the demo server on stdio, for a child started with
// CONN_TEST_ROLE=demo.
func serveDemo() int {
	if err := demo.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		return 1
	}
	return 0
}

// demoServer is the command line of the examples' server: this test
// binary as the demo server. A program dials its own, for instance
// conn.Dial(ctx, "npx", []string{"-y", "@modelcontextprotocol/server-everything"}, opts).
func demoServer() (string, conn.Options) {
	role := demoRole
	return fakeExe, conn.Options{
		Env:    []conn.EnvVar{{Name: roleEnv, Value: &role}},
		Stderr: io.Discard, // the server's log lines; nil leaves them on ours
	}
}

// Dial starts the server as a child process; Call sends a request and waits
// for its answer, Notify a notification. Here the MCP handshake, then a
// tool call.
func ExampleDial() {
	ctx := context.Background()
	command, opts := demoServer()
	c, err := conn.Dial(ctx, command, nil, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Shutdown(time.Second)

	res, err := c.Call(ctx, "initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "example", "version": "1.0.0"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct {
			Name string `json:"name"`
		} `json:"serverInfo"`
	}
	if err := json.Unmarshal(res, &init); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(init.ServerInfo.Name, "speaks", init.ProtocolVersion)
	if err := c.Notify(ctx, "notifications/initialized", nil); err != nil {
		fmt.Println(err)
		return
	}

	res, err = c.Call(ctx, "tools/call", map[string]any{
		"name":      "echo",
		"arguments": map[string]any{"message": "hello"},
	}, conn.WithTimeout(10*time.Second))
	if err != nil {
		fmt.Println(err)
		return
	}
	var call struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(res, &call); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(call.Content[0].Text)
	// Output:
	// mcptui-demo speaks 2025-11-25
	// hello
}

// A failed request is a *conn.Error with the JSON-RPC code and message.
func ExampleError() {
	ctx := context.Background()
	command, opts := demoServer()
	c, err := conn.Dial(ctx, command, nil, opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Shutdown(time.Second)

	_, err = c.Call(ctx, "initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "example", "version": "1.0.0"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = c.Notify(ctx, "notifications/initialized", nil)

	_, err = c.Call(ctx, "no/such/method", nil)
	if e, ok := err.(*conn.Error); ok {
		fmt.Println(e.Code)
	}
	// Output:
	// -32601
}
