package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveOldSample is a go-sdk server whose one tool asks its sampling
// question as a request of its own, the pre-2026 way: on a 2026-07-28
// session its SDK refuses, and the refusal is the tool's error.
func serveOldSample(ctx context.Context) int {
	s := sdk.NewServer(&sdk.Implementation{Name: "oldsample", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "oldsample"}, func(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		r, err := req.Session.CreateMessage(ctx, &sdk.CreateMessageParams{MaxTokens: 5,
			Messages: []*sdk.SamplingMessage{{Role: "user", Content: &sdk.TextContent{Text: "2+2?"}}}})
		if err != nil {
			return nil, nil, err
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "sampled by " + r.Model}}}, nil, nil
	})
	if err := s.Run(ctx, &sdk.StdioTransport{}); err != nil && ctx.Err() == nil {
		fmt.Fprintln(os.Stderr, "oldsample:", err)
		return 1
	}
	return 0
}

// The refusal of a server's SDK to ask a question the pre-2026 way on a
// 2026-07-28 session is explained with the version that works; at that
// version the same tool samples.
func TestOldStyleQuestionExplained(t *testing.T) {
	r := run(t, args("call", "oldsample", server("oldsample"))...)
	f := r.failure(t)
	if r.code != ExitTool || f.Kind != KindTool {
		t.Fatalf("exit %d %+v", r.code, f)
	}
	for _, want := range []string{"cannot be sent", "asked sampling/createMessage as a request of its own", "Reconnect at 2025-11-25", "--protocol 2025-11-25"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message %q lacks %q", f.Message, want)
		}
	}
	r = run(t, args("call", "oldsample", "--protocol", "2025-11-25", "--answer", "sampling=text:4", server("oldsample"))...)
	if r.code != 0 || !strings.Contains(r.stdout, "sampled by") {
		t.Errorf("at 2025-11-25: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// In a script, the failed step says the same.
func TestOldStyleQuestionExplainedInScript(t *testing.T) {
	script := writeFile(t, "old.mcpt", "call oldsample\n")
	r := run(t, args("run", script, "--format", "json", server("oldsample"))...)
	var rep ScriptReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || len(rep.Steps) != 1 {
		t.Fatalf("%v\n%s\n%s", err, r.stdout, r.stderr)
	}
	if got := strings.Join(rep.Steps[0].Failures, "; "); !strings.Contains(got, "Reconnect at 2025-11-25") {
		t.Errorf("failures %q", got)
	}
}
