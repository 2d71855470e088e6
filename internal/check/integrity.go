package check

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sync"
	"unicode"

	"github.com/mcptui/mcptui/mcp"

	"github.com/mcptui/mcptui/internal/protocol"
)

// integrity judges what a model is shown and can trust, on the initialize
// eras: the server declares only server capabilities, its tool list stays
// the same unless it says it changed, tool text hides nothing, and a tool
// given an argument it does not declare still answers.
func (r *run) integrity() {
	if mcp.Stateless(r.era) {
		return
	}
	r.clientOnlyCapabilities()
	if r.cur().Session().Capabilities.Tools == nil {
		for _, id := range []string{"tools.stable-list", "tools.hidden-instructions", "tools.extra-arguments", "tools.shell-injection"} {
			r.skip(id, "the server declares no tools")
		}
		return
	}
	if !r.wants("tools.stable-list", "tools.hidden-instructions", "tools.extra-arguments", "tools.shell-injection") {
		return
	}
	changes := r.toolsChanged.Load()
	first, e := r.list(mcp.MethodListTools, "tools", byName)
	if e != nil {
		r.skip("tools.stable-list", "tools/list failed: "+describe(e))
		return
	}
	for _, t := range first {
		r.hiddenInstructions(t)
	}
	if r.wants("tools.stable-list") {
		second, e := r.list(mcp.MethodListTools, "tools", byName)
		switch {
		case e != nil:
			r.fail("tools.stable-list", "a second tools/list got %s", describe(e))
		case r.toolsChanged.Load() != changes:
			r.skip("tools.stable-list", "the server announced notifications/tools/list_changed between the two lists")
		default:
			r.sameTools(first, second)
		}
	}
	if r.wants("tools.extra-arguments") {
		r.extraArguments(first)
	}
	if r.wants("tools.shell-injection") {
		r.shellInjection(first)
	}
}

// clientCapabilities are the client's capabilities a server must not
// declare, and the revision each appeared in.
var clientCapabilities = []struct{ name, since string }{{"roots", protocol.Rev20241105}, {"sampling", protocol.Rev20241105}, {"elicitation", protocol.Rev20250618}}

func (r *run) clientOnlyCapabilities() {
	declared := object(r.cur().Session().Capabilities.Raw)
	for _, c := range clientCapabilities {
		if r.era >= c.since && declared[c.name] != nil {
			r.fail("capabilities.client-only", "the server declares %q, a client capability: %s", c.name, clip(string(declared[c.name]), 60))
		}
	}
	r.pass("capabilities.client-only")
}

// sameTools judges two consecutive tool lists equal, tool by tool.
func (r *run) sameTools(first, second []map[string]json.RawMessage) {
	byName := func(items []map[string]json.RawMessage) map[string]any {
		out := map[string]any{}
		for _, t := range items {
			var v any
			b, _ := json.Marshal(t)
			_ = json.Unmarshal(b, &v)
			out[str(t["name"])] = v
		}
		return out
	}
	a, b := byName(first), byName(second)
	for name, ta := range a {
		tb, ok := b[name]
		switch {
		case !ok:
			r.fail("tools.stable-list", "tool %q was listed, then gone from the next tools/list (no list_changed between)", clip(name, 60))
		case !reflect.DeepEqual(ta, tb):
			r.fail("tools.stable-list", "tool %q changed between two tools/list calls (no list_changed between): %s", clip(name, 60), firstDifference(ta, tb))
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			r.fail("tools.stable-list", "tool %q appeared in the second tools/list (no list_changed between)", clip(name, 60))
		}
	}
	r.pass("tools.stable-list")
}

