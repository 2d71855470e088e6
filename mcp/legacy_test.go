package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
)

func legacyClient(t *testing.T, arg string, setup func(*fakeSetup)) (*fakeSetup, *Client) {
	t.Helper()
	s := newFake(t, "legacy-32601", arg)
	if setup != nil {
		setup(s)
	}
	return s, s.mustConnect(testCtx(t))
}

// structured returns a tool result's structuredContent as an object.
func structured(t *testing.T, res *CallToolResult) object {
	t.Helper()
	o, err := parseObject(res.StructuredContent)
	if err != nil {
		t.Fatalf("structuredContent %s: %v", res.StructuredContent, err)
	}
	return o
}

func TestLegacyServerRequestsReachAnswerers(t *testing.T) {
	a := newAnswers()
	s, c := legacyClient(t, "", func(s *fakeSetup) { a.all(&s.opts) })
	init := s.wire.sent(MethodInitialize)[0]
	if got := string(init.param("capabilities")); got != `{"sampling":{},"elicitation":{"form":{},"url":{}},"roots":{}}` {
		t.Errorf("declared capabilities %s", got)
	}
	res, err := c.CallTool(testCtx(t), "ask-all", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := structured(t, res)
	for key, want := range map[string]string{
		"sampling": `{"result":` + answerSampling + `}`,
		"form":     `{"result":` + answerForm + `}`,
		"url":      `{"result":` + answerURL + `}`,
		"roots":    `{"result":` + answerRoots + `}`,
		"ping":     `{"result":{}}`,
	} {
		if string(got.get(key)) != want {
			t.Errorf("%s: server got %s, want %s", key, got.get(key), want)
		}
	}
	qs := a.asked()
	if len(qs) != 4 {
		t.Fatalf("%d questions (ping must not reach an answerer)", len(qs))
	}
	wantIDs := []string{`100`, `"e1"`, `101`, `102`}
	wantKinds := []QuestionKind{KindSampling, KindElicitForm, KindElicitURL, KindRoots}
	for i, q := range qs {
		if string(q.Origin.RequestID) != wantIDs[i] || q.Kind != wantKinds[i] || q.Origin.InputRequired() || q.Origin.Round != 0 {
			t.Errorf("question %d: %+v", i, q)
		}
	}
	if string(qs[3].Params) != `{}` {
		t.Errorf("roots params %s", qs[3].Params)
	}
}

func TestLegacyCapabilitiesPerVersion(t *testing.T) {
	a := newAnswers()
	s, _ := legacyClient(t, "", func(s *fakeSetup) {
		a.all(&s.opts)
		s.opts.Versions = []string{Version20250618}
	})
	if got := string(s.wire.sent(MethodInitialize)[0].param("capabilities")); got != `{"sampling":{},"elicitation":{},"roots":{}}` {
		t.Errorf("2025-06-18 capabilities %s", got)
	}
	s2, _ := legacyClient(t, "", func(s *fakeSetup) { s.opts.ElicitURL = a })
	if got := string(s2.wire.sent(MethodInitialize)[0].param("capabilities")); got != `{"elicitation":{"url":{}}}` {
		t.Errorf("URL-only capabilities %s", got)
	}
}

func TestLegacyServerRequestValidation(t *testing.T) {
	a := newAnswers()
	_, c := legacyClient(t, "", func(s *fakeSetup) { a.all(&s.opts) })
	res, err := c.CallTool(testCtx(t), "ask-bad", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := structured(t, res)
	for key, want := range map[string]string{
		"noMax":     `{"error":{"code":-32602,"message":"A sampling request needs [\"messages\", \"maxTokens\"] in its params","data":{"missing":["maxTokens"]}}}`,
		"mode":      `{"error":{"code":-32602,"message":"Unknown elicitation mode \"video\""}}`,
		"notObject": `{"error":{"code":-32602,"message":"params must be an object"}}`,
		"unknown":   `{"error":{"code":-32601,"message":"Method not found: foo/bar"}}`,
		"noSchema":  `{"error":{"code":-32602,"message":"A form elicitation needs [\"message\", \"requestedSchema\"] in its params","data":{"missing":["requestedSchema"]}}}`,
	} {
		if string(got.get(key)) != want {
			t.Errorf("%s: server got %s\nwant %s", key, got.get(key), want)
		}
	}
	if len(a.asked()) != 0 {
		t.Errorf("invalid requests reached the answerer: %v", a.asked())
	}
}

func TestLegacyInvalidAndRejectedAnswers(t *testing.T) {
	a := newAnswers()
	a.byKind[KindElicitForm] = json.RawMessage(`{"action":"maybe"}`)
	_, c := legacyClient(t, "", func(s *fakeSetup) { a.all(&s.opts) })
	res, err := c.CallTool(testCtx(t), "ask-invalid", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(structured(t, res).get("form")); !strings.HasPrefix(got, `{"error":{"code":-32603,"message":"invalid answer"`) {
		t.Errorf("server got %s", got)
	}

	reject := AnswerFunc(func(ctx context.Context, q *Question) (json.RawMessage, error) {
		return nil, &Error{Code: -1, Message: "User rejected"}
	})
	_, c2 := legacyClient(t, "", func(s *fakeSetup) { s.opts.ElicitForm = reject })
	res, err = c2.CallTool(testCtx(t), "ask-invalid", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(structured(t, res).get("form")); got != `{"error":{"code":-1,"message":"User rejected"}}` {
		t.Errorf("server got %s", got)
	}
}

func TestLegacyWithoutAnswerers(t *testing.T) {
	s, c := legacyClient(t, "", nil)
	if got := string(s.wire.sent(MethodInitialize)[0].param("capabilities")); got != `{}` {
		t.Errorf("capabilities %s", got)
	}
	res, err := c.CallTool(testCtx(t), "ask-all", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := structured(t, res)
	if string(got.get("ping")) != `{"result":{}}` {
		t.Errorf("ping %s", got.get("ping"))
	}
	if string(got.get("roots")) != `{"error":{"code":-32601,"message":"Method not found: roots/list"}}` {
		t.Errorf("roots %s", got.get("roots"))
	}
}

func TestMethodTables(t *testing.T) {
	s, c := legacyClient(t, "", nil)
	ctx := testCtx(t)
	if err := c.Ping(ctx); err != nil {
		t.Errorf("ping: %v", err)
	}
	for _, m := range []string{MethodDiscover, "foo/bar"} {
		before := len(s.wire.sent(m)) // the probe
		_, err := c.Request(ctx, m, nil)
		if e := errCode(t, err); e.Code != CodeMethodNotFound || e.Message != "Protocol 2025-11-25 does not define "+m {
			t.Errorf("%s: %v", m, e)
		}
		if len(s.wire.sent(m)) != before {
			t.Errorf("%s was sent", m)
		}
	}
	if _, err := c.Discover(ctx); errCode(t, err).Code != CodeMethodNotFound {
		t.Errorf("discover: %v", err)
	}
	if _, err := c.Request(ctx, MethodListen, nil); errCode(t, err).Code != CodeInvalidParams {
		t.Errorf("listen through Request: %v", err)
	}
	if err := c.Notify(ctx, NotificationRootsListChanged, nil); err != nil {
		t.Errorf("notify: %v", err)
	}

	ms, mc := modernClient(t, nil)
	for _, m := range []string{MethodPing, MethodSetLevel, MethodSubscribe, MethodInitialize, "tasks/result"} {
		_, err := mc.Request(ctx, m, nil)
		if e := errCode(t, err); e.Code != CodeMethodNotFound || e.Message != "Protocol 2026-07-28 does not define "+m {
			t.Errorf("%s: %v", m, e)
		}
	}
	if err := mc.Ping(ctx); errCode(t, err).Code != CodeMethodNotFound {
		t.Errorf("ping on 2026-07-28: %v", err)
	}
	if err := mc.Notify(ctx, NotificationRootsListChanged, nil); errCode(t, err).Code != CodeMethodNotFound {
		t.Errorf("roots list_changed on 2026-07-28: %v", err)
	}
	// An unknown method may be an extension: sent, and the server answers.
	_, err := mc.Request(ctx, "x-vendor/thing", map[string]int{"a": 1})
	if e := errCode(t, err); e.Code != CodeMethodNotFound || e.Message != "Method not found: x-vendor/thing" {
		t.Errorf("extension method: %v", e)
	}
	if sent := ms.wire.sent("x-vendor/thing"); len(sent) != 1 || string(sent[0].param("a")) != "1" || sent[0].param("_meta") == nil {
		t.Errorf("extension lines %v", sent)
	}
	if Defines(Version20260728, MethodPing) || !Defines(Version20260728, "x/y") || Defines(Version20251125, "x/y") || !Defines(Version20251125, "tasks/list") || Defines(Version20250618, "tasks/list") {
		t.Error("Defines disagrees with the method tables")
	}
}

func TestPagination(t *testing.T) {
	_, c := legacyClient(t, "", nil)
	tools, err := c.ListTools(testCtx(t))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Items {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "t,tc1,tc2" || len(tools.Pages) != 3 {
		t.Errorf("tools %v, %d pages", names, len(tools.Pages))
	}
	if string(tools.Items[1].Raw) != `{"name":"tc1","inputSchema":{"type":"object"}}` {
		t.Errorf("raw %s", tools.Items[1].Raw)
	}

	_, c2 := legacyClient(t, "", func(s *fakeSetup) { s.opts.MaxPages = 2 })
	_, err = c2.ListTools(testCtx(t))
	if e := errCode(t, err); e.Code != CodeConnection || e.Message != "The server sent more than 2 pages" {
		t.Errorf("page limit: %v", e)
	}

	s3, c3 := legacyClient(t, "repeat", nil)
	_, err = c3.ListTools(testCtx(t))
	if e := errCode(t, err); e.Code != CodeConnection || e.Message != "The server repeated a pagination cursor" {
		t.Errorf("repeated cursor: %v", e)
	}
	if got := len(s3.wire.sent(MethodListTools)); got != 2 {
		t.Errorf("%d pages asked, want 2 (the second repeats the first cursor)", got)
	}
}

func TestLegacyNotificationsInOrder(t *testing.T) {
	var mu sync.Mutex
	var got []string
	_, c := legacyClient(t, "", func(s *fakeSetup) {
		s.opts.OnNotification = func(n Notification) {
			mu.Lock()
			got = append(got, n.Method+" "+string(n.Params))
			mu.Unlock()
		}
	})
	if err := c.SetLogLevel(testCtx(t), "debug"); err != nil {
		t.Fatal(err)
	}
	if c.Session().LogLevel != "debug" {
		t.Error("level not recorded")
	}
	if _, err := c.CallTool(testCtx(t), "touch", nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{
		`notifications/message {"level":"info","data":"level set to debug"}`,
		`notifications/resources/updated {"uri":"file:///a/b.txt"}`,
		`notifications/resources/updated {"uri":"file:///other"}`,
		`notifications/tools/list_changed {}`,
		`notifications/message {"level":"warning","data":{"n":1}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notifications:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLegacyListen(t *testing.T) {
	s, c := legacyClient(t, "", nil)
	ctx := testCtx(t)
	sub, err := c.Listen(ctx, Filter{ToolsListChanged: true, PromptsListChanged: true, ResourceSubscriptions: []string{"file:///a"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(sub.Accepted()); got != `{"toolsListChanged":true,"resourceSubscriptions":["file:///a"]}` {
		t.Errorf("accepted %s (prompts has no listChanged)", got)
	}
	if got := string(sub.Requested()); got != `{"toolsListChanged":true,"promptsListChanged":true,"resourceSubscriptions":["file:///a"]}` {
		t.Errorf("requested %s", got)
	}
	if subs := s.wire.sent(MethodSubscribe); len(subs) != 1 || subs[0].str("uri") != "file:///a" {
		t.Errorf("subscribe lines %v", subs)
	}
	// A second subscription to the same URI sends nothing more.
	sub2, err := c.Listen(ctx, Filter{ResourceSubscriptions: []string{"file:///a"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.wire.sent(MethodSubscribe)) != 1 {
		t.Error("resources/subscribe sent twice for one URI")
	}
	if _, err := c.CallTool(ctx, "touch", nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`notifications/resources/updated {"uri":"file:///a/b.txt"}`, `notifications/tools/list_changed {}`} {
		n, err := sub.Next(ctx)
		if err != nil || n.Method+" "+string(n.Params) != want {
			t.Errorf("event %v %v, want %s", n, err, want)
		}
	}
	if n, err := sub2.Next(ctx); err != nil || n.Method != NotificationResourceUpdated {
		t.Errorf("second subscription: %v %v", n, err)
	}
	if err := sub.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := sub.Next(ctx); err != io.EOF {
		t.Errorf("after close: %v", err)
	}
	if len(s.wire.sent(MethodUnsubscribe)) != 0 {
		t.Error("unsubscribed while another subscription needs the URI")
	}
	if err := sub2.Close(); err != nil {
		t.Fatal(err)
	}
	if uns := s.wire.sent(MethodUnsubscribe); len(uns) != 1 || uns[0].str("uri") != "file:///a" {
		t.Errorf("unsubscribe lines %v", uns)
	}
	if sub.ID() != nil || sub.Dropped() != 0 {
		t.Error("legacy subscription has an id or drops")
	}

	// The connection stopping ends an open stream with its error.
	sub3, err := c.Listen(ctx, Filter{ToolsListChanged: true}, WithMaxBuffer(1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CallTool(ctx, "touch", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CallTool(ctx, "touch", nil); err != nil {
		t.Fatal(err)
	}
	if sub3.Dropped() != 1 {
		t.Errorf("dropped %d, want 1", sub3.Dropped())
	}
	_ = c.Close()
	if n, err := sub3.Next(ctx); err != nil || n.Method != NotificationToolsChanged {
		t.Errorf("queued event after close: %v %v", n, err)
	}
	if _, err := sub3.Next(ctx); errCode(t, err).Code != CodeConnection {
		t.Errorf("after the connection stopped: %v", err)
	}
}

func TestLegacyProgressAndErrors(t *testing.T) {
	_, c := legacyClient(t, "", nil)
	var n int
	res, err := c.CallTool(testCtx(t), "progress", nil, WithProgress(func(p conn.Progress) error {
		n++
		if p.Progress != float64(n) || p.Total != 3 {
			t.Errorf("progress %+v", p)
		}
		return nil
	}), WithResetTimeoutOnProgress(), WithTimeout(10*time.Second), WithMaxTotalTimeout(time.Minute))
	if err != nil || n != 3 || res.Content[0].Text != "progressed" {
		t.Errorf("%v %d %v", res, n, err)
	}
	failing, err := c.CallTool(testCtx(t), "failing", nil)
	if err != nil || !failing.IsError {
		t.Errorf("isError: %+v %v", failing, err)
	}
	_, err = c.CallTool(testCtx(t), "nope", nil)
	if e := errCode(t, err); e.Code != CodeInvalidParams || e.Message != "unknown tool nope" {
		t.Errorf("error %v", e)
	}
	if _, err := c.Request(testCtx(t), MethodCallTool, json.RawMessage(`[1]`)); errCode(t, err).Code != CodeInvalidParams {
		t.Errorf("array params: %v", err)
	}
}

// A 2025-03-26 session accepts a JSON-RPC batch (that revision's clients
// MUST): its messages are handled in order. Any other version keeps the
// seed's rule: the batch is discarded and the ping times out.
func TestBatchOnlyOn20250326(t *testing.T) {
	for _, v := range []string{Version20250326, Version20250618} {
		t.Run(v, func(t *testing.T) {
			var mu sync.Mutex
			var got []string
			_, c := legacyClient(t, "batch-ping", func(s *fakeSetup) {
				s.opts.Versions = []string{v}
				s.opts.OnNotification = func(n Notification) {
					mu.Lock()
					got = append(got, n.Method)
					mu.Unlock()
				}
			})
			err := c.Ping(testCtx(t), WithTimeout(300*time.Millisecond))
			mu.Lock()
			defer mu.Unlock()
			if v == Version20250326 {
				if err != nil || len(got) != 1 || got[0] != NotificationMessage {
					t.Fatalf("ping: %v; notifications %v", err, got)
				}
				return
			}
			if err == nil || len(got) != 0 {
				t.Fatalf("on %s a batch was accepted: ping %v, notifications %v", v, err, got)
			}
		})
	}
}

// MUSTs seen on the wire: tools/call and prompts/get carry arguments ({}
// when there are none); a progressToken of the caller's own is kept; a
// typed request the server declared no capability for is not sent.
func TestLegacyMusts(t *testing.T) {
	s, c := legacyClient(t, "", nil)
	ctx := testCtx(t)
	if _, err := c.CallTool(ctx, "touch", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetPrompt(ctx, "greet", nil); err != nil {
		t.Log(err) // the fake may not know it; the request is what matters
	}
	if got := string(s.wire.sent(MethodCallTool)[0].param("arguments")); got != "{}" {
		t.Errorf("tools/call arguments %q, want {}", got)
	}
	if got := string(s.wire.sent(MethodGetPrompt)[0].param("arguments")); got != "{}" {
		t.Errorf("prompts/get arguments %q, want {}", got)
	}
	progress := WithProgress(func(conn.Progress) error { return nil })
	if _, err := c.Request(ctx, MethodCallTool, json.RawMessage(`{"name":"touch","arguments":{},"_meta":{"progressToken":"mine"}}`), progress); err != nil {
		t.Fatal(err)
	}
	if got := string(s.wire.sent(MethodCallTool)[1].meta().get("progressToken")); got != `"mine"` {
		t.Errorf("the caller's progressToken became %s", got)
	}

	bare, bc := legacyClient(t, "bare", nil)
	for name, call := range map[string]func() error{
		"prompts":     func() error { _, err := bc.ListPrompts(ctx); return err },
		"resources":   func() error { _, err := bc.ListResources(ctx); return err },
		"resources ":  func() error { _, err := bc.ListResourceTemplates(ctx); return err },
		"completions": func() error { _, err := bc.Complete(ctx, Ref{Type: "ref/prompt", Name: "p"}, "a", "", nil); return err },
		"logging":     func() error { return bc.SetLogLevel(ctx, "debug") },
		"prompts  ":   func() error { _, err := bc.GetPrompt(ctx, "greet", nil); return err },
		"resources  ": func() error { _, err := bc.ReadResource(ctx, "file:///x"); return err },
	} {
		err := call()
		var nd *NotDeclaredError
		if !errors.As(err, &nd) || !strings.Contains(err.Error(), "the server declares no "+strings.TrimSpace(name)+" capability") || asError(err).Code != CodeMethodNotFound {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, m := range []string{MethodListPrompts, MethodListResources, MethodListResourceTemplates, MethodComplete, MethodSetLevel, MethodGetPrompt, MethodReadResource} {
		if n := len(bare.wire.sent(m)); n != 0 {
			t.Errorf("%s was sent %d times to a server that did not declare it", m, n)
		}
	}

	// A server declaring nothing gets no tools/list nor tools/call.
	none, nc := legacyClient(t, "no-caps", nil)
	for _, call := range []func() error{
		func() error { _, err := nc.ListTools(ctx); return err },
		func() error { _, err := nc.CallTool(ctx, "touch", nil); return err },
	} {
		if err := call(); err == nil || !strings.Contains(err.Error(), "the server declares no tools capability") {
			t.Errorf("on a server without tools: %v", err)
		}
	}
	for _, m := range []string{MethodListTools, MethodCallTool} {
		if n := len(none.wire.sent(m)); n != 0 {
			t.Errorf("%s was sent %d times to a server without tools", m, n)
		}
	}
}
