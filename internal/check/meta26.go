package check

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/mcp"

	"github.com/mcptui/mcptui/internal/protocol"
)

// metaFields sends server/discover with the required protocolVersion left
// out (alone, or the whole _meta: the request is malformed and must not be
// served), without the optional clientInfo and with a key of another
// vendor (both served). discover judges a missing clientCapabilities,
// which a 2026-07-28 server can always tell (strictly -32602).
func (r *run) metaFields() {
	caps := map[string]any{}
	info := map[string]any{"name": mcp.ClientName, "version": "check"}
	for _, c := range []struct {
		what string
		p    map[string]any
	}{
		{"params without _meta", map[string]any{}},
		{"_meta without protocolVersion", map[string]any{"_meta": map[string]any{mcp.MetaClientCapabilities: caps, mcp.MetaClientInfo: info}}},
	} {
		// Without a protocolVersion a dual-era server cannot tell the
		// request from an initialize-era one, where server/discover is an
		// unknown method: any error refuses it; a result does not.
		_, e := r.raw(mcp.MethodDiscover, c.p)
		if !transportGone(e) {
			r.judge("lifecycle.meta-required", e != nil,
				"server/discover with %s got a result (want error -32602)", c.what)
		}
	}
	noInfo := map[string]any{"_meta": map[string]any{mcp.MetaProtocolVersion: r.era, mcp.MetaClientCapabilities: caps}}
	if res, e := r.raw(mcp.MethodDiscover, noInfo); !transportGone(e) {
		r.judge("lifecycle.client-info-optional", e == nil, "server/discover without clientInfo got %s (want a result)", describe(e))
		if ins := object(res)["instructions"]; ins != nil && !isString(ins) {
			r.fail("lifecycle.discover", "instructions is %s, not a string", clip(string(ins), 80))
		}
	}
	vendor := meta(r.era)
	vendor["com.example.mcptui-check/probe"] = map[string]any{"any": "value"}
	if _, e := r.raw(mcp.MethodDiscover, map[string]any{"_meta": vendor}); !transportGone(e) {
		r.judge("lifecycle.meta-open", e == nil, `server/discover whose _meta also carries "com.example.mcptui-check/probe" got %s (want a result)`, describe(e))
	}
}

// removedMethods sends the methods 2026-07-28 removed, each with a full
// 2026-07-28 _meta: each is an unknown method.
func (r *run) removedMethods() {
	for _, c := range []struct {
		method string
		p      map[string]any
	}{
		{mcp.MethodPing, nil},
		{protocol.MethodSetLevel, map[string]any{"level": "info"}},
		{protocol.MethodSubscribe, map[string]any{"uri": "mcptui-check:///removed/subscribe"}},
	} {
		_, e := r.raw(c.method, r.params(c.p))
		if !transportGone(e) {
			r.judge("lifecycle.removed-methods", e != nil && e.Code == mcp.CodeMethodNotFound,
				"%s on a 2026-07-28 request got %s (want -32601)", c.method, describe(e))
		}
	}
}

// toolOrder lists the tools twice more: the same set must come in the
// same order.
func (r *run) toolOrder(first []map[string]json.RawMessage) {
	const rule = "tools.deterministic-order"
	second, e := r.list(mcp.MethodListTools, "tools", byName)
	if e != nil {
		r.skip(rule, "tools/list got "+describe(e))
		return
	}
	a, b := toolNames(first), toolNames(second)
	if !slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))) {
		r.skip(rule, "the set of tools changed between two lists")
		return
	}
	r.judge(rule, slices.Equal(a, b), "tools/list gave the same tools in another order: %s, then %s",
		clip(strings.Join(a, " "), 120), clip(strings.Join(b, " "), 120))
}

func toolNames(items []map[string]json.RawMessage) []string {
	var out []string
	for _, t := range items {
		out = append(out, str(t["name"]))
	}
	return out
}

// paramHeaders judges every listed tool's x-mcp-header annotations with
// the rules the HTTP client applies before it mirrors them (and the
// order of the list, which must not change while the set does not).
func (r *run) paramHeaders() {
	const rule = "tools.x-mcp-header"
	if r.cur().Session().Capabilities.Tools == nil {
		r.skip(rule, "the server declares no tools")
		r.skip("tools.deterministic-order", "the server declares no tools")
		return
	}
	items, e := r.list(mcp.MethodListTools, "tools", byName)
	if e != nil {
		r.skip(rule, "tools/list got "+describe(e))
		return
	}
	if r.wants("tools.deterministic-order") {
		r.toolOrder(items)
	}
	for _, t := range items {
		if !isObject(t["inputSchema"]) {
			continue // tools.list-shape says so
		}
		_, err := httpconn.ParamHeaders(json.RawMessage(t["inputSchema"]))
		if err != nil {
			r.fail(rule, "tool %q: %v", clip(str(t["name"]), 60), err)
			continue
		}
		r.pass(rule)
	}
}
