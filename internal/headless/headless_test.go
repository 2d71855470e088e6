package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/mcp"
)

func TestLists(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string][2]string{
		"tools":     {"tools", "echo"},
		"resources": {"resources", "demo://readme"},
		"templates": {"resourceTemplates", "demo://colors/{name}"},
		"prompts":   {"prompts", "greet"},
	} {
		r := run(t, args(cmd, server("demo"))...)
		if r.code != ExitOK {
			t.Fatalf("%s: exit %d\n%s", cmd, r.code, r.stderr)
		}
		items, ok := r.result(t)[want[0]].([]any)
		if !ok || len(items) < 2 {
			t.Fatalf("%s: %s", cmd, r.stdout)
		}
		if !strings.Contains(r.stdout, want[1]) {
			t.Errorf("%s: %q not listed", cmd, want[1])
		}
		text := run(t, args(cmd, "--format", "text", server("demo"))...)
		if text.code != ExitOK || !strings.Contains(text.stdout, want[1]) || strings.HasPrefix(text.stdout, "{") {
			t.Errorf("%s --format text: exit %d\n%s", cmd, text.code, text.stdout)
		}
	}
}

func TestListsFollowPages(t *testing.T) {
	t.Parallel()
	r := run(t, args("tools", server("demo"))...)
	tools := r.result(t)["tools"].([]any)
	if len(tools) <= 10 { // the demo pages by 10
		t.Fatalf("%d tools: pages were not followed", len(tools))
	}
}

func TestCall(t *testing.T) {
	t.Parallel()
	r := run(t, args("call", "echo", "--arg", "message=hi there", server("demo"))...)
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	content := r.result(t)["content"].([]any)
	if content[0].(map[string]any)["text"] != "hi there" {
		t.Fatalf("%s", r.stdout)
	}
	text := run(t, args("call", "echo", "--args", `{"message":"line one\nline two"}`, "--format", "text", server("demo"))...)
	if text.stdout != "line one\nline two\n" {
		t.Fatalf("text: %q", text.stdout)
	}
}

func TestCallTypedArguments(t *testing.T) {
	t.Parallel()
	r := run(t, args("call", "large", "--arg", "bytes:=5", server("demo"))...)
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	text := r.result(t)["content"].([]any)[0].(map[string]any)["text"].(string)
	if len(text) != 5 {
		t.Fatalf("%q: the integer argument did not arrive as 5", text)
	}
}

func TestProgressLinesOnStderr(t *testing.T) {
	t.Parallel()
	r := run(t, args("call", "progress", "--arg", "steps:=3", server("demo"))...)
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if n := strings.Count(r.stderr, "mcptui: progress call progress "); n != 3 {
		t.Fatalf("%d progress lines:\n%s", n, r.stderr)
	}
	if !strings.Contains(r.stderr, "3/3 (100%)") || strings.Contains(r.stderr, "\r") {
		t.Fatalf("progress:\n%q", r.stderr)
	}
}

