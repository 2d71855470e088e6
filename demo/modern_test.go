package demo

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image/png"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The tests in this file drive the demo over protocol 2026-07-28 with
// hand-written JSON-RPC lines: no initialize, _meta on every request, and
// input_required results instead of server-to-client requests.

func TestModernDiscover(t *testing.T) {
	t.Parallel()
	c := startRaw(t)
	res := c.call("server/discover", map[string]any{"_meta": meta(nil)})
	if res["resultType"] != "complete" {
		t.Errorf("resultType = %v", res["resultType"])
	}
	versions, _ := res["supportedVersions"].([]any)
	for _, v := range []string{"2026-07-28", "2025-11-25", "2025-06-18"} {
		if !slices.Contains(versions, any(v)) {
			t.Errorf("supportedVersions %v lacks %s", versions, v)
		}
	}
	for _, cap := range [][]string{{"tools", "listChanged"}, {"resources", "subscribe"}, {"resources", "listChanged"}, {"prompts", "listChanged"}} {
		if path(res, append([]string{"capabilities"}, cap...)...) != true {
			t.Errorf("capabilities.%s is not true: %v", strings.Join(cap, "."), res["capabilities"])
		}
	}
	if path(res, "capabilities", "completions") == nil || path(res, "capabilities", "logging") == nil {
		t.Errorf("completions or logging missing: %v", res["capabilities"])
	}
	if path(res, "_meta", "io.modelcontextprotocol/serverInfo", "name") != "mcptui-demo" {
		t.Errorf("serverInfo: %v", res["_meta"])
	}
	if !strings.Contains(res["instructions"].(string), "elicit_form") {
		t.Errorf("instructions: %v", res["instructions"])
	}

	// A version the server does not speak: -32022 with the supported list.
	e := c.callErr("tools/list", map[string]any{"_meta": meta(map[string]any{"io.modelcontextprotocol/protocolVersion": "2099-01-01"})})
	if e["code"] != float64(-32022) || !slices.Contains(path(e, "data", "supported").([]any), any("2026-07-28")) {
		t.Errorf("unsupported version: %v", e)
	}
}

func TestModernListsPaginate(t *testing.T) {
	t.Parallel()
	c := startRaw(t)
	var names []string
	pages := 0
	cursor := ""
	for {
		params := map[string]any{"_meta": meta(nil)}
		if cursor != "" {
			params["cursor"] = cursor
		}
		res := c.call("tools/list", params)
		pages++
		if res["ttlMs"] != float64(5000) || res["cacheScope"] != "private" {
			t.Errorf("cache fields: ttlMs=%v cacheScope=%v", res["ttlMs"], res["cacheScope"])
		}
		for _, tool := range res["tools"].([]any) {
			tm := tool.(map[string]any)
			names = append(names, tm["name"].(string))
			if tm["title"] == nil || len(tm["description"].(string)) < 20 {
				t.Errorf("tool %v lacks a title or a real description", tm["name"])
			}
		}
		next, _ := res["nextCursor"].(string)
		if next == "" {
			break
		}
		cursor = next
	}
	slices.Sort(names)
	want := []string{"bump", "burst", "chatter", "echo", "elicit_form", "elicit_url", "exit", "fail", "hostile", "image", "large", "log",
		"progress", "roots", "rpc_error", "sample", "sample_with_tools", "slow", "structured", "toggle_prompt", "toggle_resource", "toggle_tool"}
	if !slices.Equal(names, want) {
		t.Errorf("tools = %v\nwant %v", names, want)
	}
	if pages < 3 {
		t.Errorf("%d tools came in %d page(s); the page size is 10", len(names), pages)
	}
	// A cursor the server never made.
	if e := c.callErr("tools/list", map[string]any{"_meta": meta(nil), "cursor": "bogus"}); e["code"] != float64(-32602) {
		t.Errorf("bad cursor: %v", e)
	}
}

