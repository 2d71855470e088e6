package demo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests in this file drive the demo with go-sdk's client over the
// initialize era (2025-11-25 and 2025-06-18): elicitation, sampling and roots
// arrive as server-to-client requests, which the client's handlers answer.

// legacyClient is a go-sdk client session with a demo child, recording what
// the server sends.
type legacyClient struct {
	t            *testing.T
	cs           *mcp.ClientSession
	stderr       *stderrLog
	logs         *events[*mcp.LoggingMessageParams]
	progress     *events[*mcp.ProgressNotificationParams]
	updated      *events[string]
	listChanged  *events[string]
	elicitations *events[*mcp.ElicitParams]
	samplings    *events[*mcp.CreateMessageWithToolsParams]
	completed    *events[string]
	called       map[string]bool
}

// formAnswer is what the test user types into elicit_form.
var formAnswer = map[string]any{
	"name": "Grace Hopper", "email": "grace@example.com", "website": "https://example.com", "birthday": "1906-12-09",
	"meeting": "2026-12-01T10:00:00Z", "height": 1.65, "age": 85, "newsletter": false, "colour": "blue",
	"size": "l", "plan": "pro", "toppings": []any{"cheese", "olives"}, "languages": []any{"go", "rust"},
}

func startLegacy(t *testing.T, version string) *legacyClient {
	t.Helper()
	cmd, stderr := childCommand(t)
	l := &legacyClient{
		t: t, stderr: stderr,
		logs: newEvents[*mcp.LoggingMessageParams](), progress: newEvents[*mcp.ProgressNotificationParams](),
		updated: newEvents[string](), listChanged: newEvents[string](),
		elicitations: newEvents[*mcp.ElicitParams](), samplings: newEvents[*mcp.CreateMessageWithToolsParams](),
		completed: newEvents[string](), called: map[string]bool{},
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "0"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{
			RootsV2:     &mcp.RootCapabilities{},
			Sampling:    &mcp.SamplingCapabilities{Tools: &mcp.SamplingToolsCapabilities{}},
			Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
		},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			l.elicitations.add(req.Params)
			switch {
			case req.Params.Mode == "url":
				return &mcp.ElicitResult{Action: "accept"}, nil
			case strings.Contains(fmt.Sprint(req.Params.RequestedSchema), "role"):
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"role": "student"}}, nil
			case strings.Contains(fmt.Sprint(req.Params.RequestedSchema), "reveal"):
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"reveal": true}}, nil
			}
			answer := map[string]any{}
			props, _ := req.Params.RequestedSchema.(map[string]any)["properties"].(map[string]any)
			for k := range props { // answer only what this version asks
				answer[k] = formAnswer[k]
			}
			return &mcp.ElicitResult{Action: "accept", Content: answer}, nil
		},
		CreateMessageWithToolsHandler: func(_ context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
			p := req.Params
			l.samplings.add(p)
			last := p.Messages[len(p.Messages)-1]
			if len(p.Tools) > 0 {
				if _, ok := last.Content[0].(*mcp.ToolResultContent); !ok { // call both tools at once
					return &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "test-model", StopReason: "toolUse", Content: []mcp.Content{
						&mcp.ToolUseContent{ID: "w1", Name: "get_weather", Input: map[string]any{"city": "Lisbon"}},
						&mcp.ToolUseContent{ID: "t1", Name: "get_time", Input: map[string]any{"timezone": "Europe/Lisbon"}},
					}}, nil
				}
				return &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "test-model", StopReason: "endTurn",
					Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("Sunny at 14:05 (%d messages seen).", len(p.Messages))}}}, nil
			}
			return &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "test-model", StopReason: "endTurn",
				Content: []mcp.Content{&mcp.TextContent{Text: "Terminals hum softly"}}}, nil
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) { l.logs.add(req.Params) },
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			l.progress.add(req.Params)
		},
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			l.updated.add(req.Params.URI)
		},
		ToolListChangedHandler:     func(context.Context, *mcp.ToolListChangedRequest) { l.listChanged.add("tools") },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { l.listChanged.add("resources") },
		PromptListChangedHandler:   func(context.Context, *mcp.PromptListChangedRequest) { l.listChanged.add("prompts") },
		ElicitationCompleteHandler: func(_ context.Context, req *mcp.ElicitationCompleteNotificationRequest) {
			l.completed.add(req.Params.ElicitationID)
		},
	})
	client.AddRoots(&mcp.Root{URI: "file:///home/demo/project", Name: "project"}, &mcp.Root{URI: "file:///srv/data"})
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	l.cs = cs
	t.Cleanup(func() { cs.Close() })
	return l
}

