package demo

import (
	"context"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// complete answers completion/complete (go-sdk routes it here and
// advertises the completions capability) for prompt arguments and template
// variables. A colour name shows paging (at most maxCompletions values, with
// total and hasMore); a team member depends on the team already chosen
// (context.arguments).
func (d *demo) complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	ref, arg := req.Params.Ref, req.Params.Argument
	var ctxArgs map[string]string
	if req.Params.Context != nil {
		ctxArgs = req.Params.Context.Arguments
	}
	var pool []string
	switch {
	case ref.Type == "ref/prompt" && ref.Name == "greet" && arg.Name == "style":
		pool = []string{"formal", "casual", "pirate", "shakespearean", "haiku", "friendly"}
	case ref.Type == "ref/prompt" && ref.Name == "code_review" && arg.Name == "language":
		pool = []string{"Go", "Rust", "Python", "TypeScript", "JavaScript", "Java", "Kotlin", "Swift", "C", "C++", "C#", "Ruby", "Elixir", "Haskell", "Zig"}
	case ref.Type == "ref/prompt" && ref.Name == "code_review" && arg.Name == "focus":
		pool = []string{"security", "performance", "readability", "tests"}
	case ref.Type == "ref/prompt" && ref.Name == "describe_resource" && arg.Name == "uri":
		pool = d.resourceURIs()
	case ref.Type == "ref/prompt" && ref.Name == "interview" && arg.Name == "topic":
		pool = []string{"working with MCP", "terminal user interfaces", "Go concurrency", "testing"}
	case ref.Type == "ref/resource" && ref.URI == colorTemplate && arg.Name == "name":
		for _, c := range colors {
			pool = append(pool, c.name)
		}
	case ref.Type == "ref/resource" && ref.URI == memberTemplate && arg.Name == "team":
		for t := range teams {
			pool = append(pool, t)
		}
		slices.Sort(pool)
	case ref.Type == "ref/resource" && ref.URI == memberTemplate && arg.Name == "member":
		if team, ok := teams[ctxArgs["team"]]; ok {
			pool = team
		} else {
			for _, members := range teams {
				pool = append(pool, members...)
			}
			slices.Sort(pool)
		}
	case ref.Type == "ref/prompt" || ref.Type == "ref/resource":
		if !d.knownRef(ref) {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "no such prompt or resource template: " + ref.Name + ref.URI}
		}
		// A known prompt or template whose argument does not complete.
	default:
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown reference type " + ref.Type}
	}
	var values []string
	for _, v := range pool {
		if strings.HasPrefix(strings.ToLower(v), strings.ToLower(arg.Value)) {
			values = append(values, v)
		}
	}
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}, Total: len(values)}}
	if len(values) > maxCompletions {
		res.Completion.Values = values[:maxCompletions]
		res.Completion.HasMore = true
	} else if values != nil {
		res.Completion.Values = values
	}
	return res, nil
}

// maxCompletions is how many values one completion answer carries at most
// (the spec allows 100; fewer makes hasMore easy to see).
const maxCompletions = 10

func (d *demo) knownRef(ref *mcp.CompleteReference) bool {
	switch ref.Type {
	case "ref/prompt":
		return slices.Contains([]string{"greet", "code_review", "describe_resource", "interview", "surprise"}, ref.Name)
	case "ref/resource":
		return ref.URI == colorTemplate || ref.URI == memberTemplate || slices.Contains(d.resourceURIs(), ref.URI)
	}
	return false
}