// TestModernElicitFormRoundTrip is the core MRTR exchange: input_required,
// then the same call under a new id with inputResponses and requestState.
func TestModernElicitFormRoundTrip(t *testing.T) {
	t.Parallel()
	c := startRaw(t)
	params := func() map[string]any {
		return map[string]any{"name": "elicit_form", "arguments": map[string]any{}, "_meta": meta(nil)}
	}
	first := c.call("tools/call", params())
	if first["resultType"] != "input_required" {
		t.Fatalf("first round: %v", first)
	}
	if c, ok := first["content"].([]any); !ok || len(c) != 0 {
		t.Errorf("input_required content = %#v, want []", first["content"])
	}
	req := path(first, "inputRequests", "profile").(map[string]any)
	if req["method"] != "elicitation/create" || path(req, "params", "mode") != "form" {
		t.Fatalf("input request: %v", req)
	}
	props := path(req, "params", "requestedSchema", "properties").(map[string]any)
	checks := map[string]func(p map[string]any) bool{
		"name":     func(p map[string]any) bool { return p["default"] == "Ada Lovelace" && p["minLength"] == float64(2) },
		"email":    func(p map[string]any) bool { return p["format"] == "email" },
		"website":  func(p map[string]any) bool { return p["format"] == "uri" },
		"birthday": func(p map[string]any) bool { return p["format"] == "date" },
		"meeting":  func(p map[string]any) bool { return p["format"] == "date-time" },
		"height": func(p map[string]any) bool {
			return p["type"] == "number" && p["minimum"] == 0.5 && p["maximum"] == 2.5
		},
		"age":        func(p map[string]any) bool { return p["type"] == "integer" },
		"newsletter": func(p map[string]any) bool { return p["type"] == "boolean" && p["default"] == true },
		"colour":     func(p map[string]any) bool { return p["enum"] != nil && p["default"] == "green" },
		"size":       func(p map[string]any) bool { return len(p["oneOf"].([]any)) == 4 && p["default"] == "m" },
		"plan":       func(p map[string]any) bool { return len(p["enumNames"].([]any)) == 3 },
		"toppings":   func(p map[string]any) bool { return p["type"] == "array" && path(p, "items", "enum") != nil },
		"languages":  func(p map[string]any) bool { return p["type"] == "array" && path(p, "items", "anyOf") != nil },
	}
	for name, ok := range checks {
		p, _ := props[name].(map[string]any)
		if p == nil || !ok(p) {
			t.Errorf("form field %s: %v", name, props[name])
		}
	}
	// The schema lists its fields in a readable order, not alphabetically.
	if line := c.lines.snapshot(); !strings.Contains(strings.Join(line, "\n"), `"properties":{"name":`) {
		t.Errorf("form fields are not in declaration order")
	}
	state := first["requestState"].(string)

	retry := params()
	retry["inputResponses"] = map[string]any{"profile": map[string]any{"action": "accept", "content": map[string]any{
		"name": "Grace", "email": "grace@example.com", "age": 36, "languages": []string{"go", "rust"}, "size": "l",
	}}}
	retry["requestState"] = state
	done := c.call("tools/call", retry)
	if done["resultType"] != "complete" {
		t.Fatalf("second round: %v", done)
	}
	got := textOf(done)
	for _, want := range []string{"accepted and sent 5 fields", `age = 36 (number)`, `languages = ["go","rust"] (array)`, `name = "Grace" (string)`} {
		if !strings.Contains(got, want) {
			t.Errorf("answer %q lacks %q", got, want)
		}
	}

	// Declining is reported too.
	retry["inputResponses"] = map[string]any{"profile": map[string]any{"action": "decline"}}
	if got := textOf(c.call("tools/call", retry)); !strings.Contains(got, `"decline"`) {
		t.Errorf("decline: %q", got)
	}
	// A requestState that was tampered with is refused.
	retry["requestState"] = strings.Replace(state, ".", "x.", 1)
	if e := c.callErr("tools/call", retry); e["code"] != float64(-32602) || !strings.Contains(e["message"].(string), "requestState") {
		t.Errorf("tampered state: %v", e)
	}
	// Answers without a state are refused; a state without answers asks again.
	delete(retry, "requestState")
	if e := c.callErr("tools/call", retry); e["code"] != float64(-32602) {
		t.Errorf("answers without state: %v", e)
	}
	again := params()
	again["requestState"] = state
	if res := c.call("tools/call", again); res["resultType"] != "input_required" {
		t.Errorf("state without answers: %v", res)
	}
}