// call calls a tool and remembers that it was exercised.
func (l *legacyClient) call(name string, args map[string]any, meta mcp.Meta) (*mcp.CallToolResult, error) {
	l.called[name] = true
	if args == nil {
		args = map[string]any{}
	}
	return l.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args, Meta: meta})
}

// text calls a tool that must succeed and returns its text.
func (l *legacyClient) text(name string, args map[string]any) string {
	l.t.Helper()
	res, err := l.call(name, args, nil)
	if err != nil {
		l.t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		l.t.Fatalf("%s: tool error %v", name, contentText(res.Content))
	}
	return contentText(res.Content)
}

func contentText(cs []mcp.Content) string {
	var parts []string
	for _, c := range cs {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func TestLegacyEveryTool(t *testing.T) {
	t.Parallel()
	l := startLegacy(t, "2025-11-25")
	ctx := context.Background()
	init := l.cs.InitializeResult()
	if init.ProtocolVersion != "2025-11-25" || init.ServerInfo.Name != "mcptui-demo" || init.Capabilities.Completions == nil ||
		init.Capabilities.Resources == nil || !init.Capabilities.Resources.Subscribe || !strings.Contains(init.Instructions, "sample_with_tools") {
		t.Fatalf("initialize: %+v", init)
	}

	t.Run("basics", func(t *testing.T) {
		if got := l.text("echo", map[string]any{"message": "hi there"}); got != "hi there" {
			t.Errorf("echo: %q", got)
		}
		res, err := l.call("fail", nil, nil)
		if err != nil || !res.IsError || contentText(res.Content) != "The demo tool failed on purpose." {
			t.Errorf("fail: %v %+v", err, res)
		}
		_, err = l.call("rpc_error", map[string]any{"code": -32099, "message": "nope"}, nil)
		var rpcErr *jsonrpc.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != -32099 || rpcErr.Message != "nope" {
			t.Errorf("rpc_error: %v", err)
		}
		_, err = l.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "demo://colors/nope"})
		if !errors.As(err, &rpcErr) || rpcErr.Code != -32002 {
			t.Errorf("a missing resource on 2025-11-25 should be -32002: %v", err)
		}
	})

	t.Run("content", func(t *testing.T) {
		res, err := l.call("image", nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		img := res.Content[1].(*mcp.ImageContent)
		if cfg, err := png.DecodeConfig(bytes.NewReader(img.Data)); err != nil || cfg.Width != 64 || img.MIMEType != "image/png" {
			t.Errorf("image: %v %+v %s", err, cfg, img.MIMEType)
		}
		if got := l.text("large", map[string]any{"bytes": 100_000}); len(got) != 100_000 {
			t.Errorf("large: %d bytes", len(got))
		}
		res, err = l.call("structured", map[string]any{"city": "Lisbon"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		sc, _ := res.StructuredContent.(map[string]any)
		if sc["city"] != "Lisbon" || len(sc["forecast"].([]any)) != 3 || sc["humidityPct"] == nil {
			t.Errorf("structured: %v", res.StructuredContent)
		}
		if got := l.text("hostile", nil); !strings.Contains(got, "\x1b[2J") {
			t.Errorf("hostile: %q", got)
		}
		l.logs.waitFor(t, "the hostile log message", func(ls []*mcp.LoggingMessageParams) bool {
			return slices.ContainsFunc(ls, func(p *mcp.LoggingMessageParams) bool { return strings.HasPrefix(p.Logger, "demo.hostile") })
		})
		l.text("chatter", map[string]any{"lines": 5})
		l.stderr.waitLine(t, "TRACE a very long line")
	})

	t.Run("progress", func(t *testing.T) {
		got := l.text("progress", map[string]any{"steps": 5, "intervalMs": 1})
		if got == "" || !strings.Contains(got, "no progressToken") {
			t.Errorf("progress without token: %q", got)
		}
		res, err := l.call("progress", map[string]any{"steps": 5, "intervalMs": 1}, mcp.Meta{"progressToken": "p-legacy"})
		if err != nil || !strings.Contains(contentText(res.Content), "sent 5 progress notifications") {
			t.Fatalf("progress: %v %v", err, res)
		}
		l.progress.waitFor(t, "5 progress notifications", func(ps []*mcp.ProgressNotificationParams) bool {
			n := 0
			for _, p := range ps {
				if p.ProgressToken == "p-legacy" && p.Total == 5 && p.Message != "" {
					n++
				}
			}
			return n == 5
		})
		res, err = l.call("burst", map[string]any{"count": 50, "kind": "log"}, nil)
		if err != nil || !strings.Contains(contentText(res.Content), "so 50 of 50 went out") {
			t.Fatalf("burst: %v %v", err, res)
		}
		l.logs.waitFor(t, "50 burst logs", func(ls []*mcp.LoggingMessageParams) bool {
			n := 0
			for _, p := range ls {
				if p.Logger == "demo.burst" {
					n++
				}
			}
			return n == 50
		})
	})

	t.Run("cancel", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		errc := make(chan error, 1)
		l.called["slow"] = true
		go func() {
			_, err := l.cs.CallTool(cctx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"seconds": 60}, Meta: mcp.Meta{"progressToken": "slow"}})
			errc <- err
		}()
		l.progress.waitFor(t, "progress from slow", func(ps []*mcp.ProgressNotificationParams) bool {
			return slices.ContainsFunc(ps, func(p *mcp.ProgressNotificationParams) bool { return p.ProgressToken == "slow" })
		})
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled slow: %v", err)
		}
		l.stderr.waitLine(t, "slow: cancelled after")
	})

	t.Run("logging", func(t *testing.T) {
		got := l.text("log", map[string]any{"logger": "before-setlevel"})
		if !strings.Contains(got, `level is "debug", so 8 of 8`) {
			t.Errorf("log: %q", got)
		}
		l.logs.waitFor(t, "8 levels", func(ls []*mcp.LoggingMessageParams) bool {
			return len(filterLogs(ls, "before-setlevel")) == 8
		})
		if err := l.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "error"}); err != nil {
			t.Fatal(err)
		}
		if got := l.text("log", map[string]any{"logger": "after-setlevel"}); !strings.Contains(got, "4 of 8") {
			t.Errorf("log after setLevel: %q", got)
		}
		got2 := l.logs.waitFor(t, "4 levels", func(ls []*mcp.LoggingMessageParams) bool {
			return len(filterLogs(ls, "after-setlevel")) == 4
		})
		if lv := filterLogs(got2, "after-setlevel"); lv[0].Level != "error" || lv[3].Level != "emergency" {
			t.Errorf("levels after setLevel: %v", lv)
		}
		// A level that is not one of the eight is invalid params.
		var rpcErr *jsonrpc.Error
		if err := l.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "nonsense"}); !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("setLevel nonsense: %v, want -32602", err)
		}
		l.cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"})
	})

	t.Run("asking", func(t *testing.T) {
		got := l.text("elicit_form", nil)
		for _, want := range []string{"accepted and sent 13 fields", `toppings = ["cheese","olives"] (array)`, `meeting = "2026-12-01T10:00:00Z" (string)`, "newsletter = false (boolean)"} {
			if !strings.Contains(got, want) {
				t.Errorf("elicit_form answer %q lacks %q", got, want)
			}
		}
		got = l.text("elicit_url", nil)
		urls := l.elicitations.waitFor(t, "the URL elicitation", func(es []*mcp.ElicitParams) bool {
			return slices.ContainsFunc(es, func(e *mcp.ElicitParams) bool { return e.Mode == "url" })
		})
		id := urls[slices.IndexFunc(urls, func(e *mcp.ElicitParams) bool { return e.Mode == "url" })].ElicitationID
		if id == "" || !strings.Contains(got, "notifications/elicitation/complete for elicitation "+id) {
			t.Errorf("elicit_url: id %q, answer %q", id, got)
		}
		l.completed.waitFor(t, "elicitation/complete", func(ids []string) bool { return slices.Contains(ids, id) })

		if got := l.text("sample", nil); got != "The model \"test-model\" replied (stop reason \"endTurn\"):\nTerminals hum softly" {
			t.Errorf("sample: %q", got)
		}
		got = l.text("sample_with_tools", nil)
		for _, want := range []string{
			`round 1: the model called get_weather({"city":"Lisbon"})`,
			`round 1: the model called get_time({"timezone":"Europe/Lisbon"})`,
			`round 2: the model "test-model" answered: Sunny at 14:05 (3 messages seen).`,
		} {
			if !strings.Contains(got, want) {
				t.Errorf("sample_with_tools %q lacks %q", got, want)
			}
		}
		if got := l.text("roots", nil); !strings.Contains(got, "file:///home/demo/project (project)") || !strings.Contains(got, "file:///srv/data") {
			t.Errorf("roots: %q", got)
		}
		pr, err := l.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "interview", Arguments: map[string]string{"topic": "MCP"}})
		if err != nil || !strings.Contains(pr.Messages[0].Content.(*mcp.TextContent).Text, "I am a student") {
			t.Errorf("interview: %v %+v", err, pr)
		}
		rr, err := l.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: secretURI})
		if err != nil || rr.Contents[0].Text != "The secret is 42." {
			t.Errorf("secret: %v %+v", err, rr)
		}
	})

	t.Run("changes", func(t *testing.T) {
		if err := l.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: counterURI}); err != nil {
			t.Fatal(err)
		}
		if got := l.text("bump", nil); !strings.Contains(got, "is now 1") {
			t.Errorf("bump: %q", got)
		}
		l.updated.waitFor(t, "counter update", func(us []string) bool { return slices.Contains(us, counterURI) })
		if err := l.cs.Subscribe(ctx, &mcp.SubscribeParams{URI: clockURI}); err != nil {
			t.Fatal(err)
		}
		l.updated.waitFor(t, "two clock ticks", func(us []string) bool {
			n := 0
			for _, u := range us {
				if u == clockURI {
					n++
				}
			}
			return n >= 2
		})
		if err := l.cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: clockURI}); err != nil {
			t.Fatal(err)
		}
		l.stderr.waitLine(t, "unsubscribed from demo://clock")
		for _, kind := range []string{"tool", "resource", "prompt"} {
			if got := l.text("toggle_"+kind, nil); !strings.HasPrefix(got, "Added") {
				t.Errorf("toggle_%s: %q", kind, got)
			}
			l.listChanged.waitFor(t, kind+"s list_changed", func(ks []string) bool { return slices.Contains(ks, kind+"s") })
		}
		if got := l.text("surprise", nil); !strings.Contains(got, "Surprise!") {
			t.Errorf("surprise: %q", got)
		}
	})

	t.Run("completion", func(t *testing.T) {
		res, err := l.cs.Complete(ctx, &mcp.CompleteParams{
			Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: "code_review"},
			Argument: mcp.CompleteParamsArgument{Name: "language", Value: "c"},
		})
		if err != nil || !slices.Equal(res.Completion.Values, []string{"C", "C++", "C#"}) {
			t.Errorf("complete language: %v %+v", err, res)
		}
	})

	// Every tool the server lists was called above (exit has its own test).
	for tool, err := range l.cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if !l.called[tool.Name] && tool.Name != "exit" {
			t.Errorf("tool %s was not exercised", tool.Name)
		}
	}
}

