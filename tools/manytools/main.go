// Command manytools is a stdio MCP server with as many tools as asked
// (internal/testkit/surfaceserver serving a generated list): the catalog's
// large-list case, and a pair of releases for --baseline.
//
//	mcptui -- go run ./tools/manytools -n 50000
//	go run ./tools/manytools -n 100 -changed    # the "next release": some tools changed
//
// Tools are tool_00000…, each with a title, a description and a small
// input schema; -changed rewords tool_00001's description, adds a
// required argument to tool_00002, removes tool_00003 and adds a tool
// whose name is too long for Claude Code once prefixed and whose schema
// Gemini refuses.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/mcptui/mcptui/internal/protocol"
	"github.com/mcptui/mcptui/internal/testkit/surfaceserver"
)

func main() {
	n := flag.Int("n", 50000, "how many tools")
	pageSize := flag.Int("page", 1000, "tools per tools/list page")
	changed := flag.Bool("changed", false, "serve the changed release (see the package doc)")
	flag.Parse()
	tools := make([]map[string]any, 0, *n+1)
	for i := range *n {
		name := fmt.Sprintf("tool_%05d", i)
		props := map[string]any{"target": map[string]any{"type": "string", "description": "what to work on"}}
		schema := map[string]any{"type": "object", "properties": props}
		desc := fmt.Sprintf("Does thing number %d to the widget it is given, and says how it went.", i)
		if *changed {
			switch i {
			case 1:
				desc += " It may delete the widget."
			case 2:
				props["force"] = map[string]any{"type": "boolean"}
				schema["required"] = []string{"force"}
			case 3:
				continue
			}
		}
		tools = append(tools, map[string]any{"name": name, "title": fmt.Sprintf("Tool %d", i), "description": desc, "inputSchema": schema})
	}
	if *changed {
		tools = append(tools, map[string]any{"name": "export_every_widget_of_the_workspace_as_one_spreadsheet_file",
			"description": "New: exports the widgets.", "inputSchema": map[string]any{"type": "object",
				"properties": map[string]any{"columns": map[string]any{"type": "array"}}}})
	}
	spec := surfaceserver.Spec{
		Protocols:    []string{protocol.Rev20251125, protocol.Rev20250618},
		ServerInfo:   map[string]any{"name": "manytools", "version": "1.0.0"},
		Capabilities: map[string]any{"tools": map[string]any{}},
		Tools:        tools,
		PageSize:     *pageSize,
	}
	if err := surfaceserver.Serve(os.Stdin, os.Stdout, spec); err != nil {
		fmt.Fprintln(os.Stderr, "manytools:", err)
		os.Exit(1)
	}
}