// TestModernSamplingWithTools runs a three-round conversation: the model
// calls a tool, the server runs it and samples again, the model answers.
func TestModernSamplingWithTools(t *testing.T) {
	t.Parallel()
	c := startRaw(t)
	params := map[string]any{"name": "sample_with_tools", "arguments": map[string]any{"prompt": "Weather in Porto?"}, "_meta": meta(nil)}
	res := c.call("tools/call", params)
	req := path(res, "inputRequests", "reply", "params").(map[string]any)
	tools := req["tools"].([]any)
	if len(tools) != 2 || path(tools[0], "name") != "get_weather" || path(req, "toolChoice", "mode") != "auto" {
		t.Fatalf("sampling request: %v", req)
	}
	params["inputResponses"] = map[string]any{"reply": map[string]any{
		"role": "assistant", "model": "test-model", "stopReason": "toolUse",
		"content": []any{map[string]any{"type": "tool_use", "id": "call-1", "name": "get_weather", "input": map[string]any{"city": "Porto"}}},
	}}
	params["requestState"] = res["requestState"]
	res = c.call("tools/call", params)
	if res["resultType"] != "input_required" {
		t.Fatalf("round 2: %v", res)
	}
	msgs := path(res, "inputRequests", "reply", "params", "messages").([]any)
	if len(msgs) != 3 {
		t.Fatalf("round 2 sends %d messages, want 3 (question, tool call, tool result): %v", len(msgs), msgs)
	}
	result := path(msgs[2], "content")
	if b, _ := jsonString(result); !strings.Contains(b, `"tool_result"`) || !strings.Contains(b, "Porto: sunny") || !strings.Contains(b, "call-1") {
		t.Errorf("tool result message: %s", b)
	}
	params["inputResponses"] = map[string]any{"reply": map[string]any{
		"role": "assistant", "model": "test-model", "stopReason": "endTurn",
		"content": map[string]any{"type": "text", "text": "It is sunny in Porto."},
	}}
	params["requestState"] = res["requestState"]
	res = c.call("tools/call", params)
	got := textOf(res)
	for _, want := range []string{`round 1: the model called get_weather({"city":"Porto"})`, `round 2: the model "test-model" answered: It is sunny in Porto.`} {
		if !strings.Contains(got, want) {
			t.Errorf("transcript %q lacks %q", got, want)
		}
	}
}

