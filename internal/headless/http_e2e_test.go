package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcptui/mcptui/internal/testkit/tmuxtest"
)

// The real binary's headless commands against go-sdk's streamable HTTP
// handler running in this test process on 127.0.0.1.
func TestHTTPHeadlessThroughTheBinary(t *testing.T) {
	bin := tmuxtest.Build(t)
	s := sdk.NewServer(&sdk.Implementation{Name: "gosdk-http", Version: "1"}, nil)
	type echoIn struct {
		Message string `json:"message"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "echoes"}, func(_ context.Context, _ *sdk.CallToolRequest, in echoIn) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "echo: " + in.Message}}}, nil, nil
	})
	s.AddTool(&sdk.Tool{Name: "progress", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		for i := 1; i <= 3; i++ {
			_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: float64(i), Total: 3})
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "progressed"}}}, nil
	})
	var mu sync.Mutex
	var auth []string
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/mcp" {
			http.NotFound(w, r)
			return
		}
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	url := srv.URL + "/mcp"
	rec := filepath.Join(t.TempDir(), "rec.jsonl")

	run := func(args ...string) ran {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), bin, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		return ran{code: code, stdout: stdout.String(), stderr: stderr.String()}
	}

	r := run("tools", "--header", "Authorization: Bearer s3cret-token", "--record", rec, url)
	if r.code != 0 || !strings.Contains(r.stdout, `"echo"`) || !strings.Contains(r.stdout, `"progress"`) {
		t.Fatalf("mcptui tools URL: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	mu.Lock()
	for i, a := range auth {
		if a != "Bearer s3cret-token" {
			t.Errorf("request %d carried Authorization %q", i, a)
		}
	}
	mu.Unlock()
	recorded, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(recorded, []byte("s3cret")) {
		t.Error("the recording holds the header's secret")
	}
	if !bytes.Contains(recorded, []byte("http POST 200")) {
		t.Errorf("the recording has no HTTP exchange lines:\n%s", recorded)
	}
	// The exchanges are entries of their own too (mcptui export's HAR
	// shows them as they happened).
	if !bytes.Contains(recorded, []byte(`"type":"http",`)) || !bytes.Contains(recorded, []byte(`"httpStatus":200`)) ||
		!bytes.Contains(recorded, []byte(`"type":"http-end",`)) || !bytes.Contains(recorded, []byte(`"rpcMethod":"tools/list"`)) {
		t.Errorf("the recording has no http entries:\n%s", recorded)
	}

	r = run("call", "echo", "--arg", "message=hi", "--", url)
	if r.code != 0 || !strings.Contains(r.stdout, "echo: hi") {
		t.Fatalf("mcptui call echo -- URL: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = run("call", "progress", url)
	if r.code != 0 || !strings.Contains(r.stdout, "progressed") {
		t.Fatalf("mcptui call progress URL: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = run("tools", fmt.Sprintf("http://%s/nowhere", srv.Listener.Addr()))
	if r.code != 3 || !strings.Contains(r.stderr, "404") {
		t.Errorf("a 404 path: exit %d, want 3\nstderr %s", r.code, r.stderr)
	}
	t.Logf("a 404 path: %s", r.stderr)
}
