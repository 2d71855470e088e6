package headless

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/record"
)

// hostileModes are test servers (legacy, answering initialize) that answer
// tools/list and tools/call the hostile way.
var hostileModes = map[string]hostileMode{
	// deep: a tools/list nested 9,000 deep (just inside conn's limit).
	"deep": {list: func(w *bufio.Writer, id string) {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"deep","inputSchema":%s1%s}]}}`+"\n",
			id, strings.Repeat(`{"a":`, 9000), strings.Repeat("}", 9000))
	}},
	// flood: tools/call sends 100,000 progress notifications, then answers.
	"flood": {call: func(w *bufio.Writer, id, token string) {
		for i := range 100_000 {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":%s,"progress":%d,"total":100000}}`+"\n", token, i)
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"done"}]}}`+"\n", id)
	}},
	// huge: tools/call is answered with a 20 MiB line, over the limit.
	"huge": {call: func(w *bufio.Writer, id, _ string) {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"%s"}]}}`+"\n", id, strings.Repeat("x", 20<<20))
	}},
	// deepanswer: tools/call is answered nested past the parser's limit.
	"deepanswer": {call: func(w *bufio.Writer, id, _ string) {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"structuredContent":%s1%s}}`+"\n", id, strings.Repeat("[", 10_001), strings.Repeat("]", 10_001))
	}},
	// toolsonly: declares tools and nothing else; every other request is
	// -32601, so a typed request sent anyway would exit 4, not 9.
	"toolsonly": {},
	// nocaps: declares no capability at all.
	"nocaps": {caps: `{}`},
}

// hostileMode is what a hostile server does for tools/list and tools/call;
// nil means a plain answer.
type hostileMode struct {
	caps string // the declared capabilities; {"tools":{}} when ""
	list func(w *bufio.Writer, id string)
	call func(w *bufio.Writer, id, token string)
}

// serveHostile runs a hostile mode on stdio until stdin closes.
func serveHostile(mode hostileMode) int {
	in := bufio.NewReader(os.Stdin)
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Meta struct {
					Token json.RawMessage `json:"progressToken"`
				} `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &m) != nil || m.ID == nil {
			continue
		}
		id := string(m.ID)
		caps := mode.caps
		if caps == "" {
			caps = `{"tools":{}}`
		}
		switch {
		case m.Method == "initialize":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":%s,"serverInfo":{"name":"hostile","version":"1"}}}`+"\n", id, caps)
		case m.Method == "tools/list" && mode.list != nil:
			mode.list(w, id)
		case m.Method == "tools/list":
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}`+"\n", id)
		case m.Method == "tools/call" && mode.call != nil:
			mode.call(w, id, string(m.Params.Meta.Token))
		default:
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no %s"}}`+"\n", id, m.Method)
		}
		w.Flush()
	}
}

// A tools/list nested 9,000 deep (50 KB) prints in output linear in it,
// not the 160 MB indenting every level costs.
func TestDeepListPrintsLinear(t *testing.T) {
	t.Parallel()
	r := run(t, args("tools", server("deep"))...)
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	t.Logf("tools/list nested 9,000 deep: %d bytes of output", len(r.stdout))
	if len(r.stdout) > 200_000 || !json.Valid([]byte(r.stdout)) {
		t.Fatalf("output of %d bytes (valid JSON: %v)", len(r.stdout), json.Valid([]byte(r.stdout)))
	}
}

// 100,000 progress notifications to a stderr that is no terminal print a
// line per change (101 percentages), not one per notification.
func TestProgressFloodPrintsChanges(t *testing.T) {
	t.Parallel()
	r := run(t, args("call", "work", server("flood"))...)
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	n := strings.Count(r.stderr, "mcptui: progress ")
	t.Logf("%d progress lines for 100,000 notifications", n)
	if n < 2 || n > 101+120 { // a change each percent, at most one a second besides
		t.Fatalf("%d progress lines", n)
	}
}