func TestModernAskingTools(t *testing.T) {
	t.Parallel()
	c := startRaw(t)
	// sample: one round.
	p := map[string]any{"name": "sample", "arguments": map[string]any{"prompt": "Say hi"}, "_meta": meta(nil)}
	res := c.call("tools/call", p)
	if path(res, "inputRequests", "reply", "method") != "sampling/createMessage" ||
		path(res, "inputRequests", "reply", "params", "maxTokens") != float64(200) {
		t.Fatalf("sample: %v", res)
	}
	p["requestState"] = res["requestState"]
	p["inputResponses"] = map[string]any{"reply": map[string]any{"role": "assistant", "model": "me", "content": map[string]any{"type": "text", "text": "hi!"}}}
	if got := textOf(c.call("tools/call", p)); !strings.Contains(got, `The model "me" replied`) || !strings.Contains(got, "hi!") {
		t.Errorf("sample answer: %q", got)
	}

	// roots.
	p = map[string]any{"name": "roots", "arguments": map[string]any{}, "_meta": meta(nil)}
	res = c.call("tools/call", p)
	if path(res, "inputRequests", "roots", "method") != "roots/list" {
		t.Fatalf("roots: %v", res)
	}
	p["requestState"] = res["requestState"]
	p["inputResponses"] = map[string]any{"roots": map[string]any{"roots": []any{
		map[string]any{"uri": "file:///home/u/proj", "name": "proj"}, map[string]any{"uri": "file:///tmp"},
	}}}
	if got := textOf(c.call("tools/call", p)); !strings.Contains(got, "2 root(s)") || !strings.Contains(got, "file:///home/u/proj (proj)") {
		t.Errorf("roots answer: %q", got)
	}

	// elicit_url: URL mode without an elicitationId on 2026-07-28.
	p = map[string]any{"name": "elicit_url", "arguments": map[string]any{"url": "https://auth.example.com/start"}, "_meta": meta(nil)}
	res = c.call("tools/call", p)
	params := path(res, "inputRequests", "connect", "params").(map[string]any)
	if params["mode"] != "url" || params["url"] != "https://auth.example.com/start" || params["elicitationId"] != nil {
		t.Fatalf("url elicitation: %v", params)
	}
	p["requestState"] = res["requestState"]
	p["inputResponses"] = map[string]any{"connect": map[string]any{"action": "accept"}}
	got := textOf(c.call("tools/call", p))
	if !strings.Contains(got, `"accept"`) || !strings.Contains(got, "auth.example.com") || strings.Contains(got, "elicitation/complete") {
		t.Errorf("url answer: %q", got)
	}

	// interview: a prompt that asks first.
	gp := map[string]any{"name": "interview", "arguments": map[string]any{"topic": "Go"}, "_meta": meta(nil)}
	res = c.call("prompts/get", gp)
	if res["resultType"] != "input_required" || path(res, "inputRequests", "about", "method") != "elicitation/create" {
		t.Fatalf("interview: %v", res)
	}
	gp["requestState"] = res["requestState"]
	gp["inputResponses"] = map[string]any{"about": map[string]any{"action": "accept", "content": map[string]any{"role": "designer", "years": 4}}}
	res = c.call("prompts/get", gp)
	if b, _ := jsonString(res["messages"]); !strings.Contains(b, "Interview me about Go. I am a designer with 4 years of experience.") {
		t.Errorf("interview messages: %s", b)
	}

	// demo://secret: a resources/read that asks first.
	rp := map[string]any{"uri": secretURI, "_meta": meta(nil)}
	res = c.call("resources/read", rp)
	if res["resultType"] != "input_required" || path(res, "inputRequests", "confirm", "params", "requestedSchema", "properties", "reveal", "type") != "boolean" {
		t.Fatalf("secret: %v", res)
	}
	rp["requestState"] = res["requestState"]
	rp["inputResponses"] = map[string]any{"confirm": map[string]any{"action": "accept", "content": map[string]any{"reveal": true}}}
	res = c.call("resources/read", rp)
	if res["resultType"] != "complete" || path(res["contents"].([]any)[0], "text") != "The secret is 42." {
		t.Errorf("secret revealed: %v", res)
	}
	rp["inputResponses"] = map[string]any{"confirm": map[string]any{"action": "cancel"}}
	if res = c.call("resources/read", rp); !strings.Contains(path(res["contents"].([]any)[0], "text").(string), `"cancel"`) {
		t.Errorf("secret cancelled: %v", res)
	}

	// A capability the client did not declare: -32021 naming it.
	bare := meta(map[string]any{"io.modelcontextprotocol/clientCapabilities": map[string]any{}})
	e := c.callErr("tools/call", map[string]any{"name": "sample_with_tools", "arguments": map[string]any{}, "_meta": bare})
	if e["code"] != float64(-32021) || path(e, "data", "requiredCapabilities", "sampling", "tools") == nil {
		t.Errorf("missing capability: %v", e)
	}
	for _, method := range []string{"prompts/get", "resources/read"} {
		e := c.callErr(method, map[string]any{"name": "interview", "uri": secretURI, "_meta": bare})
		if e["code"] != float64(-32021) || path(e, "data", "requiredCapabilities", "elicitation", "form") == nil {
			t.Errorf("%s without elicitation: %v", method, e)
		}
	}
}

