package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/testkit/npmcache"
)

// demoRecording is a real recording (mcptui run --record, demo server,
// 2025-11-25): echo, echo of a GitHub token, progress with 3 steps, log at
// every level, sample (the server's sampling/createMessage, answered),
// chatter (12 stderr lines), rpc_error -32001, fail (isError), slow cut by
// a 1.5 s timeout (notifications/cancelled).
const demoRecording = "testdata/demo-2025-11-25.jsonl"

// httpRecording is a real recording of server-everything 2026.8.31 over
// Streamable HTTP: echo, trigger-long-running-operation (2 steps, and the
// server's roots/list), get-sum with a bad argument (isError).
const httpRecording = "testdata/everything-http.jsonl"

func demoSession(t *testing.T) *Session {
	t.Helper()
	rec, err := record.Open(demoRecording)
	if err != nil {
		t.Fatal(err)
	}
	return Build(rec)
}

func demoHAR(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteHAR(&b, demoSession(t), "test"); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

type harDoc struct {
	Log struct {
		Version string `json:"version"`
		Entries []struct {
			StartedDateTime string  `json:"startedDateTime"`
			Time            float64 `json:"time"`
			Request         struct {
				Method   string `json:"method"`
				URL      string `json:"url"`
				PostData struct {
					Text string `json:"text"`
				} `json:"postData"`
			} `json:"request"`
			Response struct {
				Status  int `json:"status"`
				Content struct {
					MimeType string `json:"mimeType"`
					Text     string `json:"text"`
				} `json:"content"`
			} `json:"response"`
			MCP harMCP `json:"_mcp"`
		} `json:"entries"`
	} `json:"log"`
}

func TestHARMapsTheSession(t *testing.T) {
	raw := demoHAR(t)
	var h harDoc
	if err := json.Unmarshal(raw, &h); err != nil {
		t.Fatal(err)
	}
	if h.Log.Version != "1.2" {
		t.Errorf("version %q", h.Log.Version)
	}
	byURL := map[string][]int{}
	for i, e := range h.Log.Entries {
		byURL[e.Request.URL] = append(byURL[e.Request.URL], i)
		if i > 0 && e.StartedDateTime < h.Log.Entries[i-1].StartedDateTime {
			t.Errorf("entry %d starts before the one before it", i)
		}
	}
	calls := byURL["mcp-stdio://mcptui/tools/call"]
	if len(calls) != 9 {
		t.Fatalf("%d tools/call entries, want 9; urls %v", len(calls), sortedKeys(byURL))
	}
	var progress, rpcErr, slow, fail bool
	for _, i := range calls {
		e := h.Log.Entries[i]
		switch {
		case strings.Contains(e.Request.PostData.Text, `"name":"progress"`):
			progress = true
			if e.Response.Content.MimeType != "text/event-stream" || strings.Count(e.Response.Content.Text, "notifications/progress") != 3 ||
				!strings.Contains(e.Response.Content.Text, `"id":4,"result"`) || e.Time < 800 {
				t.Errorf("progress entry: %s %q time %v", e.Response.Content.MimeType, e.Response.Content.Text, e.Time)
			}
		case strings.Contains(e.Request.PostData.Text, `"name":"rpc_error"`):
			rpcErr = e.Response.Status == 200 && e.MCP.Error == "-32001 boom"
		case strings.Contains(e.Request.PostData.Text, `"name":"fail"`):
			fail = e.MCP.Error == "tool_error"
		case strings.Contains(e.Request.PostData.Text, `"name":"slow"`):
			slow = e.Response.Status == 0 && e.MCP.Cancelled == "Request timed out"
		}
	}
	if !progress || !rpcErr || !slow || !fail {
		t.Errorf("progress %v, rpc_error %v, slow %v, fail %v", progress, rpcErr, slow, fail)
	}
	q := byURL["mcp-stdio://mcptui/sampling/createMessage"]
	if len(q) != 1 || h.Log.Entries[q[0]].MCP.Direction != "server-to-client" || h.Log.Entries[q[0]].Response.Status != 200 {
		t.Errorf("the server's question: %v", q)
	}
	logs := byURL["mcp-stdio://mcptui/notifications/message"]
	if len(logs) != 8 || h.Log.Entries[logs[0]].Response.Status != 202 || h.Log.Entries[logs[0]].MCP.Direction != "server-to-client" {
		t.Errorf("%d log message entries", len(logs))
	}
	if bytes.Contains(raw, []byte("ghp_AAAA")) {
		t.Error("the HAR holds the token")
	}
}

// TestHARIsValid checks the HAR against the HAR 1.2 schema with
// har-validator, the npm package that HAR readers (the request library,
// Postman's converters) validate with.
func TestHARIsValid(t *testing.T) {
	node := npmcache.Node(t, 18)
	dir := npmcache.Install(t, "har-validator-5.1.5", filepath.Join("node_modules", "har-validator", "package.json"), "har-validator@5.1.5")
	rec, err := record.Open(httpRecording)
	if err != nil {
		t.Fatal(err)
	}
	var httpHAR bytes.Buffer
	if err := WriteHAR(&httpHAR, Build(rec), "test"); err != nil {
		t.Fatal(err)
	}
	for name, har := range map[string][]byte{"stdio": demoHAR(t), "http": httpHAR.Bytes()} {
		t.Run(name, func(t *testing.T) { validHAR(t, node, dir, har) })
	}
}

func validHAR(t *testing.T, node, dir string, har []byte) {
	file := filepath.Join(t.TempDir(), "session.har")
	if err := os.WriteFile(file, har, 0o600); err != nil {
		t.Fatal(err)
	}
	script := `const v = require(process.argv[1]); const har = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));
v.har(har).then(() => console.log('valid ' + har.log.entries.length), e => { console.log(JSON.stringify(e.errors || e.message)); process.exit(1) })`
	out, err := exec.Command(node, "-e", script, npmcache.Module(dir, "har-validator"), file).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "valid ") {
		t.Fatalf("har-validator: %v: %s", err, out)
	}
	t.Logf("har-validator: %s", bytes.TrimSpace(out))
}

