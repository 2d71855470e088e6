package check

import (
	"encoding/json"

	"github.com/mcptui/mcptui/mcp"
)

// capabilityFlags are the boolean members of the capabilities that have any.
var capabilityFlags = map[string][]string{"tools": {"listChanged"}, "prompts": {"listChanged"}, "resources": {"subscribe", "listChanged"}}

// capabilityShapes judges that every declared capability is an object and
// its flags booleans.
func (r *run) capabilityShapes(declared map[string]json.RawMessage) {
	for name, v := range declared {
		o := object(v)
		if o == nil {
			r.fail("capabilities.shape", "capability %q is %s, not an object", clip(name, 40), clip(string(v), 60))
			continue
		}
		for _, flag := range capabilityFlags[name] {
			if f := o[flag]; f != nil && !isBool(f) {
				r.fail("capabilities.shape", "%s.%s is %s, not a boolean", name, flag, clip(string(f), 40))
			}
		}
	}
	r.pass("capabilities.shape")
}

// capabilityMethods pairs each server capability with a method that only
// it serves, and params that make a well-formed request.
var capabilityMethods = []struct {
	capability, method string
	params             map[string]any
	legacyOnly         bool
}{
	{"tools", mcp.MethodListTools, nil, false},
	{"resources", mcp.MethodListResources, nil, false},
	{"prompts", mcp.MethodListPrompts, nil, false},
	{"completions", mcp.MethodComplete, map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "mcptui-check-probe"}, "argument": map[string]any{"name": "a", "value": ""}}, false},
	{"logging", mcp.MethodSetLevel, map[string]any{"level": "info"}, true},
}

// capabilities checks that declared capabilities answer and undeclared
// ones do not pretend to.
func (r *run) capabilities() {
	declared := object(r.cur().Session().Capabilities.Raw)
	r.capabilityShapes(declared)
	for _, cm := range capabilityMethods {
		if cm.legacyOnly && mcp.Stateless(r.era) {
			continue
		}
		p := map[string]any{}
		for k, v := range cm.params {
			p[k] = v
		}
		_, e := r.raw(cm.method, r.params(p))
		if transportGone(e) {
			continue
		}
		if declared[cm.capability] != nil {
			// completion/complete on an unknown prompt may fail with -32602:
			// an answer all the same; only -32601 says "not served".
			r.judge("capabilities.declared-methods", e == nil || e.Code != mcp.CodeMethodNotFound,
				"%s is declared, and %s got %s", cm.capability, cm.method, describe(e))
			continue
		}
		r.judge("capabilities.undeclared-methods", e != nil,
			"%s is not declared, and %s returned a result", cm.capability, cm.method)
	}
}