func TestModernLoggingAndProgress(t *testing.T) {
	t.Parallel()
	c := startRaw(t)
	// Logging at every level, filtered by the _meta level.
	id := c.request("tools/call", map[string]any{"name": "log", "arguments": map[string]any{"logger": "lvl-warning"},
		"_meta": meta(map[string]any{"io.modelcontextprotocol/logLevel": "warning"})})
	res := c.response(id)
	logs := c.waitNotifications("notifications/message", 5, func(p map[string]any) bool { return p["logger"] == "lvl-warning" })
	var got []string
	for _, l := range logs {
		got = append(got, l["level"].(string))
	}
	if !slices.Equal(got, []string{"warning", "error", "critical", "alert", "emergency"}) {
		t.Errorf("levels = %v", got)
	}
	if !strings.Contains(textOf(res["result"].(map[string]any)), "5 of 8 went out") {
		t.Errorf("log answer: %v", res)
	}
	// Without a level in _meta nothing is logged.
	res2 := c.call("tools/call", map[string]any{"name": "log", "arguments": map[string]any{"logger": "lvl-none"}, "_meta": meta(nil)})
	if !strings.Contains(textOf(res2), "no io.modelcontextprotocol/logLevel in _meta, so none went out") {
		t.Errorf("log without level: %q", textOf(res2))
	}

	// Progress with total and messages.
	c.call("tools/call", map[string]any{"name": "progress", "arguments": map[string]any{"steps": 4, "intervalMs": 1},
		"_meta": meta(map[string]any{"progressToken": "with-total"})})
	ps := c.waitNotifications("notifications/progress", 4, func(p map[string]any) bool { return p["progressToken"] == "with-total" })
	for i, p := range ps {
		if p["progress"] != float64(i+1) || p["total"] != float64(4) || !strings.Contains(p["message"].(string), "of 4") {
			t.Errorf("progress %d: %v", i, p)
		}
	}
	// Without total and without messages: progress still grows.
	c.call("tools/call", map[string]any{"name": "progress", "arguments": map[string]any{"steps": 3, "intervalMs": 1, "withTotal": false, "withMessage": false},
		"_meta": meta(map[string]any{"progressToken": 77})})
	ps = c.waitNotifications("notifications/progress", 3, func(p map[string]any) bool { return p["progressToken"] == float64(77) })
	for i, p := range ps {
		if _, ok := p["total"]; ok {
			t.Errorf("progress %d has a total: %v", i, p)
		}
		if _, ok := p["message"]; ok {
			t.Errorf("progress %d has a message: %v", i, p)
		}
		if i > 0 && p["progress"].(float64) <= ps[i-1]["progress"].(float64) {
			t.Errorf("progress does not grow: %v", ps)
		}
	}

	// A burst: every notification arrives, in order, before the answer.
	id = c.request("tools/call", map[string]any{"name": "burst", "arguments": map[string]any{"count": 500},
		"_meta": meta(map[string]any{"progressToken": "burst"})})
	res = c.response(id)
	ps = c.waitNotifications("notifications/progress", 500, func(p map[string]any) bool { return p["progressToken"] == "burst" })
	for i, p := range ps {
		if p["progress"] != float64(i+1) {
			t.Fatalf("burst notification %d has progress %v", i, p["progress"])
		}
	}
	if !strings.Contains(textOf(res["result"].(map[string]any)), "Sent 500 progress notifications") {
		t.Errorf("burst answer: %v", res)
	}
	if got := c.call("tools/call", map[string]any{"name": "burst", "arguments": map[string]any{}, "_meta": meta(nil)}); got["isError"] != true {
		t.Errorf("a progress burst without a token should be a tool error: %v", got)
	}
}

// TestModernCancel cancels slow and checks that it stops and that its
// answer never comes.
func TestModernCancel(t *testing.T) {
	t.Parallel()
	c := startRaw(t)
	id := c.request("tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"seconds": 60},
		"_meta": meta(map[string]any{"progressToken": "slow"})})
	first := c.waitNotifications("notifications/progress", 1, func(p map[string]any) bool { return p["progressToken"] == "slow" })
	if first[0]["total"] != float64(60) || first[0]["message"] != "59 s left" {
		t.Errorf("slow progress: %v", first[0])
	}
	c.send(map[string]any{"method": "notifications/cancelled", "params": map[string]any{"requestId": id, "reason": "test"}})
	c.stderr.waitLine(t, "slow: cancelled after")
	if got := textOf(c.call("tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "still here"}, "_meta": meta(nil)})); got != "still here" {
		t.Errorf("echo after cancel: %q", got)
	}
	if err := c.close(); err != nil {
		t.Errorf("server exit: %v", err)
	}
	for _, m := range c.msgs.snapshot() {
		if m["id"] == id {
			t.Errorf("the cancelled request was answered: %v", m)
		}
	}
	c.stderr.waitLine(t, "the client cancelled request")
}

