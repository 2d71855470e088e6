package check

import (
	"github.com/mcptui/mcptui/mcp"

	"github.com/mcptui/mcptui/internal/protocol"
)

// errors checks the JSON-RPC error codes: an unknown method and bad params.
func (r *run) errors() {
	// Notifications get no answer, not even an unknown one or a
	// cancellation naming no request (the linter judges any reply).
	if c, e := r.alive(); e == nil {
		c.Transport().Notify(r.ctx, "notifications/mcptui-check/unknown", map[string]any{})
		c.Transport().Notify(r.ctx, protocol.NotificationCancelled, map[string]any{"requestId": "mcptui-check-never-sent"})
	}
	_, e := r.raw("mcptui/no-such-method", r.params(nil))
	if !transportGone(e) {
		r.judge("errors.method-not-found", e != nil && e.Code == mcp.CodeMethodNotFound,
			"mcptui/no-such-method got %s (want -32601)", describe(e))
	}
	if r.cur().Session().Capabilities.Tools == nil {
		r.skip("errors.invalid-params", "the server declares no tools to send bad params to")
		return
	}
	_, e = r.raw(mcp.MethodCallTool, r.params(map[string]any{"name": 42, "arguments": "not an object"}))
	if !transportGone(e) {
		r.judge("errors.invalid-params", e != nil && e.Code == mcp.CodeInvalidParams,
			`tools/call with {"name":42,"arguments":"not an object"} got %s (want -32602)`, describe(e))
	}
}
