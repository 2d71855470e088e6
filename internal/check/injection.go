package check

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/mcptui/mcptui/mcp"
)

// shellProbe is put in every free string argument: a shell that
// evaluates it runs only echo and arithmetic, and prints shellCanary,
// which the text itself does not contain.
const (
	shellProbe  = "mcptui $(echo mcptui_canary_$((40+2))) `echo mcptui_canary_$((40+2))`; echo mcptui_canary_$((40+2))"
	shellCanary = "mcptui_canary_42"
)

// maxInjected bounds how many tools get the probe.
const maxInjected = 4

// shellInjection calls each callable tool (read-only, or any with
// --call-tools) that takes a free string argument with the probe there,
// and fails when a shell evaluated it.
func (r *run) shellInjection(tools []map[string]json.RawMessage) {
	type target struct {
		name string
		args map[string]any
	}
	var targets []target
	for _, t := range tools {
		if !(r.o.CallTools || readOnly(t)) || len(targets) == maxInjected {
			continue
		}
		var args map[string]any
		_ = json.Unmarshal(deriveArgs(t["inputSchema"], argsValid), &args)
		props := object(object(t["inputSchema"])["properties"])
		n := 0
		for p, raw := range props {
			var s map[string]any
			if json.Unmarshal(raw, &s) != nil || s["type"] != "string" || s["enum"] != nil || s["const"] != nil || s["format"] != nil || s["pattern"] != nil {
				continue
			}
			if args == nil {
				args = map[string]any{}
			}
			args[p] = shellProbe
			n++
		}
		if n > 0 {
			targets = append(targets, target{str(t["name"]), args})
		}
	}
	if len(targets) == 0 {
		why := "no read-only tool takes a free string argument (pass --call-tools to try the others)"
		if r.o.CallTools {
			why = "no tool's inputSchema has a free string property"
		}
		r.skip("tools.shell-injection", why)
		return
	}
	sem := make(chan struct{}, callConcurrency)
	var wg sync.WaitGroup
	for _, t := range targets {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			// A long tool is cancelled as the other calls are: the probe
			// needs its answer only when it comes at once.
			ctx, cancel := context.WithTimeout(r.ctx, r.callTimeout())
			defer cancel()
			res, e := r.requestCtx(ctx, mcp.MethodCallTool, map[string]any{"name": t.name, "arguments": t.args}, mcp.WithTimeout(r.o.Timeout))
			text := string(res)
			if e != nil {
				if transportGone(e) {
					return
				}
				text = e.Message + " " + string(e.Data)
			}
			r.judge("tools.shell-injection", !strings.Contains(text, shellCanary),
				"tool %q given %q answered %s: a shell evaluated the argument", clip(t.name, 60), shellProbe, clip(text, 160))
		}()
	}
	wg.Wait()
}