// TestHARofAnHTTPSession: a real recording of server-everything over
// Streamable HTTP (mcptui run --record URL): its entries are the HTTP
// exchanges as they happened (statuses, methods, headers with the
// session id cut, the SSE bodies), each tied to the message it carried.
func TestHARofAnHTTPSession(t *testing.T) {
	rec, err := record.Open(httpRecording)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteHAR(&b, Build(rec), "test"); err != nil {
		t.Fatal(err)
	}
	var h struct {
		Log struct {
			Entries []struct {
				Request struct {
					Method   string  `json:"method"`
					URL      string  `json:"url"`
					Headers  []harNV `json:"headers"`
					PostData *struct {
						Text string `json:"text"`
					} `json:"postData"`
				} `json:"request"`
				Response struct {
					Status  int `json:"status"`
					Content struct {
						MimeType string `json:"mimeType"`
						Text     string `json:"text"`
					} `json:"content"`
				} `json:"response"`
				MCP harMCP `json:"_mcp"`
			} `json:"entries"`
		} `json:"log"`
	}
	if err := json.Unmarshal(b.Bytes(), &h); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range h.Log.Entries {
		got = append(got, fmt.Sprintf("%s %d %s", e.Request.Method, e.Response.Status, e.MCP.Method))
		if e.Request.URL != "http://127.0.0.1:3917/mcp" {
			t.Errorf("url %q", e.Request.URL)
		}
		for _, hd := range e.Request.Headers {
			if hd.Name == "Mcp-Session-Id" && !strings.Contains(hd.Value, record.Redacted) {
				t.Errorf("the session id is whole: %q", hd.Value)
			}
		}
	}
	want := []string{"POST 400 server/discover", "POST 200 initialize", "POST 202 notifications/initialized", "GET 200 ",
		"POST 200 tools/call", "POST 200 tools/call", "POST 202 ", "POST 200 tools/call", "DELETE 200 "}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Fatalf("entries\n%s\nwant\n%s", strings.Join(got, "; "), strings.Join(want, "; "))
	}
	long := h.Log.Entries[5] // trigger-long-running-operation, 2 steps
	if long.Request.PostData == nil || !strings.Contains(long.Request.PostData.Text, "trigger-long-running-operation") ||
		long.Response.Content.MimeType != "text/event-stream" || strings.Count(long.Response.Content.Text, "notifications/progress") != 2 ||
		long.MCP.Messages != 3 {
		t.Errorf("the long call's entry: %+v", long)
	}
	if answer := h.Log.Entries[6]; answer.MCP.Direction != "server-to-client" || answer.MCP.Kind != "response" ||
		answer.Request.PostData == nil || !strings.Contains(answer.Request.PostData.Text, `"roots":[]`) {
		t.Errorf("mcptui's answer to roots/list: %+v", answer)
	}
	if h.Log.Entries[7].MCP.Error != "tool_error" {
		t.Errorf("get-sum's entry: %+v", h.Log.Entries[7].MCP)
	}
}