// firstDifference names the first member two tool definitions differ in.
func firstDifference(a, b any) string {
	ma, _ := a.(map[string]any)
	mb, _ := b.(map[string]any)
	keys := make([]string, 0, len(ma)+len(mb))
	for k := range ma {
		keys = append(keys, k)
	}
	for k := range mb {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range slices.Compact(keys) {
		if !reflect.DeepEqual(ma[k], mb[k]) {
			x, _ := json.Marshal(ma[k])
			y, _ := json.Marshal(mb[k])
			return fmt.Sprintf("%s was %s, then %s", k, clip(string(x), 80), clip(string(y), 80))
		}
	}
	return "the definitions differ"
}

// modelInstructions are phrases of text written to steer a model rather
// than describe a tool.
var modelInstructions = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(ignore (all |any )?(previous|prior|above) instructions|disregard (all |any )?(previous|prior) instructions|do not (tell|inform|mention (this |it )?to) the user|override (the )?system prompt)\b|<important>`)
})

// hiddenRune names an invisible or direction-changing character.
func hiddenRune(c rune) string {
	switch {
	case c >= 0xE0000 && c <= 0xE007F:
		return "a Unicode tag character"
	case c == 0x200B || c == 0x200C || c == 0x200D || c == 0x2060 || c == 0xFEFF:
		return "a zero-width character"
	case c >= 0x202A && c <= 0x202E || c >= 0x2066 && c <= 0x2069 || c == 0x200E || c == 0x200F:
		return "a bidirectional control character"
	case unicode.Is(unicode.Co, c):
		return "a private-use character"
	}
	return ""
}

// hiddenInstructions scans a tool's name, title, description and its
// arguments' descriptions.
func (r *run) hiddenInstructions(t map[string]json.RawMessage) {
	name := str(t["name"])
	texts := map[string]string{"name": name, "title": str(t["title"]), "description": str(t["description"])}
	props := object(object(t["inputSchema"])["properties"])
	for p, v := range props {
		texts["argument "+p] = str(object(v)["description"])
	}
	for where, s := range texts {
		for _, c := range s {
			if h := hiddenRune(c); h != "" {
				r.fail("tools.hidden-instructions", "tool %q %s holds %s (U+%04X)", clip(name, 60), clip(where, 40), h, c)
				return
			}
		}
		if m := modelInstructions().FindString(s); m != "" {
			r.fail("tools.hidden-instructions", "tool %q %s says %q, an instruction to the model", clip(name, 60), clip(where, 40), clip(m, 60))
			return
		}
	}
	r.pass("tools.hidden-instructions")
}

// extraArgument is the argument no tool declares.
const extraArgument = "mcptui_check_undeclared"

// extraArguments calls the first callable tool (read-only, or any with
// --call-tools) with its derived arguments plus one it does not declare.
func (r *run) extraArguments(tools []map[string]json.RawMessage) {
	i := slices.IndexFunc(tools, func(t map[string]json.RawMessage) bool {
		return isObject(t["inputSchema"]) && (r.o.CallTools || readOnly(t))
	})
	if i < 0 {
		r.skip("tools.extra-arguments", "no tool is annotated readOnlyHint: true (pass --call-tools to call the others)")
		return
	}
	name := str(tools[i]["name"])
	var args map[string]any
	_ = json.Unmarshal(deriveArgs(tools[i]["inputSchema"], argsValid), &args)
	if args == nil {
		args = map[string]any{}
	}
	args[extraArgument] = "unexpected"
	_, e := r.request(mcp.MethodCallTool, map[string]any{"name": name, "arguments": args}, mcp.WithTimeout(r.o.Timeout))
	if e != nil && e.Code == codeDeclined {
		r.skip("tools.extra-arguments", "the call asked a question the check declined")
		return
	}
	if notAsked(e) {
		r.skip("tools.extra-arguments", describe(e))
		return
	}
	if transportGone(e) {
		r.fail("tools.extra-arguments", "tool %q called with the undeclared argument %q got %s", clip(name, 60), extraArgument, describe(e))
		return
	}
	pong, e := r.raw(mcp.MethodPing, map[string]any{})
	if notAsked(e) {
		r.skip("tools.extra-arguments", describe(e))
		return
	}
	r.judge("tools.extra-arguments", e == nil && isObject(pong), "after tool %q was called with an undeclared argument, ping got %s", clip(name, 60), describe(e))
}