func TestModernSubscriptions(t *testing.T) {
	t.Parallel()
	c := startRaw(t)
	listen := c.request("subscriptions/listen", map[string]any{"_meta": meta(nil), "notifications": map[string]any{
		"toolsListChanged": true, "resourcesListChanged": true, "promptsListChanged": true,
		"resourceSubscriptions": []string{counterURI, clockURI},
	}})
	tagged := func(p map[string]any) bool {
		return path(p, "_meta", "io.modelcontextprotocol/subscriptionId") == listen
	}
	ack := c.waitNotifications("notifications/subscriptions/acknowledged", 1, tagged)[0]
	if path(ack, "notifications", "toolsListChanged") != true || len(path(ack, "notifications", "resourceSubscriptions").([]any)) != 2 {
		t.Errorf("ack: %v", ack)
	}

	// The clock ticks on its own (every 40ms in tests).
	c.waitNotifications("notifications/resources/updated", 2, func(p map[string]any) bool { return tagged(p) && p["uri"] == clockURI })

	// bump changes the counter and says so.
	if got := textOf(c.call("tools/call", map[string]any{"name": "bump", "arguments": map[string]any{}, "_meta": meta(nil)})); !strings.Contains(got, "is now 1") {
		t.Errorf("bump: %q", got)
	}
	c.waitNotifications("notifications/resources/updated", 1, func(p map[string]any) bool { return tagged(p) && p["uri"] == counterURI })
	if got := path(c.call("resources/read", map[string]any{"uri": counterURI, "_meta": meta(nil)}), "contents"); path(got.([]any)[0], "text") != "1" {
		t.Errorf("counter after bump: %v", got)
	}

	// toggle_* add and remove, with list_changed on the stream.
	for _, kind := range []string{"tool", "resource", "prompt"} {
		got := textOf(c.call("tools/call", map[string]any{"name": "toggle_" + kind, "arguments": map[string]any{}, "_meta": meta(nil)}))
		if !strings.HasPrefix(got, "Added") {
			t.Errorf("toggle_%s: %q", kind, got)
		}
		c.waitNotifications("notifications/"+kind+"s/list_changed", 1, tagged)
	}
	if got := textOf(c.call("tools/call", map[string]any{"name": "surprise", "arguments": map[string]any{}, "_meta": meta(nil)})); !strings.Contains(got, "Surprise!") {
		t.Errorf("surprise: %q", got)
	}
	if got := c.call("resources/read", map[string]any{"uri": surpriseURI, "_meta": meta(nil)}); !strings.Contains(path(got["contents"].([]any)[0], "text").(string), "Surprise!") {
		t.Errorf("surprise resource: %v", got)
	}
	if got := textOf(c.call("tools/call", map[string]any{"name": "toggle_tool", "arguments": map[string]any{}, "_meta": meta(nil)})); !strings.HasPrefix(got, "Removed") {
		t.Errorf("second toggle_tool: %q", got)
	}
	c.waitNotifications("notifications/tools/list_changed", 2, tagged)
	if e := c.callErr("tools/call", map[string]any{"name": "surprise", "arguments": map[string]any{}, "_meta": meta(nil)}); e["code"] != float64(-32602) {
		t.Errorf("removed tool: %v", e)
	}

	// Cancelling the listen ends it with its terminal result.
	c.send(map[string]any{"method": "notifications/cancelled", "params": map[string]any{"requestId": listen}})
	end := c.response(listen)
	if path(end, "result", "resultType") != "complete" || path(end, "result", "_meta", "io.modelcontextprotocol/subscriptionId") != listen {
		t.Errorf("listen end: %v", end)
	}
	c.stderr.waitLine(t, "unsubscribed from demo://clock")
}

