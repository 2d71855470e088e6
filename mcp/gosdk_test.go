package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/conn"
)

// A real, independent server: github.com/modelcontextprotocol/go-sdk
// v1.8.0, run in the helper process over its stdio transport. Its argument
// narrows the protocol versions it speaks ("" = all it knows, 2026-07-28
// included).

func init() {
	fakes["gosdk"] = func(f *fake) { runGoSDKServer(versionsArg(f.arg)) }
}

func runGoSDKServer(versions []string) {
	s := sdk.NewServer(&sdk.Implementation{Name: "gosdk-fake", Version: "1.8.0-test"}, &sdk.ServerOptions{
		Instructions:              "a go-sdk server",
		SupportedProtocolVersions: versions,
		Capabilities: &sdk.ServerCapabilities{
			Logging: &sdk.LoggingCapabilities{},
			Tools:   &sdk.ToolCapabilities{ListChanged: true},
		},
		SubscribeHandler:   func(context.Context, *sdk.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *sdk.UnsubscribeRequest) error { return nil },
		CompletionHandler: func(_ context.Context, req *sdk.CompleteRequest) (*sdk.CompleteResult, error) {
			return &sdk.CompleteResult{Completion: sdk.CompletionResultDetails{
				Values: []string{req.Params.Argument.Value + "-one", req.Params.Argument.Value + "-two"}, Total: 2}}, nil
		},
	})
	type echoIn struct {
		Message string `json:"message"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "echoes"}, func(_ context.Context, req *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{
			Text: fmt.Sprintf("%s (protocol %s)", in.Message, req.ProtocolVersion())}}}, nil, nil
	})
	schema := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&sdk.Tool{Name: "ask", InputSchema: schema}, func(_ context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		if req.Params.InputResponses == nil {
			return &sdk.CallToolResult{
				InputRequests: sdk.InputRequestMap{
					"name": &sdk.ElicitParams{Mode: "form", Message: "Your name?",
						RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)},
					"model": &sdk.CreateMessageParams{MaxTokens: 5, Messages: []*sdk.SamplingMessage{
						{Role: "user", Content: &sdk.TextContent{Text: "2+2?"}}}},
					"roots": &sdk.ListRootsParams{},
				},
				RequestState: "state-1",
			}, nil
		}
		var parts []string
		for k, v := range req.Params.InputResponses {
			b, _ := json.Marshal(v)
			parts = append(parts, k+"="+string(b))
		}
		slices.Sort(parts)
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{
			Text: "state " + req.Params.RequestState + "; " + strings.Join(parts, "; ")}}}, nil
	})
	// oldsample asks its question the pre-2026 way, as a request of its
	// own: its SDK refuses that on a 2026-07-28 session.
	sdk.AddTool(s, &sdk.Tool{Name: "oldsample"}, func(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		r, err := req.Session.CreateMessage(ctx, &sdk.CreateMessageParams{MaxTokens: 5, Messages: []*sdk.SamplingMessage{
			{Role: "user", Content: &sdk.TextContent{Text: "2+2?"}}}})
		if err != nil {
			return nil, nil, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "sampled " + r.Model}}}, nil, nil
	})
	s.AddTool(&sdk.Tool{Name: "progress", InputSchema: schema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		for i := 1; i <= 3; i++ {
			_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
				ProgressToken: req.Params.GetProgressToken(), Progress: float64(i), Total: 3, Message: fmt.Sprintf("step %d", i)})
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "progressed"}}}, nil
	})
	s.AddTool(&sdk.Tool{Name: "log", InputSchema: schema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		_ = req.Session.Log(ctx, &sdk.LoggingMessageParams{Level: "warning", Logger: "gosdk", Data: "careful"})
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "logged"}}}, nil
	})
	var added sync.Once
	s.AddTool(&sdk.Tool{Name: "add-tool", InputSchema: schema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		added.Do(func() {
			s.AddTool(&sdk.Tool{Name: "added", InputSchema: schema}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return &sdk.CallToolResult{}, nil
			})
		})
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "added"}}}, nil
	})
	s.AddTool(&sdk.Tool{Name: "touch", InputSchema: schema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		_ = s.ResourceUpdated(ctx, &sdk.ResourceUpdatedNotificationParams{URI: "file:///doc.txt"})
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "touched"}}}, nil
	})
	s.AddPrompt(&sdk.Prompt{Name: "greet", Arguments: []*sdk.PromptArgument{{Name: "name", Required: true}}},
		func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
			return &sdk.GetPromptResult{Description: "greeting", Messages: []*sdk.PromptMessage{
				{Role: "user", Content: &sdk.TextContent{Text: "Hello " + req.Params.Arguments["name"]}}}}, nil
		})
	s.AddResource(&sdk.Resource{URI: "file:///doc.txt", Name: "doc", MIMEType: "text/plain"},
		func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "the doc"}}}, nil
		})
	s.AddResourceTemplate(&sdk.ResourceTemplate{URITemplate: "file:///docs/{name}", Name: "docs"},
		func(_ context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, Text: "a doc"}}}, nil
		})
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "gosdk server:", err)
	}
}

// goSDKSession connects to the go-sdk server and exercises everything that
// both eras share; it returns the client for era-specific checks.
func goSDKSession(t *testing.T, arg string, setup func(*fakeSetup)) (*fakeSetup, *Client, *answers, *[]Notification, *sync.Mutex) {
	t.Helper()
	a := newAnswers()
	var mu sync.Mutex
	var notes []Notification
	s := newFake(t, "gosdk", arg)
	a.all(&s.opts)
	s.opts.OnNotification = func(n Notification) { mu.Lock(); notes = append(notes, n); mu.Unlock() }
	if setup != nil {
		setup(s)
	}
	c := s.mustConnect(testCtx(t))
	ctx := testCtx(t)
	v := c.Version()

	sess := c.Session()
	if sess.Server.Name != "gosdk-fake" || sess.Instructions != "a go-sdk server" || sess.Capabilities.Tools == nil {
		t.Errorf("session %+v", sess)
	}
	tools, err := c.ListTools(ctx)
	if err != nil || len(tools.Items) != 7 {
		t.Fatalf("tools %+v %v", tools.Items, err)
	}
	echo, err := c.CallTool(ctx, "echo", map[string]string{"message": "hi"})
	if err != nil || echo.Content[0].Text != "hi (protocol "+v+")" {
		t.Errorf("echo %+v %v", echo, err)
	}

	// The same answerers serve input_required rounds (2026-07-28) and
	// server-to-client requests (initialize era).
	ask, err := c.CallTool(ctx, "ask", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	want := `state state-1; model={"content":{"type":"text","text":"4"},"model":"a-person","role":"assistant","stopReason":"endTurn"}; ` +
		`name={"action":"accept","content":{"name":"octocat"}}; roots={"roots":[{"name":"proj","uri":"file:///home/u/proj"}]}` // re-marshalled by the SDK
	if got := ask.Content[0].Text; got != want {
		t.Errorf("ask result\n%s\nwant\n%s", got, want)
	}
	kinds := map[QuestionKind]bool{}
	for _, q := range a.asked() {
		kinds[q.Kind] = true
	}
	if len(kinds) != 3 || !kinds[KindSampling] || !kinds[KindElicitForm] || !kinds[KindRoots] {
		t.Errorf("questions %v", a.asked())
	}

	var steps []string
	prog, err := c.CallTool(ctx, "progress", nil, WithProgress(func(p conn.Progress) error {
		steps = append(steps, p.Message)
		return nil
	}))
	if err != nil || prog.Content[0].Text != "progressed" || strings.Join(steps, ",") != "step 1,step 2,step 3" {
		t.Errorf("progress %v %v %v", prog, steps, err)
	}

	if err := c.SetLogLevel(ctx, "info"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CallTool(ctx, "log", nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	var logs []LogMessage
	for _, n := range notes {
		if n.Method == NotificationMessage {
			lm, _ := DecodeLogMessage(n)
			logs = append(logs, lm)
		}
	}
	mu.Unlock()
	if len(logs) != 1 || logs[0].Level != "warning" || logs[0].Logger != "gosdk" || string(logs[0].Data) != `"careful"` {
		t.Errorf("log messages %+v", logs)
	}

	p, err := c.GetPrompt(ctx, "greet", map[string]string{"name": "Ada"})
	if err != nil || p.Messages[0].Content.Text != "Hello Ada" {
		t.Errorf("prompt %+v %v", p, err)
	}
	prompts, err := c.ListPrompts(ctx)
	if err != nil || len(prompts.Items) != 1 || prompts.Items[0].Arguments[0].Name != "name" || !prompts.Items[0].Arguments[0].Required {
		t.Errorf("prompts %+v %v", prompts, err)
	}
	res, err := c.ReadResource(ctx, "file:///doc.txt")
	if err != nil || *res.Contents[0].Text != "the doc" {
		t.Errorf("read %+v %v", res, err)
	}
	resources, err := c.ListResources(ctx)
	if err != nil || len(resources.Items) != 1 || resources.Items[0].MIMEType != "text/plain" {
		t.Errorf("resources %+v %v", resources, err)
	}
	templates, err := c.ListResourceTemplates(ctx)
	if err != nil || len(templates.Items) != 1 || templates.Items[0].URITemplate != "file:///docs/{name}" {
		t.Errorf("templates %+v %v", templates, err)
	}
	comp, err := c.Complete(ctx, PromptRef("greet"), "name", "A", nil)
	if err != nil || strings.Join(comp.Values, ",") != "A-one,A-two" {
		t.Errorf("complete %+v %v", comp, err)
	}

	sub, err := c.Listen(ctx, Filter{ToolsListChanged: true, ResourceSubscriptions: []string{"file:///doc.txt"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(sub.Accepted()); got != `{"toolsListChanged":true,"resourceSubscriptions":["file:///doc.txt"]}` {
		t.Errorf("accepted %s", got)
	}
	if _, err := c.CallTool(ctx, "touch", nil); err != nil {
		t.Fatal(err)
	}
	if n, err := sub.Next(ctx); err != nil || n.Method != NotificationResourceUpdated || !strings.Contains(string(n.Params), "file:///doc.txt") {
		t.Errorf("update event %v %v", n, err)
	}
	if _, err := c.CallTool(ctx, "add-tool", nil); err != nil {
		t.Fatal(err)
	}
	if n, err := sub.Next(ctx); err != nil || n.Method != NotificationToolsChanged {
		t.Errorf("list-changed event %v %v", n, err)
	}
	if err := sub.Close(); err != nil {
		t.Error(err)
	}
	return s, c, a, &notes, &mu
}

func TestGoSDKServer20260728(t *testing.T) {
	s, c, a, _, _ := goSDKSession(t, "", nil)
	checkNegotiation(t, s, c, Version20260728, 1, 1, StepSpawn, StepProbe)
	for _, q := range a.asked() {
		if !q.Origin.InputRequired() || q.Origin.Round != 1 || q.Origin.CallMethod != MethodCallTool {
			t.Errorf("question %+v did not come from an input_required round", q)
		}
	}
	var asks []*msg
	for _, m := range s.wire.sent(MethodCallTool) {
		if m.str("name") == "ask" {
			asks = append(asks, m)
		}
	}
	if len(asks) != 2 || string(asks[1].param("requestState")) != `"state-1"` || asks[0].param("requestState") != nil {
		t.Errorf("ask messages: %d", len(asks))
	}
	if len(s.wire.sent(MethodSetLevel)) != 0 || len(s.wire.sent(MethodSubscribe)) != 0 || len(s.wire.sent(MethodListen)) != 1 {
		t.Error("initialize-era methods used on 2026-07-28")
	}
	if err := c.Ping(testCtx(t)); errCode(t, err).Code != CodeMethodNotFound {
		t.Errorf("ping: %v", err)
	}
	if dr, err := c.Discover(testCtx(t)); err != nil || !slices.Contains(dr.SupportedVersions, Version20251125) {
		t.Errorf("discover %+v %v", dr, err)
	}
}

func TestGoSDKServer20251125(t *testing.T) {
	// Told to speak only 2025-11-25, the go-sdk answers the probe with
	// -32022 naming it: the client initializes on the same process.
	s, c, a, _, _ := goSDKSession(t, Version20251125, nil)
	checkNegotiation(t, s, c, Version20251125, 1, 1, StepSpawn, StepProbe, StepInitialize, StepInitialized)
	if e := errCode(t, c.Negotiation().Steps[1].Err); e.Code != CodeUnsupportedVersion {
		t.Errorf("probe answer %v", e)
	}
	for _, q := range a.asked() {
		if q.Origin.InputRequired() || q.Origin.RequestID == nil {
			t.Errorf("question %+v did not come as a server request", q)
		}
	}
	if len(s.wire.sent(MethodSetLevel)) != 1 || len(s.wire.sent(MethodSubscribe)) != 1 || len(s.wire.sent(MethodListen)) != 0 {
		t.Error("the initialize-era subscription and log level were not used")
	}
	if err := c.Ping(testCtx(t)); err != nil {
		t.Errorf("ping: %v", err)
	}
}

func TestGoSDKServerPinned(t *testing.T) {
	s, c, _, _, _ := goSDKSession(t, "", func(s *fakeSetup) { s.opts.Versions = []string{Version20251125} })
	checkNegotiation(t, s, c, Version20251125, 0, 1, StepSpawn, StepInitialize, StepInitialized)
}

// A go-sdk server that asks its sampling question as a request on a
// 2026-07-28 session gets its own SDK's refusal as the tool's error; the
// explanation names what happened and the version that works, where the
// same tool samples as a request.
func TestGoSDKOldStyleSampling(t *testing.T) {
	for _, tc := range []struct {
		arg, version string
	}{{"", Version20260728}, {Version20251125, Version20251125}} {
		t.Run(tc.version, func(t *testing.T) {
			_, c, _, _, _ := goSDKSession(t, tc.arg, nil)
			r, err := c.CallTool(testCtx(t), "oldsample", nil)
			if err != nil {
				t.Fatal(err)
			}
			text := ""
			if len(r.Content) > 0 {
				text = r.Content[0].Text
			}
			why := ExplainOldStyleQuestion(c.Version(), c.Session().Offered, text)
			if tc.version == Version20251125 {
				if r.IsError || why != "" {
					t.Errorf("on %s: isError %v %q, explained %q", tc.version, r.IsError, text, why)
				}
				return
			}
			if !r.IsError || !strings.Contains(text, "cannot be sent") {
				t.Fatalf("the SDK's refusal changed: isError %v %q", r.IsError, text)
			}
			for _, want := range []string{"sampling/createMessage", "input_required", "Reconnect at 2025-11-25"} {
				if !strings.Contains(why, want) {
					t.Errorf("explanation %q lacks %q", why, want)
				}
			}
		})
	}
}
