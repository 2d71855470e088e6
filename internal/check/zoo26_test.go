package check

import (
	"slices"
	"strings"
	"testing"
)

// The broken servers of the rules that begin at 2026-07-28 (table26).

// aTask is a CreateTaskResult.
func aTask() msg {
	return msg{"resultType": "task", "taskId": "zoo-task", "status": "working",
		"createdAt": "2026-07-28T10:00:00Z", "lastUpdatedAt": "2026-07-28T10:00:00Z", "ttlMs": 60000}
}

// declareTasks adds the tasks extension to server/discover's capabilities.
var declareTasks = onResult("server/discover", func(res msg, _ msg) {
	caps, _ := res["capabilities"].(msg)
	if caps != nil {
		caps["extensions"] = msg{"io.modelcontextprotocol/tasks": msg{}}
	}
})

// metaOf is a request's _meta.
func metaOf(m msg) msg { meta, _ := params(m)["_meta"].(msg); return meta }

// withCode rewrites the code of every error from one to another.
func withCode(from, to int) func(z *zoo, m msg, req msg) []msg {
	return func(z *zoo, m msg, req msg) []msg {
		if e := errorOf(m); e != nil && e["code"] == float64(from) {
			e["code"] = to
		}
		return []msg{m}
	}
}

func init() {
	for id, mu := range map[string]mutation{
		// "0042" reaches the demo as the number 42, and is answered so.
		"basic.string-id": {era: e26, in: func(z *zoo, m msg) (bool, []msg) {
			if m["id"] == "0042" {
				m["id"] = 42
			}
			return true, nil
		}},
		"errors.parse-error":     {era: e26, out: withCode(-32700, -32603)},
		"errors.invalid-request": {era: e26, out: withCode(-32600, -32601)},
		// The batch's refusal becomes the answer to its first element.
		"transport.batch-refused": {era: e26, out: func(z *zoo, m msg, req msg) []msg {
			if e := errorOf(m); e != nil && strings.Contains(e["message"].(string), "batches") {
				return []msg{response("mcptui-check-batch-1", msg{"resultType": "complete"})}
			}
			return []msg{m}
		}},
		"errors.retired-codes":  {era: e26, out: only("resources/read", withCode(-32602, -32002))},
		"errors.reserved-range": {era: e26, out: withCode(-32601, -32050)},
		"lifecycle.client-info-optional": {era: e26, in: answer(func(m msg) msg {
			if meta := metaOf(m); meta != nil && meta["io.modelcontextprotocol/protocolVersion"] != nil && meta["io.modelcontextprotocol/clientInfo"] == nil {
				return errResponse(m["id"], -32602, "clientInfo is required here")
			}
			return nil
		})},
		"lifecycle.meta-open": {era: e26, in: answer(func(m msg) msg {
			for k := range metaOf(m) {
				if !strings.HasPrefix(k, "io.modelcontextprotocol/") && k != "progressToken" {
					return errResponse(m["id"], -32602, "unknown _meta key "+k)
				}
			}
			return nil
		})},
		"lifecycle.removed-methods": {era: e26, in: answer(func(m msg) msg {
			if method(m) == "ping" && metaOf(m) != nil {
				return response(m["id"], msg{"resultType": "complete"})
			}
			return nil
		})},
		"tools.x-mcp-header": {era: e26, out: addTool(msg{"name": "zoo", "inputSchema": msg{"type": "object",
			"properties": msg{"ratio": msg{"type": "number", "x-mcp-header": "Ratio"}}}})},
		// Every other tools/list (each of its pages) comes reversed.
		"tools.deterministic-order": {era: e26, out: only("tools/list", func(z *zoo, m msg, req msg) []msg {
			z.mu.Lock()
			if params(req)["cursor"] == nil {
				z.lists++
			}
			odd := z.lists%2 == 1
			z.mu.Unlock()
			if tools, _ := result(m)["tools"].([]any); odd {
				slices.Reverse(tools)
			}
			return []msg{m}
		})},
		// A resources/read answered with a task the client never declared.
		"tasks.declared-only": {era: e26, out: onResult("resources/read", func(res msg, _ msg) {
			for k := range res {
				delete(res, k)
			}
			for k, v := range aTask() {
				res[k] = v
			}
		})},
		// A task answering prompts/get, which cannot be task-augmented.
		"tasks.create-result": {era: e26, out: onResult("prompts/get", func(res msg, _ msg) {
			for k := range res {
				delete(res, k)
			}
			for k, v := range aTask() {
				res[k] = v
			}
		})},
		// A completed task without its result.
		"tasks.get-result": {era: e26, out: declareTasks, in: answer(func(m msg) msg {
			if method(m) == "tasks/get" {
				t := aTask()
				t["resultType"], t["status"] = "complete", "completed"
				return response(m["id"], t)
			}
			return nil
		})},
		// Declares the extension; the demo answers tasks/get -32601.
		"tasks.undeclared-client": {era: e26, out: declareTasks},
		"tasks.unknown-task": {era: e26, out: declareTasks, in: answer(func(m msg) msg {
			if method(m) == "tasks/get" {
				return errResponse(m["id"], -32021, "tasks need the extension")
			}
			return nil
		})},
	} {
		zooMutations[id] = mu
	}
	// The demo does not implement the tasks extension: these are judged
	// only on servers that declare it (the zoo's).
	for _, id := range []string{"tasks.get-result", "tasks.undeclared-client", "tasks.unknown-task"} {
		demoDeclaresAll[id] = true
	}
}

