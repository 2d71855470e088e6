package check

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
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

// injection is one tool call carrying the probe.
type injection struct {
	name     string
	args     map[string]any
	probed   []string // the arguments that hold it
	readOnly bool
}

// pathLike are words of argument names that name files: a tool that is
// not read-only would create a file named after the probe there.
var pathLike = []string{"path", "file", "dir", "folder", "destination", "source", "target", "location"}

// noteInjections announces the probe's calls of tools that may write.
func (r *run) noteInjections(targets []injection) {
	for _, t := range targets {
		if !t.readOnly {
			r.note("tools.shell-injection called %q (not annotated read-only) with %q in %s: if the tool writes files, look for one of that name in what it serves and remove it",
				t.name, shellProbe, strings.Join(t.probed, ", "))
		}
	}
}

// injectionTargets are the calls of the probe: each callable tool (read-only,
// or any with callTools) that takes a free string argument, with the probe
// there — but never in an argument naming a file of a tool that may write.
func injectionTargets(tools []map[string]json.RawMessage, callTools bool) []injection {
	var targets []injection
	for _, t := range tools {
		ro := readOnly(t)
		if !(callTools || ro) || len(targets) == maxInjected {
			continue
		}
		var args map[string]any
		_ = json.Unmarshal(deriveArgs(t["inputSchema"], argsValid), &args)
		props := object(object(t["inputSchema"])["properties"])
		var probed []string
		for _, p := range slices.Sorted(maps.Keys(props)) {
			var s map[string]any
			if json.Unmarshal(props[p], &s) != nil || s["type"] != "string" || s["enum"] != nil || s["const"] != nil || s["format"] != nil || s["pattern"] != nil {
				continue
			}
			if !ro && slices.ContainsFunc(pathLike, func(w string) bool { return strings.Contains(strings.ToLower(p), w) }) {
				continue
			}
			if args == nil {
				args = map[string]any{}
			}
			args[p] = shellProbe
			probed = append(probed, p)
		}
		if len(probed) > 0 {
			targets = append(targets, injection{str(t["name"]), args, probed, ro})
		}
	}
	return targets
}

// shellInjection calls each callable tool (read-only, or any with
// --call-tools) that takes a free string argument with the probe there,
// and fails when a shell evaluated it.
func (r *run) shellInjection(tools []map[string]json.RawMessage) {
	targets := injectionTargets(tools, r.o.CallTools)
	r.noteInjections(targets)
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
			ctx, cancel := context.WithTimeoutCause(r.ctx, r.callTimeout(), r.callTimeoutCause())
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