func TestReadGetCompleteRequest(t *testing.T) {
	t.Parallel()
	read := run(t, args("read", "demo://readme", server("demo"))...)
	if read.code != ExitOK || !strings.Contains(read.stdout, `"contents"`) {
		t.Fatalf("read: %d %s %s", read.code, read.stdout, read.stderr)
	}
	get := run(t, args("get", "greet", "--arg", "name=Ada", "--format", "text", server("demo"))...)
	if get.code != ExitOK || !strings.Contains(get.stdout, "Ada") || !strings.HasPrefix(get.stdout, "user: ") {
		t.Fatalf("get: %d %q %s", get.code, get.stdout, get.stderr)
	}
	comp := run(t, args("complete", "resource:demo://colors/{name}", "name=re", "--format", "text", server("demo"))...)
	if comp.code != ExitOK || !strings.Contains(comp.stdout, "red") {
		t.Fatalf("complete: %d %q %s", comp.code, comp.stdout, comp.stderr)
	}
	req := run(t, args("request", "resources/read", "--params", `{"uri":"demo://readme"}`, server("demo"))...)
	if req.code != ExitOK || !strings.Contains(req.stdout, "demo://readme") {
		t.Fatalf("request: %d %s %s", req.code, req.stdout, req.stderr)
	}
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args []string
		code int
		kind string
		rpc  int
		also string
	}{
		{"not found", args("tools", "--", "/nonexistent/mcp-server"), ExitStart, KindStart, mcp.CodeConnection, ""},
		{"crash", args("tools", server("crash")), ExitStart, KindStart, mcp.CodeConnection, "MY_API_KEY is not set"},
		{"error answer", args("call", "rpc_error", "--arg", "code:=-32042", "--arg", "message=nope", server("demo")), ExitProtocol, KindProtocol, -32042, ""},
		{"unknown tool", args("call", "no_such_tool", server("demo")), ExitProtocol, KindProtocol, 0, ""},
		{"tool error", args("call", "fail", server("demo")), ExitTool, KindTool, 0, "failed on purpose"},
		{"timeout", args("call", "slow", "--timeout", "300ms", "--reset-timeout-on-progress=false", server("demo")), ExitTimeout, KindTimeout, mcp.CodeTimeout, ""},
		{"handshake timeout", args("tools", "--timeout", "300ms", "--protocol", "2025-11-25", server("silent")), ExitTimeout, KindTimeout, mcp.CodeTimeout, ""},
		{"server exits", args("call", "exit", "--arg", "status:=3", server("demo")), ExitConnection, KindConnection, mcp.CodeConnection, ""},
	}
	// A bad answer file is a usage error before any process starts (cli
	// checks it as it parses --answer, for the inspector too).
	if _, err := cli.Parse(args("call", "echo", "--answer", "sampling=@"+writeFile(t, "r.json", `{"text":"no"}`), server("demo"))); !errors.Is(err, cli.ErrUsage) || !strings.Contains(err.Error(), `"role"`) {
		t.Errorf("bad answer file: %v, want a usage error naming \"role\"", err)
	}
	for _, tc := range cases {
		r := run(t, tc.args...)
		if r.code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s", tc.name, r.code, tc.code, r.stderr)
			continue
		}
		f := r.failure(t)
		if f.Kind != tc.kind || f.Exit != tc.code {
			t.Errorf("%s: %+v", tc.name, f)
		}
		if tc.rpc != 0 && (f.RPC == nil || f.RPC.Code != tc.rpc) {
			t.Errorf("%s: rpc %+v, want code %d", tc.name, f.RPC, tc.rpc)
		}
		if tc.also != "" && !strings.Contains(r.stderr, tc.also) {
			t.Errorf("%s: stderr lacks %q:\n%s", tc.name, tc.also, r.stderr)
		}
	}
}

func TestToolErrorStillPrintsTheResult(t *testing.T) {
	t.Parallel()
	r := run(t, args("call", "fail", server("demo"))...)
	if r.code != ExitTool || r.result(t)["isError"] != true {
		t.Fatalf("exit %d\n%s", r.code, r.stdout)
	}
}

