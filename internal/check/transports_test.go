package check

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/check/rules"
	"github.com/mcptui/mcptui/internal/testkit/everything"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Every rule runs over every transport: the whole rule set against the
// everything server on Streamable HTTP (with a session) and HTTP+SSE (on
// stdio: TestEverythingServer), and against go-sdk's stateless Streamable HTTP handler (the
// everything server has no stateless mode). One server per transport; the
// check must finish with a verdict for every rule, none of them a crash of
// mcptui's own, and no rule reaching for a stdio-only handle.
func TestEveryRuleOverEveryTransport(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		start func(t *testing.T) (string, []string)
		// era is the revision the check must negotiate.
		era string
		// known are the MUST findings the server really has.
		known []string
	}{
		// The everything server answers a foreign Origin with 200 in both
		// HTTP modes (http.origin; the conformance suite finds it too).
		{"streamable-http", func(t *testing.T) (string, []string) {
			return everything.HTTPServer(t, "streamableHttp"), nil
		}, "2025-11-25", []string{"http.origin"}},
		{"sse", func(t *testing.T) (string, []string) { return everything.HTTPServer(t, "sse"), nil }, "2025-11-25", []string{"http.origin"}},
		// go-sdk 1.8.0's handler serves a foreign Origin (http.origin).
		{"stateless-http", func(t *testing.T) (string, []string) { return statelessServer(t), nil }, "2026-07-28", []string{"http.origin"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmd, args := tc.start(t)
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			o := Options{Command: cmd, Args: args, Timeout: 30 * time.Second,
				Sampling: declineAll, ElicitForm: declineAll, ElicitURL: declineAll, Roots: declineAll}
			rep := Run(ctx, o)
			if rep.Error != "" || len(rep.Eras) != 1 {
				t.Fatalf("check: %q, eras %+v", rep.Error, rep.Eras)
			}
			e := &rep.Eras[0]
			if e.Era != tc.era || e.Error != "" {
				t.Fatalf("era %s (%q), want %s", e.Era, e.Error, tc.era)
			}
			want := len(rules.ForEra(e.Era))
			if len(e.Results) != want {
				t.Errorf("%d results, want one per rule of %s (%d)", len(e.Results), e.Era, want)
			}
			passed := 0
			for _, res := range e.Results {
				if res.Status == "" {
					t.Errorf("%s has no verdict", res.ID)
				}
				for _, s := range res.Seen {
					if strings.Contains(s, "mcptui check itself crashed") || strings.Contains(s, "server exited") {
						t.Errorf("%s: %s", res.ID, s)
					}
				}
				if res.Status == Failed && res.Rule.Level == rules.Must && !slices.Contains(tc.known, res.ID) {
					t.Errorf("MUST %s failed: %v", res.ID, res.Seen)
				}
				if res.Status == Passed {
					passed++
				}
			}
			if r := resultOf(e, "tools.call-result"); r == nil || r.Status != Passed {
				t.Errorf("no read-only tool was called: %+v", r)
			}
			if r := resultOf(e, "transport.exit-on-eof"); r == nil || r.Status != Skipped {
				t.Errorf("transport.exit-on-eof: %+v", r)
			}
			t.Logf("%s: %d of %d rules passed in %d ms", tc.name, passed, len(e.Results), rep.Millis)
		})
	}
}

// statelessServer serves a small go-sdk server with its stateless
// Streamable HTTP handler and returns the URL.
func statelessServer(t *testing.T) string {
	s := sdk.NewServer(&sdk.Implementation{Name: "gosdk-stateless", Version: "1.8.0-test"}, nil)
	type echoArgs struct {
		Text string `json:"text" jsonschema:"the text to echo"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echoes its text.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(ctx context.Context, req *sdk.CallToolRequest, a echoArgs) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: a.Text}}}, nil, nil
		})
	s.AddPrompt(&sdk.Prompt{Name: "greet", Description: "A greeting."}, func(ctx context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		return &sdk.GetPromptResult{Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{Text: "hello"}}}}, nil
	})
	s.AddResource(&sdk.Resource{URI: "test://hello", Name: "hello", MIMEType: "text/plain"}, func(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
		return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: "test://hello", MIMEType: "text/plain", Text: "hello"}}}, nil
	})
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}
