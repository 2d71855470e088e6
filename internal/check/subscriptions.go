package check

import (
	"context"
	"errors"

	"github.com/mcptui/mcptui/mcp"
)

// subscriptions opens a subscriptions/listen stream for what the server
// declares (2026-07-28) and closes it again: the acknowledgement must come
// first (the linter judges its tag and subset, and every change
// notification).
func (r *run) subscriptions() {
	if !mcp.Stateless(r.era) {
		return
	}
	caps := r.cur().Session().Capabilities
	var f mcp.Filter
	if caps.Tools != nil && caps.Tools.ListChanged {
		f.ToolsListChanged = true
	}
	if caps.Prompts != nil && caps.Prompts.ListChanged {
		f.PromptsListChanged = true
	}
	if caps.Resources != nil && caps.Resources.ListChanged {
		f.ResourcesListChanged = true
	}
	if !f.ToolsListChanged && !f.PromptsListChanged && !f.ResourcesListChanged {
		r.skip("subscriptions.acknowledged", "the server declares no listChanged to subscribe to")
		return
	}
	ctx, cancel := context.WithTimeout(r.ctx, r.o.Timeout)
	defer cancel()
	s, err := r.cur().Listen(ctx, f)
	var e *mcp.Error
	if errors.As(err, &e) && transportGone(e) {
		return
	}
	if err != nil {
		r.fail("subscriptions.acknowledged", "subscriptions/listen with the filter the capabilities allow got no acknowledgement: %v", err)
		return
	}
	r.pass("subscriptions.acknowledged")
	s.Close()
}