func TestAnswerRules(t *testing.T) {
	t.Parallel()
	reply := writeFile(t, "reply.json", `{"role":"assistant","content":{"type":"text","text":"a haiku from a file"},"model":"file-model"}`)
	answer := writeFile(t, "answer.json", `{"action":"accept","content":{"name":"Grace","email":"g@example.com","age":40}}`)
	for _, proto := range []string{"2026-07-28", "2025-11-25"} {
		for _, tc := range []struct {
			name string
			args []string
			code int
			want string
		}{
			{"sampling text", args("call", "sample", "--answer", "sampling=text:a typed haiku"), ExitOK, "a typed haiku"},
			{"sampling file", args("call", "sample", "--answer", "sampling=@"+reply), ExitOK, "a haiku from a file"},
			{"sampling reject", args("call", "sample", "--answer", "sampling=reject"), -1, ""},
			{"sampling no rule", args("call", "sample"), -1, "--answer sampling="},
			// The form's required fields have no defaults: the unfit answer
			// is not sent, the note says so, and the command fails (below).
			{"elicit defaults", args("call", "elicit_form", "--answer", "elicitation=accept-defaults"), ExitUsage, "does not fit its schema, not sent"},
			{"elicit file", args("call", "elicit_form", "--answer", "elicitation=@"+answer), ExitOK, "Grace"},
			{"elicit decline", args("call", "elicit_form", "--answer", "elicitation=decline"), ExitOK, "decline"},
			{"elicit no rule", args("call", "elicit_form"), -1, "--answer elicitation="},
			{"roots", args("call", "roots", "--root", "file:///tmp/project"), ExitOK, "file:///tmp/project"},
			// No --root is the honest answer "no roots", said on stderr.
			{"roots no rule", args("call", "roots"), ExitOK, "answered with an empty list"},
		} {
			r := run(t, args(tc.args, "--protocol", proto, "--format", "text", server("demo"))...)
			name := proto + " " + tc.name
			if tc.code >= 0 && r.code != tc.code {
				t.Errorf("%s: exit %d\nstdout %s\nstderr %s", name, r.code, r.stdout, r.stderr)
				continue
			}
			if tc.code == -1 && r.code == ExitOK {
				t.Errorf("%s: succeeded\n%s", name, r.stdout)
				continue
			}
			if tc.want != "" && !strings.Contains(r.stdout+r.stderr, tc.want) {
				t.Errorf("%s: %q not in\nstdout %s\nstderr %s", name, tc.want, r.stdout, r.stderr)
			}
			if tc.name == "elicit defaults" {
				// The server never saw an acceptance, and the failure
				// names the flag that gives a fitting answer.
				if strings.Contains(r.stdout, "accepted") {
					t.Errorf("%s: the unfit answer reached the server:\n%s", name, r.stdout)
				}
				if f := r.failure(t); f.Kind != KindUsage || !strings.Contains(f.Message, "--answer elicitation=accept-defaults does not fit") ||
					!strings.Contains(f.Message, "was not sent") || !strings.Contains(f.Message, "--answer elicitation=@answer.json") {
					t.Errorf("%s: failure %+v", name, f)
				}
			}
		}
	}
}

func TestNoRuleNoteNamesTheFlag(t *testing.T) {
	t.Parallel()
	r := run(t, args("call", "sample", "--protocol", "2025-11-25", server("demo"))...)
	if !strings.Contains(r.stderr, "mcptui: the server asked for sampling (sampling/createMessage) and no rule answers it") {
		t.Fatalf("no note:\n%s", r.stderr)
	}
}

func TestVerboseEchoesStderrEscaped(t *testing.T) {
	t.Parallel()
	r := run(t, args("call", "chatter", "--arg", "lines:=3", "-v", server("demo"))...)
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "mcptui: server stderr: ") || strings.Contains(r.stderr, "\x1b") {
		t.Fatalf("stderr:\n%q", r.stderr)
	}
}

func TestHostileTextIsEscaped(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"json", "text"} {
		r := run(t, args("call", "hostile", "--format", format, server("demo"))...)
		if r.code != ExitOK {
			t.Fatalf("%s: exit %d\n%s", format, r.code, r.stderr)
		}
		for _, bad := range []string{"\x1b", "\x07", "\u009b", "\u202e"} {
			if strings.Contains(r.stdout, bad) {
				t.Errorf("%s: raw %q in output", format, bad)
			}
		}
		if format == "json" && !json.Valid([]byte(r.stdout)) {
			t.Errorf("escaped JSON is not JSON:\n%s", r.stdout)
		}
	}
}