func filterLogs(ls []*mcp.LoggingMessageParams, logger string) []*mcp.LoggingMessageParams {
	var out []*mcp.LoggingMessageParams
	for _, l := range ls {
		if l.Logger == logger {
			out = append(out, l)
		}
	}
	return out
}

// TestLegacy20250618 checks what the demo leaves out for 2025-06-18.
func TestLegacy20250618(t *testing.T) {
	t.Parallel()
	l := startLegacy(t, "2025-06-18")
	if v := l.cs.InitializeResult().ProtocolVersion; v != "2025-06-18" {
		t.Fatalf("negotiated %s", v)
	}
	got := l.text("elicit_form", nil)
	if !strings.Contains(got, "accepted and sent 10 fields") {
		t.Errorf("elicit_form: %q", got)
	}
	form := l.elicitations.snapshot()[0].RequestedSchema.(map[string]any)["properties"].(map[string]any)
	for _, absent := range []string{"size", "toppings", "languages"} {
		if form[absent] != nil {
			t.Errorf("2025-06-18 form has %s", absent)
		}
	}
	if form["plan"].(map[string]any)["enumNames"] == nil || form["name"].(map[string]any)["default"] != nil {
		t.Errorf("2025-06-18 form: plan %v, name %v", form["plan"], form["name"])
	}
	for _, tool := range []string{"elicit_url", "sample_with_tools"} {
		res, err := l.call(tool, nil, nil)
		if err != nil || !res.IsError || !strings.Contains(contentText(res.Content), "2025-11-25") {
			t.Errorf("%s on 2025-06-18: %v %+v", tool, err, res)
		}
	}
	if got := l.text("sample", nil); !strings.Contains(got, "Terminals hum softly") {
		t.Errorf("sample: %q", got)
	}
}

