package lint

import (
	"encoding/json"
	"slices"

	"github.com/mcptui/mcptui/internal/protocol"
)

// The 2026-07-28 traffic rules added beside the first ones: the error-code
// ranges, and the tasks extension (io.modelcontextprotocol/tasks).

// tasksExtension names the tasks extension in capabilities.
const tasksExtension = "io.modelcontextprotocol/tasks"

// taskStatuses are a Task's statuses.
var taskStatuses = []string{"working", "input_required", "completed", "cancelled", "failed"}

// errorCode26 judges an error's code against the 2026-07-28 ranges.
func (j *judge) errorCode26(code json.RawMessage, v string) {
	if !protocol.Stateless(v) {
		return
	}
	var n int
	if json.Unmarshal(code, &n) != nil {
		return // basic.error-code-integer said so
	}
	switch {
	case n == -32002 || n == -32042:
		j.fail("errors.retired-codes", v, "error code %d, which 2026-07-28 retired", n)
	case n <= -32020 && n >= -32099 && n != -32020 && n != -32021 && n != -32022:
		j.fail("errors.reserved-range", v, "error code %d, in the range the specification reserves and does not define", n)
	}
}

// declaresTasks reports whether a request's clientCapabilities declare the
// tasks extension.
func declaresTasks(caps json.RawMessage) bool {
	return members(members(caps)["extensions"])[tasksExtension] != nil
}

// createdTask judges a result of resultType "task" (a CreateTaskResult).
func (j *judge) createdTask(r *request, res json.RawMessage, v string) {
	if !declaresTasks(r.caps) {
		j.fail("tasks.declared-only", v, "the %s result is a task, and the request did not declare the tasks extension", r.method)
	}
	if r.method != protocol.MethodCallTool {
		j.fail("tasks.create-result", v, "a task answered %s (only tools/call may be answered with one)", r.method)
		return
	}
	if why := taskShape(members(res)); why != "" {
		j.fail("tasks.create-result", v, "the task created for tools/call %s", why)
	}
}

// taskGot judges a tasks/get result.
func (j *judge) taskGot(res json.RawMessage, v string) {
	m := members(res)
	if m == nil {
		return // basic.result-object said so
	}
	var resultType string
	_ = json.Unmarshal(m["resultType"], &resultType)
	if resultType != "complete" {
		j.fail("tasks.get-result", v, "the tasks/get result has resultType %s (want \"complete\")", clip(orAbsent(m["resultType"])))
		return
	}
	if why := taskShape(m); why != "" {
		j.fail("tasks.get-result", v, "the task tasks/get returned %s", why)
		return
	}
	var status string
	_ = json.Unmarshal(m["status"], &status)
	need := map[string]string{"input_required": "inputRequests", "completed": "result", "failed": "error"}[status]
	if need != "" && members(m[need]) == nil {
		j.fail("tasks.get-result", v, "a %s task without its %s object", status, need)
	}
}

// taskShape says what is wrong with a Task's members ("" when nothing).
func taskShape(m map[string]json.RawMessage) string {
	var status string
	switch {
	case m == nil:
		return "is not an object"
	case !isString(m["taskId"]):
		return "has taskId " + clip(orAbsent(m["taskId"])) + " (want a string)"
	case json.Unmarshal(m["status"], &status) != nil || !slices.Contains(taskStatuses, status):
		return "has status " + clip(orAbsent(m["status"]))
	case !isString(m["createdAt"]) || !isString(m["lastUpdatedAt"]):
		return "lacks createdAt or lastUpdatedAt strings"
	case m["ttlMs"] == nil || string(m["ttlMs"]) != "null" && !isInteger(m["ttlMs"]):
		return "has ttlMs " + clip(orAbsent(m["ttlMs"])) + " (want an integer or null)"
	}
	return ""
}

func orAbsent(raw json.RawMessage) []byte {
	if raw == nil {
		return []byte("absent")
	}
	return raw
}