func TestModernContentAndErrors(t *testing.T) {
	t.Parallel()
	c := startRaw(t)
	call := func(name string, args map[string]any) map[string]any {
		t.Helper()
		return c.call("tools/call", map[string]any{"name": name, "arguments": args, "_meta": meta(nil)})
	}
	if got := textOf(call("echo", map[string]any{"message": "héllo\nworld"})); got != "héllo\nworld" {
		t.Errorf("echo: %q", got)
	}
	// image: a real PNG of the asked size.
	img := call("image", map[string]any{"size": 48})["content"].([]any)[1].(map[string]any)
	data, err := base64.StdEncoding.DecodeString(img["data"].(string))
	if err != nil || img["mimeType"] != "image/png" {
		t.Fatalf("image content: %v %v", img["mimeType"], err)
	}
	if cfg, err := png.DecodeConfig(bytes.NewReader(data)); err != nil || cfg.Width != 48 || cfg.Height != 48 {
		t.Errorf("image: %v %+v", err, cfg)
	}
	// large: exactly the asked number of bytes.
	if got := textOf(call("large", map[string]any{"bytes": 300_001})); len(got) != 300_001 || !strings.HasPrefix(got, "line 0000001: ") {
		t.Errorf("large: %d bytes, starts %q", len(got), got[:min(len(got), 20)])
	}
	// structured: structuredContent and text agree.
	res := call("structured", map[string]any{"city": "Oslo", "days": 2})
	sc := res["structuredContent"].(map[string]any)
	if sc["city"] != "Oslo" || len(sc["forecast"].([]any)) != 2 || !slices.Contains(conditions, sc["conditions"]) {
		t.Errorf("structured: %v", sc)
	}
	if !strings.Contains(textOf(res), `"city":"Oslo"`) {
		t.Errorf("structured text: %q", textOf(res))
	}
	// hostile: the escapes come through untouched (it is the client's job to defuse them).
	if got := textOf(call("hostile", map[string]any{})); !strings.Contains(got, "\x1b]52;c;") || !strings.Contains(got, "\u202e") {
		t.Errorf("hostile: %q", got)
	}
	c.stderr.waitLine(t, "hostile: title:     \x1b]0;")
	// chatter: lines on stderr.
	if got := textOf(call("chatter", map[string]any{"lines": 6})); got != "Wrote 6 lines to stderr." {
		t.Errorf("chatter: %q", got)
	}
	c.stderr.waitLine(t, "unicode is fine: naïve café")
	c.stderr.waitLine(t, "\x1b[33mWARN\x1b[0m")

	// Errors: a tool error, a JSON-RPC error, unknown things.
	if res := call("fail", map[string]any{"message": "boom"}); res["isError"] != true || textOf(res) != "boom" {
		t.Errorf("fail: %v", res)
	}
	e := c.callErr("tools/call", map[string]any{"name": "rpc_error", "arguments": map[string]any{"code": 4242, "message": "custom", "data": []int{1, 2}}, "_meta": meta(nil)})
	if e["code"] != float64(4242) || e["message"] != "custom" || len(e["data"].([]any)) != 2 {
		t.Errorf("rpc_error: %v", e)
	}
	if e := c.callErr("tools/call", map[string]any{"name": "rpc_error", "arguments": map[string]any{}, "_meta": meta(nil)}); e["code"] != float64(-32000) || path(e, "data", "tool") != "rpc_error" {
		t.Errorf("rpc_error defaults: %v", e)
	}
	if e := c.callErr("tools/call", map[string]any{"name": "nope", "_meta": meta(nil)}); e["code"] != float64(-32602) {
		t.Errorf("unknown tool: %v", e)
	}
	if e := c.callErr("resources/read", map[string]any{"uri": "demo://colors/nope", "_meta": meta(nil)}); e["code"] != float64(-32602) {
		t.Errorf("unknown resource: %v", e)
	}
	if res := call("image", map[string]any{"size": 5}); res["isError"] != true {
		t.Errorf("out-of-range argument should be a tool error: %v", res)
	}

	// Malformed lines are answered and the session goes on.
	c.sendLine("this is not json")
	c.sendLine(`{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}`)
	c.sendLine(`[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]`)
	c.sendLine(`{"jsonrpc":"1.0","id":"old","method":"tools/list"}`)
	c.sendLine(`{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"x":"` + strings.Repeat("a", maxLine) + `"}}`)
	c.msgs.waitFor(t, "five error answers", func(ms []map[string]any) bool {
		n := 0
		for _, m := range ms {
			if code := path(m, "error", "code"); code == float64(-32700) || code == float64(-32600) {
				n++
			}
		}
		return n >= 5
	})
	c.stderr.waitLine(t, "a line longer than")
	if got := textOf(call("echo", map[string]any{"message": "alive"})); got != "alive" {
		t.Errorf("echo after garbage: %q", got)
	}
}

