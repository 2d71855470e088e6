package check

import (
	"encoding/json"

	"github.com/mcptui/mcptui/mcp"
)

// prompts lists prompts and gets each with its required arguments.
func (r *run) prompts() {
	if r.cur().Session().Capabilities.Prompts == nil {
		r.skip("prompts.list-shape", "the server declares no prompts")
		return
	}
	items, e := r.list(mcp.MethodListPrompts, "prompts", byName)
	if transportGone(e) {
		r.skip("prompts.list-shape", "prompts/list got no answer: "+describe(e))
		return
	}
	if e != nil {
		r.fail("prompts.list-shape", "prompts/list got %s", describe(e))
		return
	}
	if len(items) == 0 {
		r.pass("prompts.list-shape")
	}
	res, e := r.request(mcp.MethodGetPrompt, map[string]any{"name": "mcptui-check-no-such-prompt", "arguments": map[string]any{}})
	if !transportGone(e) {
		r.judge("prompts.unknown-prompt", e != nil && e.Code == mcp.CodeInvalidParams,
			"prompts/get of a prompt that does not exist got %s %s (want -32602)", describe(e), clip(string(res), 80))
	}
	for i, p := range items {
		name := str(p["name"])
		var args []map[string]json.RawMessage
		argsOK := p["arguments"] == nil || json.Unmarshal(p["arguments"], &args) == nil
		for _, a := range args {
			argsOK = argsOK && isString(a["name"])
		}
		ok := isString(p["name"]) && name != "" && argsOK
		r.judge("prompts.list-shape", ok, "a prompt with name %s and arguments %s", orAbsent(p["name"]), orAbsent(p["arguments"]))
		if !ok || i >= r.o.MaxItems {
			continue
		}
		values := map[string]string{}
		guessed := false
		var required string
		for _, a := range args {
			if string(a["required"]) == "true" {
				v, ok := r.suggest(name, str(a["name"]))
				values[str(a["name"])], guessed = v, guessed || !ok
				if required == "" {
					required = str(a["name"])
				}
			}
		}
		r.get(name, values, guessed)
		if required != "" {
			delete(values, required)
			res, e := r.request(mcp.MethodGetPrompt, map[string]any{"name": name, "arguments": values})
			if !transportGone(e) {
				r.judge("prompts.missing-argument", e != nil && e.Code == mcp.CodeInvalidParams,
					"prompts/get %q without its required argument %q got %s %s (want -32602)", clip(name, 60), clip(required, 40), describe(e), clip(string(res), 80))
			}
		}
		if len(args) > 0 && r.cur().Session().Capabilities.Completions != nil && i < 5 {
			r.completion(map[string]any{"type": "ref/prompt", "name": name}, str(args[0]["name"]))
		}
	}
}

// get gets a prompt and judges its messages.
func (r *run) get(name string, args map[string]string, guessed bool) {
	res, e := r.request(mcp.MethodGetPrompt, map[string]any{"name": name, "arguments": args})
	if transportGone(e) {
		return
	}
	if e != nil && e.Code == mcp.CodeInvalidParams {
		// The derived values were refused: a fair answer, no verdict.
		return
	}
	if e != nil && guessed {
		// "x" for an argument may simply be wrong for this prompt.
		r.skip("prompts.get", "the server refused the guessed argument values (offer completions for them)")
		return
	}
	if e != nil {
		r.fail("prompts.get", "prompts/get %q with its required arguments got %s", clip(name, 60), describe(e))
		return
	}
	var msgs []map[string]json.RawMessage
	if json.Unmarshal(object(res)["messages"], &msgs) != nil {
		r.fail("prompts.get", "prompts/get %q answered %s (no messages array)", clip(name, 60), clip(string(res), 120))
		return
	}
	for _, m := range msgs {
		role := str(m["role"])
		if (role != "user" && role != "assistant") || contentProblem(m["content"]) != "" {
			r.fail("prompts.get", "prompts/get %q: a message with role %s and content %s", clip(name, 60), orAbsent(m["role"]), clip(string(m["content"]), 100))
			return
		}
	}
	r.pass("prompts.get")
}

// suggest is a value for a prompt argument: the server's first completion
// when it offers one (ok), else "x".
func (r *run) suggest(prompt, arg string) (string, bool) {
	if r.cur().Session().Capabilities.Completions == nil {
		return "x", false
	}
	res, e := r.request(mcp.MethodComplete, map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": prompt},
		"argument": map[string]any{"name": arg, "value": ""}})
	var c struct {
		Completion struct {
			Values []string `json:"values"`
		} `json:"completion"`
	}
	if e != nil || json.Unmarshal(res, &c) != nil || len(c.Completion.Values) == 0 {
		return "x", false
	}
	return c.Completion.Values[0], true
}
