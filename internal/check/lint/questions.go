package lint

import (
	"encoding/json"
	"slices"

	"github.com/mcptui/mcptui/internal/protocol"
)

// The rules on what a server asks the client: sampling, elicitation and
// roots requests (the initialize era's server requests, and 2026-07-28's
// inputRequests), judged against the capabilities the client declared.

// question judges one question: method and params, asked of a client
// that declared caps (the capabilities object). legacy marks a server
// request of the initialize era (2026-07-28 judges undeclared ones under
// mrtr.declared-capabilities).
func (j *judge) question(method string, params, caps json.RawMessage, legacy bool, v string) {
	c := members(caps)
	need := map[string]string{protocol.MethodCreateMessage: "sampling", protocol.MethodElicit: "elicitation", protocol.MethodListRoots: "roots"}[method]
	if legacy && need != "" && caps != nil && c[need] == nil {
		j.fail("capabilities.client-declared", v, "the server sent %s, and the client did not declare %s", method, need)
		return
	}
	p := members(params)
	switch method {
	case protocol.MethodCreateMessage:
		j.sampling(p, members(c["sampling"]), v)
	case protocol.MethodElicit:
		j.elicitation(p, c["elicitation"], v)
	}
}

func (j *judge) sampling(p, declared map[string]json.RawMessage, v string) {
	if p == nil || !isArray(p["messages"]) || !isNumber(p["maxTokens"]) {
		j.fail("sampling.request-shape", v, "sampling/createMessage without a messages array and a maxTokens number: %s", clip(mustJSON(p)))
	}
	if (p["tools"] != nil || p["toolChoice"] != nil) && declared["tools"] == nil {
		j.fail("sampling.tools-declared", v, "sampling/createMessage with tools, and the client did not declare sampling.tools")
	}
	if ic := str(p["includeContext"]); (ic == "thisServer" || ic == "allServers") && declared["context"] == nil {
		j.fail("sampling.include-context", v, "sampling/createMessage with includeContext %q, and the client did not declare sampling.context", ic)
	}
}

func (j *judge) elicitation(p map[string]json.RawMessage, declared json.RawMessage, v string) {
	if p == nil {
		j.fail("elicitation.request-shape", v, "elicitation/create without params")
		return
	}
	mode := str(p["mode"])
	if mode == "" {
		mode = "form"
	}
	if d := members(declared); declared != nil && d != nil {
		// {} declares form only; else the modes named.
		ok := (len(d) == 0 && mode == "form") || d[mode] != nil
		if !ok {
			j.fail("elicitation.modes-declared", v, "elicitation/create in %s mode, and the client declared %s", clip([]byte(mode)), clip(declared))
		}
	}
	switch {
	case !isString(p["message"]):
		j.fail("elicitation.request-shape", v, "elicitation/create without a message string")
	case mode == "url" && !isString(p["url"]):
		j.fail("elicitation.request-shape", v, "a URL-mode elicitation/create without a url string")
	case mode == "form" && members(p["requestedSchema"]) == nil:
		j.fail("elicitation.request-shape", v, "a form elicitation/create without a requestedSchema object")
	case mode == "form":
		if why := nonFlat(members(p["requestedSchema"])); why != "" {
			j.fail("elicitation.flat-schema", v, "elicitation/create requestedSchema: %s", why)
		}
	}
}

// primitives are the property types a form elicitation may use.
var primitives = []string{"string", "number", "integer", "boolean"}

// nonFlat says how a requestedSchema is not a flat object of primitive
// properties ("" when it is one). An array is allowed as the multi-select
// enum of 2025-11-25: items with enum or anyOf.
func nonFlat(s map[string]json.RawMessage) string {
	if str(s["type"]) != "object" {
		return "type is " + clip(s["type"]) + ", not object"
	}
	for name, raw := range members(s["properties"]) {
		p := members(raw)
		typ := str(p["type"])
		switch {
		case slices.Contains(primitives, typ):
		case typ == "array" && members(p["items"]) != nil && (members(p["items"])["enum"] != nil || members(p["items"])["anyOf"] != nil):
		default:
			return "property " + clip([]byte(name)) + " has type " + clip(p["type"]) + " (want string, number, integer, boolean or an enum array)"
		}
	}
	return ""
}

func isArray(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '[' }

func mustJSON(m map[string]json.RawMessage) []byte {
	b, _ := json.Marshal(m)
	return b
}
