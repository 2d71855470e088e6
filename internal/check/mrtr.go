package check

import (
	"encoding/json"

	"github.com/mcptui/mcptui/mcp"
)

// inputRequired tampers with the requestState of a call that asked a
// question (2026-07-28): the server must refuse the forged state.
func (r *run) inputRequired() {
	if !mcp.Stateless(r.era) {
		return
	}
	r.mu.Lock()
	asked := append([]json.RawMessage(nil), r.asked...)
	r.mu.Unlock()
	for _, call := range asked {
		p := map[string]any{}
		if json.Unmarshal(call, &p) != nil {
			continue
		}
		p["_meta"] = r.declaringMeta()
		res, e := r.raw(mcp.MethodCallTool, p)
		if e != nil {
			continue
		}
		m := object(res)
		state := str(m["requestState"])
		if str(m["resultType"]) != "input_required" || state == "" {
			continue
		}
		var reqs map[string]json.RawMessage
		_ = json.Unmarshal(m["inputRequests"], &reqs)
		if len(reqs) > 0 {
			// A retry that answers nothing: ask again, not an error.
			p["inputResponses"] = map[string]any{}
			p["requestState"] = state
			res, e := r.raw(mcp.MethodCallTool, p)
			if transportGone(e) {
				return
			}
			r.judge("mrtr.missing-answers-reask", e == nil && str(object(res)["resultType"]) == "input_required",
				"a retry without the answers asked for got %s %s (want input_required again)", describe(e), clip(string(res), 120))
		}
		responses := map[string]any{}
		for k, q := range reqs {
			switch str(object(q)["method"]) {
			case mcp.MethodElicit:
				responses[k] = map[string]any{"action": "decline"}
			case mcp.MethodListRoots:
				responses[k] = map[string]any{"roots": []any{}}
			default:
				responses[k] = map[string]any{"role": "assistant", "content": map[string]any{"type": "text", "text": "check"}, "model": "mcptui-check"}
			}
		}
		p["inputResponses"] = responses
		p["requestState"] = tamper(state)
		res, e = r.raw(mcp.MethodCallTool, p)
		if transportGone(e) {
			return
		}
		rt := str(object(res)["resultType"])
		r.judge("mrtr.request-state-integrity", e != nil || rt == "input_required",
			"a forged requestState was accepted: the retry answered %s", clip(string(res), 160))
		return
	}
	r.skip("mrtr.request-state-integrity", "no read-only tool asked a question with a requestState (pass --call-tools to try the others)")
}

// tamper changes one character of s.
func tamper(s string) string {
	b := []byte(s)
	i := len(b) / 2
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}

// declaringMeta is the era's _meta declaring the capabilities the check's
// answerers stand for.
func (r *run) declaringMeta() map[string]any {
	m := meta(r.era)
	caps := map[string]any{}
	if r.o.Sampling != nil {
		caps["sampling"] = map[string]any{}
	}
	if r.o.ElicitForm != nil || r.o.ElicitURL != nil {
		caps["elicitation"] = map[string]any{"form": map[string]any{}}
	}
	if r.o.Roots != nil {
		caps["roots"] = map[string]any{}
	}
	m[mcp.MetaClientCapabilities] = caps
	return m
}
