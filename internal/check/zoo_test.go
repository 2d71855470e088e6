package check

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/mcptui/mcptui/demo"
	"github.com/mcptui/mcptui/internal/extdemo"
)

// The zoo: the demo server (which passes every rule) behind one mutation
// that breaks exactly one rule. The test binary re-executed with
// zooEnv=RULE is that server on stdio.

const zooEnv = "MCPTUI_CHECK_ZOO"

// msg is one JSON-RPC message, decoded.
type msg = map[string]any

// mutation breaks one rule of the demo.
type mutation struct {
	// era is the revision the rule is tested on.
	era string
	// start are lines written before anything else.
	start []string
	// in sees each client line before the demo does: pass=false keeps it
	// from the demo; replies are written to the client.
	in func(z *zoo, m msg) (pass bool, replies []msg)
	// out rewrites a demo line (req is the request a response answers);
	// it returns the lines to write instead.
	out func(z *zoo, m msg, req msg) []msg
	// callTools, noRoots, noURL adjust the check's options.
	callTools, noRoots, noURL bool
	// hang keeps the process alive after stdin EOF.
	hang bool
	// ext serves the extensions demo (skills and an App) instead of the
	// demo: the rules of io.modelcontextprotocol/skills and /ui.
	ext bool
}

// callTools are the tools each rule judged on tool calls is shown by.
var callTools = map[string][]string{
	"tools.call-result": {"echo"}, "tools.invalid-arguments": {"echo"}, "tools.embedded-resources-capability": {"echo"},
	"tools.structured-content-conforms": {"structured"}, "tools.structured-content-text": {"structured"}, "tools.structured-content-object": {"structured"},
	"content.base64": {"image"}, "content.mime-type": {"image"}, "content.annotations": {"image"},
	"progress.known-token": {"echo"}, "progress.increasing": {"progress"}, "progress.shape": {"progress"},
	"cancellation.no-response": {"slow"},
	"logging.level-respected":  {"log"}, "logging.valid-level": {"echo"}, "logging.request-scoped": {"echo"}, "logging.message-shape": {"echo"},
	"mrtr.declared-capabilities": {"elicit_form"}, "mrtr.request-state-integrity": {"elicit_form"}, "mrtr.not-empty": {"elicit_form"},
	"mrtr.request-kinds": {"elicit_form"}, "mrtr.missing-answers-reask": {"elicit_form"}, "mrtr.methods": {"echo"},
	"sampling.request-shape": {"sample"}, "sampling.tools-declared": {"sample"}, "sampling.include-context": {"sample"},
	"elicitation.request-shape": {"elicit_form"}, "elicitation.flat-schema": {"elicit_form"}, "elicitation.modes-declared": {"elicit_form"},
}

// onlyTools keeps the named tools in a tools/list result.
func onlyTools(res msg, names []string) {
	tools, _ := res["tools"].([]any)
	keep := []any{}
	for _, t := range tools {
		if n, _ := t.(msg)["name"].(string); slices.Contains(names, n) {
			keep = append(keep, t)
		}
	}
	res["tools"] = keep
}

// zoo is the running zoo server's state.
type zoo struct {
	mu       sync.Mutex
	requests map[string]msg // client requests by id
	state    string         // last requestState the demo issued
	sentLog  bool
	lists    int // tools/list requests without a cursor so far
}

func idOf(m msg) string { b, _ := json.Marshal(m["id"]); return string(b) }

func method(m msg) string { s, _ := m["method"].(string); return s }

func params(m msg) msg { p, _ := m["params"].(msg); return p }

func result(m msg) msg { r, _ := m["result"].(msg); return r }

func errorOf(m msg) msg { e, _ := m["error"].(msg); return e }

func response(id any, res any) msg { return msg{"jsonrpc": "2.0", "id": id, "result": res} }

func errResponse(id any, code int, text string) msg {
	return msg{"jsonrpc": "2.0", "id": id, "error": msg{"code": code, "message": text}}
}

// only applies f to responses of requests with this method.
func only(name string, f func(z *zoo, m msg, req msg) []msg) func(z *zoo, m msg, req msg) []msg {
	return func(z *zoo, m msg, req msg) []msg {
		if req == nil || method(req) != name {
			return []msg{m}
		}
		return f(z, m, req)
	}
}

