package load

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/headless"
	"github.com/mcptui/mcptui/mcp"
)

// sendFunc sends the i-th request of the run on c; isError reports a tool
// result with isError set.
type sendFunc func(ctx context.Context, c *mcp.Client, i int64) (isError bool, err error)

// what is one kind of request to send, with its label for the report.
type what struct {
	label string
	send  func(ctx context.Context, c *mcp.Client) (bool, error)
}

// sender is what the command line asks each request to be: the call, the
// request, or the script's request steps in turn.
func sender(cfg *cli.Config) (_ sendFunc, labels, notes []string, _ error) {
	var steps []what
	switch cfg.Load.Kind {
	case "call":
		steps = []what{callStep(cfg.Target, cfg.Input)}
	case "request":
		steps = []what{requestStep(cfg.Target, cfg.Input)}
	case "script":
		src, err := os.ReadFile(cfg.Load.Script)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("reading the script: %w", err)
		}
		sc, err := headless.ParseScript(cfg.Load.Script, src)
		if err != nil {
			return nil, nil, nil, err
		}
		expects := 0
		for _, st := range sc.Steps {
			expects += len(st.Expects)
			w, err := scriptStep(st)
			if err != nil {
				return nil, nil, nil, err
			}
			steps = append(steps, w)
		}
		if len(steps) == 0 {
			return nil, nil, nil, fmt.Errorf("the script %s has no step to send", cfg.Load.Script)
		}
		if expects > 0 {
			notes = append(notes, fmt.Sprintf("the script's %d expect lines are not checked under load: a failed request counts as an error by its kind", expects))
		}
	default:
		return nil, nil, nil, fmt.Errorf("load: nothing to send (%q)", cfg.Load.Kind)
	}
	labels = make([]string, len(steps))
	for i, s := range steps {
		labels[i] = s.label
	}
	return func(ctx context.Context, c *mcp.Client, i int64) (bool, error) {
		return steps[i%int64(len(steps))].send(ctx, c)
	}, labels, notes, nil
}

func callStep(name string, input json.RawMessage) what {
	var args any
	if input != nil {
		args = input
	}
	return what{label: "call " + name, send: func(ctx context.Context, c *mcp.Client) (bool, error) {
		r, err := c.CallTool(ctx, name, args)
		if err != nil {
			return false, err
		}
		return r.IsError, nil
	}}
}

func requestStep(method string, input json.RawMessage) what {
	var params any
	if input != nil {
		params = input
	}
	return what{label: "request " + method, send: func(ctx context.Context, c *mcp.Client) (bool, error) {
		_, err := c.Request(ctx, method, params)
		return false, err
	}}
}

// scriptStep is a script line as a request; the lines that are not one
// request (listen, next) are refused, and expectations are not checked.
func scriptStep(st *headless.ScriptStep) (what, error) {
	s := st.Send
	label := st.Text
	switch st.Verb {
	case "call":
		return callStep(s.Target, s.Input), nil
	case "request":
		return requestStep(s.Target, s.Input), nil
	case "tools":
		return what{label, func(ctx context.Context, c *mcp.Client) (bool, error) { _, err := c.ListTools(ctx); return false, err }}, nil
	case "resources":
		return what{label, func(ctx context.Context, c *mcp.Client) (bool, error) {
			_, err := c.ListResources(ctx)
			return false, err
		}}, nil
	case "templates":
		return what{label, func(ctx context.Context, c *mcp.Client) (bool, error) {
			_, err := c.ListResourceTemplates(ctx)
			return false, err
		}}, nil
	case "prompts":
		return what{label, func(ctx context.Context, c *mcp.Client) (bool, error) {
			_, err := c.ListPrompts(ctx)
			return false, err
		}}, nil
	case "read":
		return what{label, func(ctx context.Context, c *mcp.Client) (bool, error) {
			_, err := c.ReadResource(ctx, s.Target)
			return false, err
		}}, nil
	case "get", "complete":
		var args map[string]string
		if s.Input != nil {
			if err := json.Unmarshal(s.Input, &args); err != nil {
				return what{}, fmt.Errorf("%s:%d: arguments must be strings: %w", "script", st.Line, err)
			}
		}
		if st.Verb == "get" {
			return what{label, func(ctx context.Context, c *mcp.Client) (bool, error) {
				_, err := c.GetPrompt(ctx, s.Target, args)
				return false, err
			}}, nil
		}
		ref := mcp.PromptRef(s.Complete.Ref)
		if s.Complete.RefType == "ref/resource" {
			ref = mcp.ResourceRef(s.Complete.Ref)
		}
		return what{label, func(ctx context.Context, c *mcp.Client) (bool, error) {
			_, err := c.Complete(ctx, ref, s.Complete.Argument, s.Complete.Value, args)
			return false, err
		}}, nil
	}
	return what{}, fmt.Errorf("line %d: %q is not one request; a load script holds request steps only (call, request, read, get, complete, tools, resources, templates, prompts)", st.Line, st.Verb)
}