// Secrets in every form a server's command line carries them stay out of
// the recording of a real session.
func TestRecordingKeepsSecretsOut(t *testing.T) {
	t.Parallel()
	file := t.TempDir() + "/rec.jsonl"
	secrets := []string{"ghp_abcdefghijklmnopqrstuvwxyz012345", "bearer-secret-1", "hdr-secret-2", "query-secret-3",
		"bare-secret-4", "pw-secret-5", "sk-proj-abcdefghijklmnop0123", "xoxb-123456-abcdef", "AKIAIOSFODNN7EXAMPLE", "env-secret-6"}
	srv := append(server("demo"),
		"-e", "GITHUB_PERSONAL_ACCESS_TOKEN="+secrets[0], "-H", "Authorization: Bearer "+secrets[1], "--header=X-Api-Key: "+secrets[2],
		"https://example.com/mcp?api_key="+secrets[3], "CLIENT_SECRET="+secrets[4], "-p", secrets[5], secrets[6], "--slack="+secrets[7],
		secrets[8], "--env", "PLAIN="+secrets[9])
	r := run(t, args("tools", "--record", file, "-e", "API_TOKEN=in-the-env", srv)...)
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append(secrets, "in-the-env") {
		if strings.Contains(string(b), s) {
			t.Errorf("the recording holds %q", s)
		}
	}
	rec, err := record.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.Join(rec.Header.Args, " "), "redacted"); n < len(secrets) {
		t.Errorf("%d redactions in %q", n, rec.Header.Args)
	}
}

// --record /dev/full fails the command and says so, with the reason.
func TestRecordingToAFullDiskFails(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	r := run(t, args("tools", "--record", "/dev/full", server("demo"))...)
	if r.code == ExitOK || !strings.Contains(r.stderr, "/dev/full cannot be written (record: writing: write /dev/full: no space left on device)") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
}

// An answer discarded over the line limit, or nested past the parser's
// limit, is linked to its request and named, and the call fails at once
// (exit 4, the reason in the error), never waiting for its timeout: the
// timeout here is longer than the test's own deadline.
func TestDiscardedAnswerIsExplained(t *testing.T) {
	t.Parallel()
	for mode, want := range map[string][2]string{
		"huge": {"'s answer, 20.0 MiB, was discarded over the 16.0 MiB limit (raise --max-line-bytes)",
			"The server's answer was discarded: line longer than the limit: "},
		"deepanswer": {"'s answer was discarded: JSON nested deeper than 10000 levels, the parser's limit",
			"The server's answer was discarded: JSON nested deeper than 10000 levels"},
	} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			r := run(t, args("call", "work", "--timeout", "10m", server(mode))...)
			if r.code != ExitProtocol || !strings.Contains(r.stderr, "mcptui: request ") || !strings.Contains(r.stderr, want[0]) {
				t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
			}
			if f := r.failure(t); f.Kind != KindProtocol || !strings.Contains(f.Message, want[1]) {
				t.Errorf("failure %+v, want kind %q naming %q", f, KindProtocol, want[1])
			}
			if strings.Contains(r.stderr, "will time out") {
				t.Errorf("stderr says the call will time out:\n%s", r.stderr)
			}
		})
	}
}

// A typed request whose capability the server did not declare is not
// sent: the server answers every such request -32601 (exit 4), so exit 9
// and the plain sentence show it stayed in mcptui.
func TestUndeclaredRequestsAreNotSent(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string
	}{
		{args("read", "file:///x", server("toolsonly")), "the server declares no resources capability: resources/read was not sent"},
		{args("get", "greet", server("toolsonly")), "the server declares no prompts capability: prompts/get was not sent"},
		{args("prompts", server("toolsonly")), "the server declares no prompts capability: prompts/list was not sent"},
		{args("call", "work", server("nocaps")), "the server declares no tools capability: tools/call was not sent"},
		{args("tools", server("nocaps")), "the server declares no tools capability: tools/list was not sent"},
	}
	for _, tc := range cases {
		r := run(t, tc.args...)
		if r.code != ExitNotDeclared || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%q: exit %d, want %d with %q\n%s", tc.args[:2], r.code, ExitNotDeclared, tc.want, r.stderr)
			continue
		}
		if f := r.failure(t); f.Kind != KindNotDeclared {
			t.Errorf("%q: kind %q", tc.args[:2], f.Kind)
		}
	}
}