// onResult applies f to the result of name's responses.
func onResult(name string, f func(res msg, req msg)) func(z *zoo, m msg, req msg) []msg {
	return only(name, func(z *zoo, m msg, req msg) []msg {
		if r := result(m); r != nil {
			f(r, req)
		}
		return []msg{m}
	})
}

// addTool appends a tool to every tools/list result.
func addTool(tool msg) func(z *zoo, m msg, req msg) []msg {
	return onResult("tools/list", func(res msg, _ msg) {
		tools, _ := res["tools"].([]any)
		res["tools"] = append(tools, tool)
	})
}

// answer intercepts requests for which f returns a reply.
func answer(f func(m msg) msg) func(z *zoo, m msg) (bool, []msg) {
	return func(z *zoo, m msg) (bool, []msg) {
		if r := f(m); r != nil {
			return false, []msg{r}
		}
		return true, nil
	}
}

const (
	e26 = "2026-07-28"
	e25 = "2025-11-25"
)

// zooMutations are the broken servers, by the rule each breaks.
var zooMutations = map[string]mutation{
	"transport.stdout-messages-only": {era: e26, start: []string{"zoo server starting up, hello!"}},
	"transport.one-message-per-line": {era: e26, start: []string{
		`{"jsonrpc":"2.0","method":"notifications/zoo","params":{}}{"jsonrpc":"2.0","method":"notifications/zoo","params":{}}`}},
	"transport.utf8":        {era: e26, start: []string{"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/zoo\",\"params\":{\"s\":\"\xff\xfe\"}}"}},
	"transport.no-batches":  {era: e26, start: []string{`[{"jsonrpc":"2.0","method":"notifications/zoo","params":{}}]`}},
	"transport.exit-on-eof": {era: e26, hang: true},
	"basic.jsonrpc-2":       {era: e26, start: []string{`{"jsonrpc":"1.0","method":"notifications/zoo","params":{}}`}},
	"basic.result-xor-error": {era: e26, out: onResult("tools/list", func(res msg, _ msg) {}), in: nil, start: []string{
		`{"jsonrpc":"2.0","id":424242,"result":{},"error":{"code":-32603,"message":"both"}}`}},
	"basic.response-id": {era: e26, start: []string{`{"jsonrpc":"2.0","id":99999,"result":{"resultType":"complete"}}`}},
	"basic.error-code-integer": {era: e26, out: func(z *zoo, m msg, req msg) []msg {
		if e := errorOf(m); e != nil {
			e["code"] = "oops"
		}
		return []msg{m}
	}},
	"basic.request-id": {era: e25, out: only("initialize", func(z *zoo, m msg, req msg) []msg {
		return []msg{m, {"jsonrpc": "2.0", "id": nil, "method": "ping"}}
	}), in: swallowZooResponses},
	"lifecycle.initialize-result": {era: e25, out: onResult("initialize", func(res msg, _ msg) { delete(res, "serverInfo") })},
	"lifecycle.version-echo": {era: e25, out: onResult("initialize", func(res msg, req msg) {
		if params(req)["protocolVersion"] == e25 {
			res["protocolVersion"] = "2025-06-18"
		}
	})},
	"lifecycle.unsupported-version": {era: e25, out: onResult("initialize", func(res msg, req msg) {
		res["protocolVersion"] = params(req)["protocolVersion"]
	})},
	"lifecycle.no-requests-before-initialized": {era: e25, out: only("initialize", func(z *zoo, m msg, req msg) []msg {
		return []msg{m, {"jsonrpc": "2.0", "id": "zoo-1", "method": "roots/list"}}
	}), in: swallowZooResponses},
	"lifecycle.ping": {era: e25, in: answer(func(m msg) msg {
		if method(m) == "ping" {
			return errResponse(m["id"], -32603, "no ping here")
		}
		return nil
	})},
	"lifecycle.discover":    {era: e26, out: onResult("server/discover", func(res msg, _ msg) { delete(res, "supportedVersions") })},
	"lifecycle.server-info": {era: e26, out: onResult("server/discover", func(res msg, _ msg) { delete(res, "_meta") })},
	"lifecycle.unsupported-version-32022": {era: e26, out: func(z *zoo, m msg, req msg) []msg {
		if e := errorOf(m); e != nil && e["code"] == float64(-32022) {
			e["code"] = -32600
		}
		return []msg{m}
	}},
	"lifecycle.meta-required": {era: e26, in: func(z *zoo, m msg) (bool, []msg) {
		if meta, ok := params(m)["_meta"].(msg); ok && meta["io.modelcontextprotocol/clientCapabilities"] == nil {
			meta["io.modelcontextprotocol/clientCapabilities"] = msg{}
		}
		return true, nil
	}},
	"lifecycle.stateless": {era: e26, out: onResult("tools/list", func(res msg, _ msg) {
		if tools, _ := res["tools"].([]any); len(tools) > 0 {
			tools[0].(msg)["description"] = fmt.Sprintf("served by process %d", os.Getpid())
		}
	})},
	"lifecycle.result-type":       {era: e26, out: onResult("tools/list", func(res msg, _ msg) { delete(res, "resultType") })},
	"lifecycle.cacheable-results": {era: e26, out: onResult("tools/list", func(res msg, _ msg) { delete(res, "ttlMs") })},
	"lifecycle.no-server-requests": {era: e26, start: []string{`{"jsonrpc":"2.0","id":"zoo-1","method":"roots/list"}`},
		in: swallowZooResponses},
	"capabilities.declared-methods": {era: e26, in: answer(func(m msg) msg {
		if method(m) == "completion/complete" {
			return errResponse(m["id"], -32601, "Method not found")
		}
		return nil
	})},
	"capabilities.undeclared-methods": {era: e25, out: onResult("initialize", func(res msg, _ msg) {
		delete(res["capabilities"].(msg), "logging")
	})},
	"capabilities.list-changed-declared": {era: e25, out: only("initialize", func(z *zoo, m msg, req msg) []msg {
		if caps, _ := result(m)["capabilities"].(msg); caps != nil {
			caps["tools"] = msg{}
		}
		return []msg{m, {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}}
	})},
	"capabilities.logging-declared": {era: e25, out: only("initialize", func(z *zoo, m msg, req msg) []msg {
		if caps, _ := result(m)["capabilities"].(msg); caps != nil {
			delete(caps, "logging")
		}
		return []msg{m, {"jsonrpc": "2.0", "method": "notifications/message", "params": msg{"level": "error", "data": "zoo"}}}
	})},
	"tools.list-shape": {era: e26, out: onResult("tools/list", func(res msg, _ msg) {
		if tools, _ := res["tools"].([]any); len(tools) > 0 {
			delete(tools[0].(msg), "inputSchema")
		}
	})},
	"tools.names":               {era: e26, out: addTool(msg{"name": "bad name!", "inputSchema": msg{"type": "object"}})},
	"tools.input-schema-object": {era: e26, out: addTool(msg{"name": "zoo", "inputSchema": msg{"type": "string"}})},
	"tools.input-schema-valid": {era: e26, out: addTool(msg{"name": "zoo", "inputSchema": msg{"type": "object",
		"properties": msg{"a": msg{"type": "nonsense"}}}})},
	"tools.output-schema-valid": {era: e26, out: addTool(msg{"name": "zoo", "inputSchema": msg{"type": "object"},
		"outputSchema": msg{"type": "object", "required": "a"}})},
	"tools.structured-content-conforms": {era: e26, out: onResult("tools/call", func(res msg, _ msg) {
		if res["structuredContent"] != nil {
			res["structuredContent"] = "not what the schema says"
		}
	})},
	"tools.structured-content-text": {era: e25, out: onResult("tools/call", func(res msg, _ msg) {
		if res["structuredContent"] != nil {
			res["content"] = []any{}
		}
	})},
	"tools.annotations": {era: e26, out: addTool(msg{"name": "zoo", "inputSchema": msg{"type": "object"},
		"annotations": msg{"destructiveHint": "yes"}})},
	"tools.call-result": {era: e26, out: onResult("tools/call", func(res msg, _ msg) {
		if res["content"] != nil {
			res["content"] = []any{msg{"type": "bogus"}}
		}
	})},
	"tools.unknown-tool": {era: e26, in: answer(func(m msg) msg {
		if method(m) == "tools/call" && params(m)["name"] == "mcptui-check-no-such-tool" {
			return response(m["id"], msg{"resultType": "complete", "content": []any{msg{"type": "text", "text": "no such tool"}}, "isError": true})
		}
		return nil
	})},
	"tools.invalid-arguments": {era: e26, callTools: true, out: func(z *zoo, m msg, req msg) []msg {
		if req != nil && method(req) == "tools/list" && result(m) != nil {
			hideUnsafeTools(result(m))
		}
		if req != nil && method(req) == "tools/call" && (errorOf(m) != nil && errorOf(m)["code"] == float64(-32602) || result(m)["isError"] == true) {
			return []msg{response(m["id"], msg{"resultType": "complete", "content": []any{msg{"type": "text", "text": "fine"}}})}
		}
		return []msg{m}
	}},
	"resources.list-shape": {era: e26, out: onResult("resources/list", func(res msg, _ msg) {
		if rs, _ := res["resources"].([]any); len(rs) > 0 {
			delete(rs[0].(msg), "name")
		}
	})},
	"resources.readable": {era: e26, in: answer(func(m msg) msg {
		if method(m) == "resources/read" && !strings.HasPrefix(fmt.Sprint(params(m)["uri"]), "mcptui-check:") {
			return errResponse(m["id"], -32603, "cannot read")
		}
		return nil
	})},
	"resources.read-shape": {era: e26, out: onResult("resources/read", func(res msg, _ msg) {
		if cs, _ := res["contents"].([]any); len(cs) > 0 {
			delete(cs[0].(msg), "uri")
		}
	})},
	"resources.templates": {era: e26, out: onResult("resources/templates/list", func(res msg, _ msg) {
		if ts, _ := res["resourceTemplates"].([]any); len(ts) > 0 {
			ts[0].(msg)["uriTemplate"] = "demo://{bad"
		}
	})},
	"resources.not-found-32002": {era: e25, out: readErrorsInternal},
	"resources.not-found-32602": {era: e26, out: readErrorsInternal},
	"prompts.list-shape": {era: e26, out: onResult("prompts/list", func(res msg, _ msg) {
		if ps, _ := res["prompts"].([]any); len(ps) > 0 {
			delete(ps[0].(msg), "name")
		}
	})},
	"prompts.get": {era: e26, out: onResult("prompts/get", func(res msg, _ msg) {
		if ms, _ := res["messages"].([]any); len(ms) > 0 {
			ms[0].(msg)["role"] = "system"
		}
	})},
	"prompts.missing-argument": {era: e26, out: only("prompts/get", func(z *zoo, m msg, req msg) []msg {
		if e := errorOf(m); e != nil && e["code"] == float64(-32602) {
			return []msg{response(m["id"], msg{"resultType": "complete", "messages": []any{}})}
		}
		return []msg{m}
	})},
	"pagination.cursors": {era: e26, out: onResult("tools/list", func(res msg, _ msg) {
		if tools, _ := res["tools"].([]any); len(tools) > 0 {
			res["tools"] = append([]any{tools[0]}, tools...)
		}
	})},
	"pagination.invalid-cursor": {era: e26, in: func(z *zoo, m msg) (bool, []msg) {
		if p := params(m); p != nil && p["cursor"] == "mcptui-check-invalid-cursor" {
			delete(p, "cursor")
		}
		return true, nil
	}},
	"errors.method-not-found": {era: e26, out: func(z *zoo, m msg, req msg) []msg {
		if e := errorOf(m); e != nil && e["code"] == float64(-32601) {
			e["code"] = -32603
		}
		return []msg{m}
	}},
	"errors.invalid-params": {era: e26, in: answer(func(m msg) msg {
		if _, ok := params(m)["name"].(string); method(m) == "tools/call" && !ok {
			return errResponse(m["id"], -32603, "internal")
		}
		return nil
	})},
	"errors.error-shape": {era: e26, out: func(z *zoo, m msg, req msg) []msg {
		if e := errorOf(m); e != nil {
			delete(e, "message")
		}
		return []msg{m}
	}},
	"progress.known-token": {era: e26, start: []string{`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"zoo-unknown","progress":1}}`}},
	"progress.increasing": {era: e26, out: func(z *zoo, m msg, req msg) []msg {
		if method(m) == "notifications/progress" {
			params(m)["progress"] = 1
		}
		return []msg{m}
	}},
	"cancellation.no-response": {era: e26, in: func(z *zoo, m msg) (bool, []msg) {
		if method(m) == "notifications/cancelled" {
			// Two answers: the first may have crossed the cancel; the
			// second cannot have.
			r := response(params(m)["requestId"], msg{"resultType": "complete", "content": []any{}})
			return false, []msg{r, r}
		}
		return true, nil
	}},
	"logging.set-level": {era: e25, in: answer(func(m msg) msg {
		if method(m) == "logging/setLevel" && params(m)["level"] == "warning" {
			return errResponse(m["id"], -32603, "no")
		}
		return nil
	})},
	"logging.invalid-level": {era: e25, in: answer(func(m msg) msg {
		if method(m) == "logging/setLevel" && params(m)["level"] == "nonsense" {
			return response(m["id"], msg{})
		}
		return nil
	})},
	"logging.level-respected": {era: e25, in: func(z *zoo, m msg) (bool, []msg) {
		if method(m) == "logging/setLevel" && params(m)["level"] == "warning" {
			return true, []msg{{"jsonrpc": "2.0", "method": "notifications/message", "params": msg{"level": "debug", "data": "zoo"}}}
		}
		return true, nil
	}},
	"logging.valid-level": {era: e26, start: []string{`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"verbose","data":"zoo"}}`}},
	"logging.request-scoped": {era: e26, in: func(z *zoo, m msg) (bool, []msg) {
		z.mu.Lock()
		defer z.mu.Unlock()
		if m["id"] != nil && !z.sentLog {
			z.sentLog = true
			return true, []msg{{"jsonrpc": "2.0", "method": "notifications/message", "params": msg{"level": "info", "data": "zoo"}}}
		}
		return true, nil
	}},
	"completion.shape": {era: e26, out: onResult("completion/complete", func(res msg, _ msg) {
		if c, _ := res["completion"].(msg); c != nil {
			c["values"] = "not a list"
		}
	})},
	"mrtr.declared-capabilities": {era: e26, noRoots: true, out: onResult("tools/call", func(res msg, _ msg) {
		if reqs, _ := res["inputRequests"].(msg); reqs != nil {
			reqs["zoo"] = msg{"method": "roots/list"}
		}
	})},
	"mrtr.request-state-integrity": {era: e26, out: onResult("tools/call", func(res msg, _ msg) {}), in: nil},

	// The rules added toward every MUST and SHOULD.
	"basic.result-object": {era: e26, out: only("prompts/list", func(z *zoo, m msg, req msg) []msg {
		if m["result"] != nil {
			m["result"] = []any{"not", "an", "object"}
		}
		return []msg{m}
	})},
	"basic.no-response-to-notification": {era: e26, in: func(z *zoo, m msg) (bool, []msg) {
		if m["id"] == nil && m["method"] != nil {
			return true, []msg{{"jsonrpc": "2.0", "id": nil, "error": msg{"code": -32601, "message": "Method not found"}}}
		}
		return true, nil
	}},
	"basic.meta-key-names": {era: e26, out: onResult("tools/list", func(res msg, _ msg) {
		meta, _ := res["_meta"].(msg)
		if meta == nil {
			meta = msg{}
			res["_meta"] = meta
		}
		meta["-zoo-/key!"] = 1
	})},
	"basic.icons": {era: e26, out: addTool(msg{"name": "zoo", "inputSchema": msg{"type": "object"},
		"icons": []any{msg{"src": "javascript:alert(1)"}}})},
	"lifecycle.latest-version": {era: e25, out: onResult("initialize", func(res msg, req msg) {
		if params(req)["protocolVersion"] == "1999-01-01" {
			res["protocolVersion"] = "2025-06-18"
		}
	})},
	"lifecycle.initialize-names-versions": {era: e26, in: answer(func(m msg) msg {
		if method(m) == "initialize" {
			return errResponse(m["id"], -32600, "initialize is not supported")
		}
		return nil
	})},
	"capabilities.shape": {era: e25, out: onResult("initialize", func(res msg, _ msg) {
		res["capabilities"].(msg)["logging"] = true
	})},
	"tools.output-schema-object": {era: e25, out: addTool(msg{"name": "zoo", "inputSchema": msg{"type": "object"},
		"outputSchema": msg{"type": "array"}})},
	"tools.structured-content-object": {era: e25, out: onResult("tools/call", func(res msg, _ msg) {
		if res["structuredContent"] != nil {
			res["structuredContent"] = []any{1, 2}
		}
	})},
	"tools.execution": {era: e25, out: addTool(msg{"name": "zoo", "inputSchema": msg{"type": "object"},
		"execution": msg{"taskSupport": "sometimes"}})},
	"tools.embedded-resources-capability": {era: e25, out: func(z *zoo, m msg, req msg) []msg {
		switch {
		case req != nil && method(req) == "initialize" && result(m) != nil:
			delete(result(m)["capabilities"].(msg), "resources")
		case req != nil && method(req) == "tools/call" && result(m) != nil:
			content, _ := result(m)["content"].([]any)
			result(m)["content"] = append(content, msg{"type": "resource", "resource": msg{"uri": "demo://zoo", "text": "zoo"}})
		}
		return []msg{m}
	}},
	"content.base64":      {era: e26, out: onContent("image", func(c msg) { c["data"] = "not base64!" })},
	"content.mime-type":   {era: e26, out: onContent("image", func(c msg) { c["mimeType"] = "png" })},
	"content.annotations": {era: e26, out: onContent("", func(c msg) { c["annotations"] = msg{"priority": 5} })},
	"resources.template-shape": {era: e26, out: onResult("resources/templates/list", func(res msg, _ msg) {
		if ts, _ := res["resourceTemplates"].([]any); len(ts) > 0 {
			delete(ts[0].(msg), "name")
		}
	})},
	"resources.uri": {era: e26, out: onResult("resources/list", func(res msg, _ msg) {
		if rs, _ := res["resources"].([]any); len(rs) > 0 {
			rs[0].(msg)["uri"] = "notes/1"
		}
	})},
	"resources.subscribe": {era: e25, in: answer(func(m msg) msg {
		if method(m) == "resources/subscribe" {
			return errResponse(m["id"], -32601, "Method not found")
		}
		return nil
	})},
	"prompts.unknown-prompt": {era: e26, in: answer(func(m msg) msg {
		if method(m) == "prompts/get" && params(m)["name"] == "mcptui-check-no-such-prompt" {
			return response(m["id"], msg{"resultType": "complete", "messages": []any{}})
		}
		return nil
	})},
	"completion.unknown-prompt": {era: e26, in: answer(func(m msg) msg {
		if ref, _ := params(m)["ref"].(msg); method(m) == "completion/complete" && ref["name"] == "mcptui-check-no-such-prompt" {
			return response(m["id"], msg{"resultType": "complete", "completion": msg{"values": []any{}}})
		}
		return nil
	})},
	"progress.shape": {era: e26, out: func(z *zoo, m msg, req msg) []msg {
		if method(m) == "notifications/progress" {
			params(m)["progress"] = "50%"
		}
		return []msg{m}
	}},
	"cancellation.server-cancel-listen-only": {era: e26, in: once(msg{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": msg{"requestId": 123456}})},
	"logging.message-shape":                  {era: e25, in: once(msg{"jsonrpc": "2.0", "method": "notifications/message", "params": msg{"level": "error"}})},
	"logging.invalid-level-meta": {era: e26, in: func(z *zoo, m msg) (bool, []msg) {
		if meta, _ := params(m)["_meta"].(msg); meta != nil && meta["io.modelcontextprotocol/logLevel"] == "nonsense" {
			delete(meta, "io.modelcontextprotocol/logLevel")
		}
		return true, nil
	}},
	"subscriptions.acknowledged": {era: e26, out: onAck(func(ack msg, id any) []msg {
		return []msg{changed(id), ack}
	})},
	"subscriptions.requested-only": {era: e26, out: onAck(func(ack msg, id any) []msg {
		params(ack)["notifications"].(msg)["resourceSubscriptions"] = []any{"demo://zoo"}
		return []msg{ack}
	})},
	"subscriptions.tagged": {era: e26, out: onAck(func(ack msg, id any) []msg {
		return []msg{ack, {"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": msg{}}}
	})},
	"basic.display-fields": {era: e26, out: addTool(msg{"name": "zoo", "inputSchema": msg{"type": "object"}, "description": 42})},
	"capabilities.client-declared": {era: e25, noRoots: true, in: func(z *zoo, m msg) (bool, []msg) {
		if method(m) == "notifications/initialized" {
			return true, []msg{{"jsonrpc": "2.0", "id": "zoo-1", "method": "roots/list"}}
		}
		return swallowZooResponses(z, m)
	}},
	"errors.missing-capability-data": {era: e26, out: only("mcptui/no-such-method", func(z *zoo, m msg, req msg) []msg {
		return []msg{errResponse(m["id"], -32021, "missing capability")}
	})},
	"logging.not-on-subscription": {era: e26, out: onAck(func(ack msg, id any) []msg {
		return []msg{ack, {"jsonrpc": "2.0", "method": "notifications/message",
			"params": msg{"level": "error", "data": "zoo", "_meta": msg{"io.modelcontextprotocol/subscriptionId": id}}}}
	})},
	"sampling.request-shape":    {era: e25, out: onQuestion("sampling/createMessage", func(p msg) { delete(p, "maxTokens") })},
	"sampling.tools-declared":   {era: e25, out: onQuestion("sampling/createMessage", func(p msg) { p["tools"] = []any{msg{"name": "zoo", "inputSchema": msg{"type": "object"}}} })},
	"sampling.include-context":  {era: e25, out: onQuestion("sampling/createMessage", func(p msg) { p["includeContext"] = "allServers" })},
	"elicitation.request-shape": {era: e25, out: onQuestion("elicitation/create", func(p msg) { delete(p, "message") })},
	"elicitation.flat-schema": {era: e25, out: onQuestion("elicitation/create", func(p msg) {
		if s, _ := p["requestedSchema"].(msg); s != nil {
			if props, _ := s["properties"].(msg); props != nil {
				props["zoo"] = msg{"type": "object", "properties": msg{"deep": msg{"type": "string"}}}
			}
		}
	})},
	"elicitation.modes-declared": {era: e25, noURL: true, out: onQuestion("elicitation/create", func(p msg) {
		p["mode"], p["url"], p["elicitationId"] = "url", "https://example.com/zoo", "zoo"
		delete(p, "requestedSchema")
	})},
	"mrtr.missing-answers-reask": {era: e26, out: only("tools/call", func(z *zoo, m msg, req msg) []msg {
		if ir, ok := params(req)["inputResponses"].(msg); ok && len(ir) == 0 {
			return []msg{errResponse(m["id"], -32602, "answers missing")}
		}
		return []msg{m}
	})},
	"mrtr.methods": {era: e26, out: onResult("prompts/list", func(res msg, _ msg) {
		res["resultType"] = "input_required"
		res["requestState"] = "zoo"
	})},
	"mrtr.not-empty": {era: e26, out: onResult("tools/call", func(res msg, _ msg) {
		if res["resultType"] == "input_required" {
			delete(res, "inputRequests")
			delete(res, "requestState")
		}
	})},
	"mrtr.request-kinds": {era: e26, out: onResult("tools/call", func(res msg, _ msg) {
		if reqs, _ := res["inputRequests"].(msg); reqs != nil {
			reqs["zoo"] = msg{"method": "tools/list"}
		}
	})},
}

// onQuestion applies f to the params of the demo's requests (questions
// to the client) of this method.
func onQuestion(name string, f func(p msg)) func(z *zoo, m msg, req msg) []msg {
	return func(z *zoo, m msg, req msg) []msg {
		if method(m) == name && m["id"] != nil && params(m) != nil {
			f(params(m))
		}
		return []msg{m}
	}
}

// onContent applies f to the content items of type typ ("" any) of every
// tools/call result.
func onContent(typ string, f func(c msg)) func(z *zoo, m msg, req msg) []msg {
	return onResult("tools/call", func(res msg, _ msg) {
		content, _ := res["content"].([]any)
		for _, c := range content {
			if c, _ := c.(msg); c != nil && (typ == "" || c["type"] == typ) {
				f(c)
			}
		}
	})
}

// once writes n after the client's first request (as the server's answer
// to something the client sent, so that the linter knows the era).
func once(n msg) func(z *zoo, m msg) (bool, []msg) {
	return func(z *zoo, m msg) (bool, []msg) {
		z.mu.Lock()
		defer z.mu.Unlock()
		if m["id"] != nil && !z.sentLog {
			z.sentLog = true
			return true, []msg{n}
		}
		return true, nil
	}
}

// onAck rewrites the demo's subscription acknowledgements; id is the
// subscription's.
func onAck(f func(ack msg, id any) []msg) func(z *zoo, m msg, req msg) []msg {
	return func(z *zoo, m msg, req msg) []msg {
		if method(m) != "notifications/subscriptions/acknowledged" {
			return []msg{m}
		}
		meta, _ := params(m)["_meta"].(msg)
		return f(m, meta["io.modelcontextprotocol/subscriptionId"])
	}
}

// changed is a tools/list_changed on subscription id.
func changed(id any) msg {
	return msg{"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
		"params": msg{"_meta": msg{"io.modelcontextprotocol/subscriptionId": id}}}
}

func init() {
	// The state-integrity zoo undoes the check's tampering: it puts back the
	// last requestState the demo issued, so a forged state is "accepted".
	m := zooMutations["mrtr.request-state-integrity"]
	m.out = func(z *zoo, msg_ msg, req msg) []msg {
		if s, ok := result(msg_)["requestState"].(string); ok {
			z.mu.Lock()
			z.state = s
			z.mu.Unlock()
		}
		return []msg{msg_}
	}
	m.in = func(z *zoo, m msg) (bool, []msg) {
		if p := params(m); p != nil && p["requestState"] != nil {
			z.mu.Lock()
			p["requestState"] = z.state
			z.mu.Unlock()
		}
		return true, nil
	}
	zooMutations["mrtr.request-state-integrity"] = m
}

// readErrorsInternal turns resources/read errors into -32603.
var readErrorsInternal = only("resources/read", func(z *zoo, m msg, req msg) []msg {
	if e := errorOf(m); e != nil {
		e["code"] = -32603
	}
	return []msg{m}
})

// swallowZooResponses keeps the client's answers to the zoo's own
// requests (ids "zoo-…", or null) from the demo, which never asked.
func swallowZooResponses(z *zoo, m msg) (bool, []msg) {
	if m["method"] == nil {
		if id, _ := m["id"].(string); strings.HasPrefix(id, "zoo-") || m["id"] == nil {
			return false, nil
		}
	}
	return true, nil
}

// hideUnsafeTools drops the tools not annotated readOnlyHint (exit, …)
// from a tools/list result, for mutations checked with callTools.
func hideUnsafeTools(res msg) {
	tools, _ := res["tools"].([]any)
	var keep []any
	for _, t := range tools {
		if a, _ := t.(msg)["annotations"].(msg); a != nil && a["readOnlyHint"] == true {
			keep = append(keep, t)
		}
	}
	res["tools"] = keep
}

// runZoo serves the demo with the mutation of rule on stdio.
func runZoo(rule string) {
	mu, ok := zooMutations[rule]
	if rule == extDemo {
		mu, ok = mutation{ext: true}, true
	}
	if !ok && rule != "demo" {
		fmt.Fprintf(os.Stderr, "zoo: no mutation for %s\n", rule)
		os.Exit(2)
	}
	if names := callTools[rule]; names != nil && mu.out == nil {
		mu.out = func(z *zoo, m msg, req msg) []msg { return []msg{m} }
	}
	if names := callTools[rule]; names != nil {
		inner := mu.out
		mu.out = func(z *zoo, m msg, req msg) []msg {
			if req != nil && method(req) == "tools/list" && result(m) != nil {
				onlyTools(result(m), names)
			}
			return inner(z, m, req)
		}
	}
	z := &zoo{requests: map[string]msg{}}
	var wmu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	write := func(line []byte) {
		wmu.Lock()
		defer wmu.Unlock()
		out.Write(line)
		out.WriteByte('\n')
		out.Flush()
	}
	writeMsg := func(m msg) {
		b, _ := json.Marshal(m)
		write(b)
	}
	for _, s := range mu.start {
		write([]byte(s))
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		if mu.ext {
			_ = extdemo.Serve(context.Background(), extdemo.Good, inR, outW)
		} else {
			demo.Serve(context.Background(), inR, outW, io.Discard)
		}
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			line := sc.Bytes()
			var m msg
			if mu.out == nil || json.Unmarshal(line, &m) != nil {
				write(bytes.Clone(line))
				continue
			}
			var req msg
			if m["method"] == nil {
				z.mu.Lock()
				req = z.requests[idOf(m)]
				z.mu.Unlock()
			}
			for _, o := range mu.out(z, m, req) {
				writeMsg(o)
			}
		}
	}()
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := bytes.Clone(sc.Bytes())
		var m msg
		if json.Unmarshal(line, &m) != nil {
			inW.Write(append(line, '\n'))
			continue
		}
		if m["method"] != nil && m["id"] != nil {
			z.mu.Lock()
			z.requests[idOf(m)] = m
			z.mu.Unlock()
		}
		pass, replies := true, []msg(nil)
		if mu.in != nil {
			pass, replies = mu.in(z, m)
		}
		if pass {
			b, _ := json.Marshal(m)
			inW.Write(append(b, '\n'))
		}
		for _, r := range replies {
			writeMsg(r)
		}
	}
	inW.Close()
	<-done
	if mu.hang {
		select {}
	}
}
