package check

import (
	"encoding/json"

	"github.com/mcptui/mcptui/mcp"
)

// utilities checks logging/setLevel and completion/complete. Progress and
// cancellation are judged by the linter on every call the check makes.
func (r *run) utilities() {
	caps := r.cur().Session().Capabilities
	if caps.Logging != nil && !mcp.Stateless(r.era) {
		res, e := r.raw(mcp.MethodSetLevel, map[string]any{"level": "nonsense"})
		r.judgeAnswer("logging.invalid-level", e, e != nil && e.Code == mcp.CodeInvalidParams,
			`logging/setLevel "nonsense" got %s %s (want -32602)`, describe(e), clip(string(res), 80))
		// Last, so that later traffic is judged against it: warning.
		res, e = r.raw(mcp.MethodSetLevel, map[string]any{"level": "warning"})
		r.judgeAnswer("logging.set-level", e, e == nil && isObject(res), `logging/setLevel "warning" got %s %s`, describe(e), clip(string(res), 80))
	} else {
		r.skip("logging.set-level", "the server declares no logging")
		r.skip("logging.invalid-level", "the server declares no logging")
	}
	if caps.Completions == nil {
		r.skip("completion.shape", "the server declares no completions")
		r.skip("completion.unknown-prompt", "the server declares no completions")
	} else {
		_, e := r.raw(mcp.MethodComplete, r.params(map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "mcptui-check-no-such-prompt"},
			"argument": map[string]any{"name": "a", "value": ""}}))
		if !transportGone(e) {
			r.judge("completion.unknown-prompt", e != nil && e.Code == mcp.CodeInvalidParams,
				"completion/complete for a prompt that does not exist got %s (want -32602)", describe(e))
		}
	}
	if mcp.Stateless(r.era) {
		r.logLevelMeta()
		if caps.Logging != nil {
			// Later requests ask for log messages, so that the rules about
			// them have some to judge.
			_ = r.cur().SetLogLevel(r.ctx, "info")
		}
	}
}

// logLevelMeta sends a 2026-07-28 request whose _meta asks for a log
// level that does not exist.
func (r *run) logLevelMeta() {
	method := mcp.MethodDiscover
	if r.cur().Session().Capabilities.Tools != nil {
		method = mcp.MethodListTools
	}
	m := meta(r.era)
	m[mcp.MetaLogLevel] = "nonsense"
	_, e := r.raw(method, map[string]any{"_meta": m})
	if transportGone(e) {
		return
	}
	r.judge("logging.invalid-level-meta", e != nil && e.Code == mcp.CodeInvalidParams,
		`%s with _meta logLevel "nonsense" got %s (want -32602)`, method, describe(e))
}

// completion checks one completion/complete answer for ref and argument.
func (r *run) completion(ref map[string]any, arg string) {
	res, e := r.request(mcp.MethodComplete, map[string]any{"ref": ref, "argument": map[string]any{"name": arg, "value": ""}})
	if transportGone(e) {
		return
	}
	if e != nil {
		r.fail("completion.shape", "completion/complete for %v argument %q got %s", ref, arg, describe(e))
		return
	}
	c := object(object(res)["completion"])
	var values []json.RawMessage
	okValues := json.Unmarshal(c["values"], &values) == nil && c["values"] != nil && len(values) <= 100
	for _, v := range values {
		okValues = okValues && isString(v)
	}
	r.judge("completion.shape", c != nil && okValues &&
		(c["total"] == nil || isNumber(c["total"])) && (c["hasMore"] == nil || isBool(c["hasMore"])),
		"completion/complete for %q answered %s", arg, clip(string(res), 200))
}