func TestRecordHeadless(t *testing.T) {
	t.Parallel()
	file := t.TempDir() + "/call.jsonl"
	r := run(t, args("call", "echo", "--arg", "message=recorded", "--record", file, "-e", "SECRET_TOKEN=hunter2", server("demo"))...)
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	rec, err := record.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Complete || rec.Header.Mode != "call" {
		t.Fatalf("header %+v complete %v", rec.Header, rec.Complete)
	}
	for _, e := range rec.Header.Env {
		if e.Value == "hunter2" {
			t.Fatal("the secret was recorded")
		}
	}
	types := map[string]int{}
	sawEcho := false
	for _, e := range rec.Entries {
		types[e.Type]++
		if e.Type == record.TypeReceived && strings.Contains(string(e.Msg), "recorded") {
			sawEcho = true
		}
	}
	for _, ty := range []string{record.TypeSent, record.TypeReceived, record.TypeStderr, record.TypeNegotiation, record.TypeReady, record.TypeExit, record.TypeEnd} {
		if types[ty] == 0 {
			t.Errorf("no %s entry: %v", ty, types)
		}
	}
	if !sawEcho {
		t.Error("the echo result was not recorded")
	}
}

func TestClassifyInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := classify(ctx, context.Canceled, stageRequest, false)
	if f.Exit != ExitInterrupted || f.Kind != KindInterrupted {
		t.Fatalf("%+v", f)
	}
	f = classify(context.Background(), errors.New("disk full"), stageRequest, false)
	if f.Exit != ExitInternal {
		t.Fatalf("%+v", f)
	}
}

func TestProgressBarOnATerminal(t *testing.T) {
	var buf strings.Builder
	n := &noteWriter{w: &buf}
	p := newProgress(&buf, n)
	p.tty = true
	p.update("call slow", conn.Progress{Progress: 1, Total: 4, Message: "step \x1b[31mone"})
	p.update("call slow", conn.Progress{Progress: 2})
	n.printf("a note")
	p.update("call slow", conn.Progress{Progress: 4, Total: 4})
	p.done()
	out := buf.String()
	want := "\r\x1b[2Kcall slow ██████░░░░░░░░░░░░░░░░░░  25% 1/4 step \\x1b[31mone" +
		"\r\x1b[2Kcall slow ························     2" +
		"\r\x1b[2Kmcptui: a note\n" +
		"\r\x1b[2Kcall slow ████████████████████████ 100% 4/4" +
		"\r\x1b[2K"
	if out != want {
		t.Fatalf("got  %q\nwant %q", out, want)
	}
}

func TestAttachRecorder(t *testing.T) {
	cfg, err := cli.Parse([]string{"--record", t.TempDir() + "/tui.jsonl", "--", "srv"})
	if err != nil {
		t.Fatal(err)
	}
	var seen int
	opts := mcp.Options{Conn: conn.Options{Observer: func(conn.Event) { seen++ }}}
	rec, err := AttachRecorder(cfg, "/usr/bin/demo", []string{"demo-server"}, &opts)
	if err != nil || rec == nil {
		t.Fatal(err)
	}
	opts.Conn.Observer(conn.Event{Time: time.Now(), Kind: conn.Sent, Line: []byte(`{"jsonrpc":"2.0","method":"x"}`), Size: 30})
	fmt.Fprintln(opts.Conn.Stderr, "hello")
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := record.Open(cfg.Record)
	if err != nil {
		t.Fatal(err)
	}
	if seen != 1 || got.Header.Mode != "inspect" || got.Header.Command != "/usr/bin/demo" || len(got.Entries) != 3 {
		t.Fatalf("seen %d, %+v %+v", seen, got.Header, got.Entries)
	}
	none, _ := cli.Parse([]string{"--", "srv"})
	if rec, err := AttachRecorder(none, "srv", nil, &opts); rec != nil || err != nil {
		t.Fatal("a recorder without --record")
	}
}