func TestModernResourcesPromptsCompletion(t *testing.T) {
	t.Parallel()
	c := startRaw(t)
	m := meta(nil)
	res := c.call("resources/list", map[string]any{"_meta": m})
	var uris []string
	for _, r := range res["resources"].([]any) {
		uris = append(uris, path(r, "uri").(string))
	}
	if !slices.Equal(uris, []string{clockURI, counterURI, logoURI, readmeURI, secretURI}) {
		t.Errorf("resources: %v", uris)
	}
	res = c.call("resources/templates/list", map[string]any{"_meta": m})
	if len(res["resourceTemplates"].([]any)) != 2 {
		t.Errorf("templates: %v", res)
	}
	res = c.call("resources/read", map[string]any{"uri": readmeURI, "_meta": m})
	if res["ttlMs"] != float64(60000) || !strings.Contains(path(res["contents"].([]any)[0], "text").(string), "# mcptui demo server") {
		t.Errorf("readme: %v", res)
	}
	res = c.call("resources/read", map[string]any{"uri": logoURI, "_meta": m})
	blob, _ := base64.StdEncoding.DecodeString(path(res["contents"].([]any)[0], "blob").(string))
	if cfg, err := png.DecodeConfig(bytes.NewReader(blob)); err != nil || cfg.Width != 128 {
		t.Errorf("logo: %v %+v", err, cfg)
	}
	res = c.call("resources/read", map[string]any{"uri": "demo://colors/teal", "_meta": m})
	if !strings.Contains(path(res["contents"].([]any)[0], "text").(string), `"hex": "#008080"`) {
		t.Errorf("teal: %v", res)
	}
	res = c.call("resources/read", map[string]any{"uri": "demo://teams/docs/members/erin", "_meta": m})
	if !strings.Contains(path(res["contents"].([]any)[0], "text").(string), "erin@docs.example") {
		t.Errorf("member: %v", res)
	}

	complete := func(ref map[string]any, name, value string, ctx map[string]any) map[string]any {
		p := map[string]any{"ref": ref, "argument": map[string]any{"name": name, "value": value}, "_meta": m}
		if ctx != nil {
			p["context"] = map[string]any{"arguments": ctx}
		}
		return c.call("completion/complete", p)["completion"].(map[string]any)
	}
	colorRef := map[string]any{"type": "ref/resource", "uri": colorTemplate}
	if got := complete(colorRef, "name", "t", nil); !equalAny(got["values"], "tan", "teal", "tomato", "turquoise") {
		t.Errorf("colours t: %v", got)
	}
	if got := complete(colorRef, "name", "", nil); len(got["values"].([]any)) != 10 || got["hasMore"] != true || got["total"] != float64(40) {
		t.Errorf("colours, all: %v", got)
	}
	memberRef := map[string]any{"type": "ref/resource", "uri": memberTemplate}
	if got := complete(memberRef, "member", "", map[string]any{"team": "design"}); !equalAny(got["values"], "carol", "chen", "dana") {
		t.Errorf("members of design: %v", got)
	}
	if got := complete(map[string]any{"type": "ref/prompt", "name": "greet"}, "style", "p", nil); !equalAny(got["values"], "pirate") {
		t.Errorf("greet style: %v", got)
	}
	if got := complete(map[string]any{"type": "ref/prompt", "name": "greet"}, "name", "x", nil); !equalAny(got["values"]) {
		t.Errorf("greet name (no completion): %v", got)
	}
	if e := c.callErr("completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "nope"}, "argument": map[string]any{"name": "a", "value": ""}, "_meta": m}); e["code"] != float64(-32602) {
		t.Errorf("unknown prompt: %v", e)
	}

	res = c.call("prompts/list", map[string]any{"_meta": m})
	if len(res["prompts"].([]any)) != 4 {
		t.Errorf("prompts: %v", res)
	}
	res = c.call("prompts/get", map[string]any{"name": "greet", "arguments": map[string]any{"name": "Ada", "style": "pirate"}, "_meta": m})
	if path(res["messages"].([]any)[0], "content", "text") != "Greet Ada in a pirate style, in one sentence." {
		t.Errorf("greet: %v", res)
	}
	res = c.call("prompts/get", map[string]any{"name": "code_review", "arguments": map[string]any{"language": "Go", "code": "x := 1"}, "_meta": m})
	if msgs := res["messages"].([]any); len(msgs) != 2 || path(msgs[1], "role") != "assistant" || !strings.Contains(path(msgs[0], "content", "text").(string), "```go\nx := 1\n```") {
		t.Errorf("code_review: %v", res)
	}
	res = c.call("prompts/get", map[string]any{"name": "describe_resource", "arguments": map[string]any{"uri": logoURI}, "_meta": m})
	if msgs := res["messages"].([]any); len(msgs) != 3 || path(msgs[1], "content", "type") != "resource" || path(msgs[2], "content", "type") != "image" {
		t.Errorf("describe_resource: %v", res)
	}
	if e := c.callErr("prompts/get", map[string]any{"name": "greet", "arguments": map[string]any{}, "_meta": m}); e["code"] != float64(-32602) {
		t.Errorf("greet without name: %v", e)
	}
}

// TestModernExit: the exit tool ends the process with the asked status and
// leaves the call unanswered.
func TestModernExit(t *testing.T) {
	t.Parallel()
	c := startRaw(t)
	id := c.request("tools/call", map[string]any{"name": "exit", "arguments": map[string]any{"status": 7}, "_meta": meta(nil)})
	<-c.done
	err := c.cmd.Wait()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != 7 {
		t.Fatalf("exit: %v", err)
	}
	for _, m := range c.msgs.snapshot() {
		if m["id"] == id {
			t.Errorf("exit answered: %v", m)
		}
	}
	if !strings.Contains(c.stderr.all(), "exiting with status 7") {
		t.Errorf("stderr: %s", c.stderr.all())
	}
}