// TestLegacyBareClientAndExit: a client that declares no capabilities gets
// tool errors (or fallbacks) instead of questions; then the exit tool ends
// the process with the asked status.
func TestLegacyBareClientAndExit(t *testing.T) {
	t.Parallel()
	cmd, stderr := childCommand(t)
	client := mcp.NewClient(&mcp.Implementation{Name: "demo-test", Version: "0"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for tool, want := range map[string]string{
		"sample": "sampling", "sample_with_tools": "sampling, sampling.tools", "roots": "roots",
		"elicit_form": "elicitation.form", "elicit_url": "elicitation.url",
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
		if err != nil || !res.IsError || !strings.Contains(contentText(res.Content), "client capability "+want+",") {
			t.Errorf("%s without capabilities: %v %+v", tool, err, res)
		}
	}
	pr, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "interview"})
	if err != nil || !strings.Contains(pr.Messages[0].Content.(*mcp.TextContent).Text, "preferred not to say") {
		t.Errorf("interview without elicitation: %v %+v", err, pr)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: secretURI})
	if err != nil || !strings.Contains(rr.Contents[0].Text, "secret stays secret") {
		t.Errorf("secret without elicitation: %v %+v", err, rr)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "exit", Arguments: map[string]any{"status": 5}}); err == nil {
		t.Errorf("exit answered")
	}
	cs.Close()
	if code := cmd.ProcessState.ExitCode(); code != 5 {
		t.Errorf("exit status %d, want 5", code)
	}
	stderr.waitLine(t, "exiting with status 5")
}

