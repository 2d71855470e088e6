package demo

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// roots: the client's roots, asked the multi round-trip way (mrtr.go): an
// input_required result with a roots/list input request on 2026-07-28, a
// roots/list request on legacy sessions (go-sdk does both).

func (d *demo) rootsTool() *mcp.Tool {
	return &mcp.Tool{
		Name:        "roots",
		Title:       "List the client's roots",
		Description: "Asks the client for its roots (roots/list): the directories or URIs it lets servers work in, and lists them.",
		Annotations: readOnly("List the client's roots"),
		InputSchema: schemaFor[struct{}](nil),
	}
}

func (d *demo) roots(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	version := d.versionOf(req.Params.Meta)
	if res, err := require(version, req.ClientCapabilities(), capRoots); res != nil || err != nil {
		return res, nil, err
	}
	r, err := d.roundOf("roots", req.Params.InputResponses, req.Params.RequestState)
	if err != nil {
		return nil, nil, err
	}
	ans := r.rootsAnswer("roots")
	if ans == nil {
		return d.ask("roots", 1, nil, mcp.InputRequestMap{"roots": &mcp.ListRootsParams{}}), nil, nil
	}
	if len(ans.Roots) == 0 {
		return &mcp.CallToolResult{Content: []mcp.Content{text("The client has no roots.")}}, nil, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The client has %d root(s):", len(ans.Roots))
	for _, root := range ans.Roots {
		fmt.Fprintf(&b, "\n  %s", root.URI)
		if root.Name != "" {
			fmt.Fprintf(&b, " (%s)", root.Name)
		}
	}
	return &mcp.CallToolResult{Content: []mcp.Content{text(b.String())}}, nil, nil
}
