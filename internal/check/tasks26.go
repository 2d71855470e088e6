package check

import (
	"github.com/mcptui/mcptui/mcp"

	"github.com/mcptui/mcptui/internal/protocol"
)

// tasksExtension names the tasks extension in capabilities.
const tasksExtension = "io.modelcontextprotocol/tasks"

// tasks probes the tasks extension's protocol errors where the server
// declares it: tasks/get from a client that did not declare the
// extension (-32021), and for a task that does not exist (-32602). Task
// results themselves are judged from the traffic (tasks.declared-only,
// tasks.create-result, tasks.get-result).
func (r *run) tasks() {
	res, e := r.raw(mcp.MethodDiscover, r.params(nil))
	if e != nil {
		r.skip("tasks.undeclared-client", "server/discover got "+describe(e))
		r.skip("tasks.unknown-task", "server/discover got "+describe(e))
		return
	}
	if object(object(object(res)["capabilities"])["extensions"])[tasksExtension] == nil {
		const why = "the server does not declare the " + tasksExtension + " extension"
		r.skip("tasks.undeclared-client", why)
		r.skip("tasks.unknown-task", why)
		return
	}
	const task = "mcptui-check-no-such-task"
	_, e = r.raw(protocol.MethodTasksGet, r.params(map[string]any{"taskId": task}))
	if !transportGone(e) {
		r.judge("tasks.undeclared-client", e != nil && e.Code == -32021,
			"tasks/get from a client that did not declare the extension got %s (want -32021)", describe(e))
	}
	m := meta(r.era)
	m[mcp.MetaClientCapabilities] = map[string]any{"extensions": map[string]any{tasksExtension: map[string]any{}}}
	_, e = r.raw(protocol.MethodTasksGet, map[string]any{"taskId": task, "_meta": m})
	if !transportGone(e) {
		r.judge("tasks.unknown-task", e != nil && e.Code == mcp.CodeInvalidParams,
			"tasks/get for a task that does not exist got %s data %s (want -32602)", describe(e), dataOf(e))
	}
}