// outOfOrder is a server that answers requests in any order, as JSON-RPC
// allows: it holds the answer to "0042" until the next request's has gone.
const outOfOrder = "passes:answers-out-of-order"

func init() {
	// Each connection is a zoo process of its own. The answer to "0042" is
	// held until another request's result goes out; when the demo, busy,
	// answers "0042" only after that result went (nothing would release
	// it: failed beside two CPU burners), it goes out at once, still after
	// the other.
	var (
		held     msg
		overtook bool
	)
	zooMutations[outOfOrder] = mutation{era: e26, out: func(z *zoo, m msg, req msg) []msg {
		z.mu.Lock()
		defer z.mu.Unlock()
		if m["id"] == "0042" {
			if overtook {
				return []msg{m}
			}
			held = m
			return nil
		}
		if held != nil && m["result"] != nil {
			h := held
			held = nil
			return []msg{m, h}
		}
		if _, asked := z.requests[`"0042"`]; asked && m["result"] != nil {
			overtook = true
		}
		return []msg{m}
	}}
}

// TestStringIDOnAServerAnsweringOutOfOrder: basic.string-id judges the
// answer to "0042" whenever it comes (within the timeout), not only if it
// comes before the next request's: the demo, answering concurrently, failed
// it once under load ("got no answer before the next request's").
func TestStringIDOnAServerAnsweringOutOfOrder(t *testing.T) {
	t.Parallel()
	o := zooOptions(outOfOrder, e26)
	o.Rules = []string{"basic.string-id"}
	e := runCheck(t, o)
	judged := false
	for _, res := range e.Results {
		if res.ID == "basic.string-id" {
			judged = true
			if res.Status != Passed {
				t.Fatalf("basic.string-id on a server answering out of order: %v %v %s", res.Status, res.Seen, res.Why)
			}
		}
	}
	if !judged {
		t.Fatalf("basic.string-id was not judged: %+v", e.Results)
	}
}

// batchParseError refuses a batch as mcp-go does: one error, id null, but
// -32700 (the array is no message it can parse) rather than -32600.
const batchParseError = "passes:batch-refused-with-32700"

func init() {
	zooMutations[batchParseError] = mutation{era: e26, out: withCode(-32600, -32700)}
}

// A batch refused whole with one error is refused, whatever the error's
// code: mcp-go's -32700 is no finding.
func TestBatchRefusedWithAnyOneError(t *testing.T) {
	t.Parallel()
	o := zooOptions(batchParseError, e26)
	o.Rules = []string{"transport.batch-refused"}
	e := runCheck(t, o)
	res := resultOf(e, "transport.batch-refused")
	if res == nil || res.Status != Passed {
		t.Fatalf("transport.batch-refused on a server refusing with -32700: %+v", res)
	}
}