// TestLegacyInitializeWithNewVersion: a client that puts 2026-07-28 in
// initialize gets 2025-11-25, and then server-to-client requests, not
// input_required results.
func TestLegacyInitializeWithNewVersion(t *testing.T) {
	t.Parallel()
	c := startRaw(t)
	res := c.call("initialize", map[string]any{
		"protocolVersion": "2026-07-28",
		"capabilities":    map[string]any{"elicitation": map[string]any{}},
		"clientInfo":      map[string]any{"name": "raw", "version": "0"},
	})
	if res["protocolVersion"] != "2025-11-25" {
		t.Fatalf("initialize: %v", res)
	}
	c.send(map[string]any{"method": "notifications/initialized"})
	id := c.request("tools/call", map[string]any{"name": "elicit_form", "arguments": map[string]any{}})
	var serverReq map[string]any
	c.msgs.waitFor(t, "elicitation/create from the server", func(ms []map[string]any) bool {
		for _, m := range ms {
			if m["method"] == "elicitation/create" && m["id"] != nil {
				serverReq = m
				return true
			}
		}
		return false
	})
	if path(serverReq, "params", "requestedSchema", "properties", "toppings") == nil {
		t.Errorf("2025-11-25 form lacks multi-select: %v", serverReq)
	}
	c.send(map[string]any{"id": serverReq["id"], "result": map[string]any{"action": "cancel"}})
	if got := textOf(c.response(id)["result"].(map[string]any)); !strings.Contains(got, `"cancel"`) {
		t.Errorf("elicit_form after cancel: %q", got)
	}
	// A legacy session answers ping (2026-07-28 removed it).
	if res := c.call("ping", map[string]any{}); len(res) != 0 {
		t.Errorf("ping: %v", res)
	}
}
