package doctor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/demo"
	"github.com/mcptui/mcptui/internal/testkit/racechild"
)

// The test binary doubles as the servers the doctor examines: with
// MCPTUI_DOCTOR_SERVER set it runs that server instead of the tests.
const serverEnv = "MCPTUI_DOCTOR_SERVER"

func TestMain(m *testing.M) {
	if name := os.Getenv(serverEnv); name != "" {
		os.Exit(testServer(name))
	}
	racechild.NoExitSleep() // the servers this binary starts are itself
	os.Exit(m.Run())
}

func testServer(name string) int {
	ctx := context.Background()
	switch name {
	case "demo":
		return serveDemo(ctx)
	case "crash":
		fmt.Fprintln(os.Stderr, "starting weather server")
		fmt.Fprintln(os.Stderr, "fatal: WEATHER_API_KEY is not set")
		return 1
	case "banner":
		fmt.Println("Weather MCP server v1.2 ready")
		fmt.Println("Listening on stdio...")
		return serveDemo(ctx)
	case "slow":
		// A slow start-up: nothing for a while, then a working server.
		time.Sleep(400 * time.Millisecond)
		return serveDemo(ctx)
	case "silent":
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
		}
		return 0
	case "stubborn":
		signal.Ignore(syscall.SIGTERM)
		serveDemo(ctx)
		select {} // ignores end of input and SIGTERM; only SIGKILL ends it
	case "childholds":
		// A launcher: it starts a child that inherits its stdout and
		// lives on, serves until EOF, then exits 0 a little later.
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), serverEnv+"=holder")
		child.Stdout = os.Stdout
		if err := child.Start(); err != nil {
			return 1
		}
		serveDemo(ctx)
		time.Sleep(150 * time.Millisecond)
		return 0
	case "holder":
		time.Sleep(time.Minute) // holds stdout until a signal ends it
		return 0
	case "old":
		return serveOld("2024-11-05")
	case "ancient":
		return serveOld("2023-01-01")
	case "sleepy":
		// A cold launcher: nothing at all for as long as the probe waits,
		// however long that is (it reads until the probe gives up and its
		// stdin closes); started again for initialize, a working server.
		// (It slept 1.5 s against a 300 ms probe: which of the two clocks
		// fired first decided the diagnosis.)
		in := bufio.NewReader(os.Stdin)
		first, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		if bytes.Contains(first, []byte(`"server/discover"`)) {
			_, _ = io.Copy(io.Discard, in)
			return 0
		}
		if err := demo.Serve(ctx, io.MultiReader(bytes.NewReader(first), in), os.Stdout, os.Stderr); err != nil {
			return 1
		}
		return 0
	case "hugelist":
		return serveBrokenList(`{"tools":[{"name":"big","description":"` + strings.Repeat("x", 20<<20) + `","inputSchema":{"type":"object"}}]}`)
	case "deeplist":
		return serveBrokenList(`{"tools":[{"name":"deep","inputSchema":` + strings.Repeat("[", 10_001) + strings.Repeat("]", 10_001) + `}]}`)
	}
	fmt.Fprintln(os.Stderr, "unknown test server", name)
	return 2
}

func serveDemo(ctx context.Context) int {
	if err := demo.Serve(ctx, os.Stdin, os.Stdout, os.Stderr); err != nil {
		return 1
	}
	return 0
}

// serveOld answers like an old server: -32601 to server/discover, and
// initialize with its old version.
func serveOld(version string) int {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
			continue
		}
		switch m.Method {
		case "initialize":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":%q,"capabilities":{},"serverInfo":{"name":"old","version":"0.1"}}}`+"\n", m.ID, version)
		default:
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`+"\n", m.ID)
		}
	}
	return 0
}

// serveBrokenList is a legacy server offering tools whose tools/list
// answer is result.
func serveBrokenList(result string) int {
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(line, &m) != nil || m.ID == nil {
			continue
		}
		switch m.Method {
		case "initialize":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"lister","version":"1"}}}`+"\n", m.ID)
		case "tools/list":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", m.ID, result)
		default:
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`+"\n", m.ID)
		}
	}
}

// A server whose tools/list answer is discarded (over the line limit, or
// nested past the parser's limit) is not called healthy: the doctor says
// what happened to the answer, and the fix.
func TestBrokenListIsNoHealthyServer(t *testing.T) {
	t.Parallel()
	for name, want := range map[string][2]string{
		"hugelist": {"'s answer, 20.0 MiB, was discarded over the 16.0 MiB limit (raise --max-line-bytes)", "raise the line limit (mcptui doctor --max-line-bytes"},
		"deeplist": {"'s answer was discarded: JSON nested deeper than 10000 levels", "flatten the schemas"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// The default 20 s timeout: the doctor need not wait for it.
			r := examine(t, name, nil)
			d := check(t, r, KindBrokenList, Error, 3)
			if !strings.HasPrefix(d.Summary, "tools/list got no usable answer: request ") || !strings.Contains(d.Summary, want[0]) || !strings.Contains(d.Fix, want[1]) {
				t.Errorf("diagnosis %+v", d)
			}
			for _, d := range r.Diagnoses {
				if d.Kind == KindHealthy {
					t.Errorf("called healthy: %+v", d)
				}
			}
		})
	}
}

// examine runs the doctor on a test server.
func examine(t *testing.T, name string, tweak func(*Options)) *Report {
	t.Helper()
	v := name
	// Every limit is generous unless the test sets it: a diagnosis must come
	// from how the server behaves, never from which of two clocks fires
	// first. (A 2 s probe made TestSlowStart's 400 ms sleeper, re-executed
	// under -race beside six CPU burners, a silent-probe slow start blamed on
	// --probe-timeout in 5 of 30 runs.)
	o := Options{Command: os.Args[0], Env: []conn.EnvVar{{Name: serverEnv, Value: &v}},
		SlowStart: time.Minute, Grace: time.Minute, ProbeTimeout: time.Minute, Timeout: time.Minute}
	if tweak != nil {
		tweak(&o)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	return Run(ctx, o)
}

// check asserts the report has a diagnosis of kind with severity, prints,
// and returns it.
func check(t *testing.T, r *Report, kind string, sev Severity, exit int) Diagnosis {
	t.Helper()
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", text.String())
	if r.ExitCode() != exit {
		t.Errorf("exit code %d, want %d", r.ExitCode(), exit)
	}
	for _, d := range r.Diagnoses {
		if d.Kind == kind {
			if d.Severity != sev {
				t.Errorf("%s is %s, want %s", kind, d.Severity, sev)
			}
			if d.Summary == "" || (sev != OK && d.Fix == "") {
				t.Errorf("%s lacks words: %+v", kind, d)
			}
			if !strings.Contains(text.String(), kind+": ") {
				t.Errorf("the text report does not show %s", kind)
			}
			return d
		}
	}
	t.Fatalf("no %s diagnosis in %+v", kind, r.Diagnoses)
	return Diagnosis{}
}

func TestHealthy(t *testing.T) {
	t.Parallel()
	r := examine(t, "demo", nil)
	d := check(t, r, KindHealthy, OK, 0)
	if len(r.Diagnoses) != 1 || !strings.Contains(d.Summary, "2026-07-28") || r.Lists["tools"] < 10 {
		t.Errorf("%+v", r)
	}
	if r.Negotiation == nil || r.Shutdown != "exited when its stdin closed" || r.Server != "mcptui-demo 0.1.0" {
		t.Errorf("%+v", r)
	}
}

func TestNotFound(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"/nonexistent/dir/server", "no-such-mcp-server-for-sure", "npx -y pkg"} {
		r := Run(context.Background(), Options{Command: cmd})
		d := check(t, r, KindNotFound, Error, 3)
		if r.PID != 0 || r.Negotiation != nil {
			t.Errorf("%s: it was started", cmd)
		}
		if cmd == "npx -y pkg" && !strings.Contains(d.Fix, "separate words") {
			t.Errorf("%s: fix %q", cmd, d.Fix)
		}
	}
}

func TestNotFoundNamesTheInstaller(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	r := Run(context.Background(), Options{Command: "uvx", Args: []string{"mcp-server-time"}})
	d := check(t, r, KindNotFound, Error, 3)
	if !strings.Contains(d.Fix, "install uv") || r.Launchers["uvx"] != "" {
		t.Errorf("%+v %v", d, r.Launchers)
	}
}

func TestNotExecutable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for name, tc := range map[string]struct {
		path string
		want string
	}{
		"no x bit":        {write("server.js", "#!/usr/bin/env node\n", 0o644), "chmod +x"},
		"no #! line":      {write("server.py", "import sys\nprint('hi')\n", 0o755), "#!/usr/bin/env python3"},
		"missing interp":  {write("s1", "#!/usr/bin/env no-such-interpreter-xyz\n", 0o755), "no-such-interpreter-xyz"},
		"bad interp path": {write("s2", "#!/opt/nowhere/python\n", 0o755), "#!"},
		"directory":       {dir, "inside it"},
	} {
		r := Run(context.Background(), Options{Command: tc.path})
		d := check(t, r, KindNotExecutable, Error, 3)
		if !strings.Contains(d.Summary+d.Fix, tc.want) {
			t.Errorf("%s: %q lacks %q", name, d.Summary+" / "+d.Fix, tc.want)
		}
	}
}

func TestExitsAtOnce(t *testing.T) {
	t.Parallel()
	r := examine(t, "crash", nil)
	d := check(t, r, KindExitsAtOnce, Error, 3)
	if !r.ExitedEarly || !strings.Contains(d.Summary, "exit status 1") || !strings.Contains(d.Summary, "WEATHER_API_KEY is not set") {
		t.Errorf("%+v", d)
	}
	if !strings.Contains(d.Fix, "-e KEY=VALUE") {
		t.Errorf("fix %q", d.Fix)
	}
}

func TestLogsToStdout(t *testing.T) {
	t.Parallel()
	r := examine(t, "banner", nil)
	d := check(t, r, KindLogsToStdout, Warning, 0)
	if r.JunkLines != 2 || r.StdoutJunk[0] != "Weather MCP server v1.2 ready" || !strings.Contains(d.Fix, "stderr") {
		t.Errorf("%+v", r)
	}
	check(t, r, KindHealthy, OK, 0)
}

func TestWrongProtocol(t *testing.T) {
	t.Parallel()
	r := examine(t, "ancient", nil)
	d := check(t, r, KindWrongProtocol, Error, 4)
	if !strings.Contains(d.Summary, "2023-01-01") {
		t.Errorf("%+v", d)
	}
	if len(r.Wire) == 0 {
		t.Error("the failed handshake's lines are not in the report")
	}
	pinned := examine(t, "demo", func(o *Options) { o.Versions = []string{"2025-06-18"} })
	if pinned.ExitCode() != 0 {
		t.Errorf("the demo speaks 2025-06-18: %+v", pinned.Diagnoses)
	}
}

// A 2024-11-05 server (TypeScript SDK before 1.13) is healthy; its probe
// -32601 is a negotiation step, not an error.
func TestOldServerHealthy(t *testing.T) {
	t.Parallel()
	r := examine(t, "old", nil)
	d := check(t, r, KindHealthy, OK, 0)
	if !strings.Contains(d.Summary, "2024-11-05") {
		t.Errorf("%+v", d)
	}
}

// A server that writes nothing until the probe gives up is a slow starter
// (a cold npx), not one that speaks another protocol.
func TestSilentProbeIsSlowStart(t *testing.T) {
	t.Parallel()
	r := examine(t, "sleepy", func(o *Options) { o.ProbeTimeout = 300 * time.Millisecond })
	d := check(t, r, KindSlowStart, Warning, 0)
	if !strings.Contains(d.Summary, "slow start") || !strings.Contains(d.Fix, "--probe-timeout") {
		t.Errorf("%+v", d)
	}
	for _, d := range r.Diagnoses {
		if d.Kind == KindWrongProtocol {
			t.Errorf("a slow starter blamed on the protocol: %+v", d)
		}
	}
}

// A Node crash ends with "Node.js v20..." after the stack: the line that
// says what happened is the Error: above it.
func TestNodeCrashQuotesTheError(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: no real Node crash to look at")
	}
	r := examine(t, "", func(o *Options) {
		o.Command, o.Env = node, nil
		o.Args = []string{"-e", `console.error("starting github server"); throw new Error("GITHUB_PERSONAL_ACCESS_TOKEN environment variable is not set")`}
	})
	d := check(t, r, KindExitsAtOnce, Error, 3)
	if !strings.Contains(d.Summary, `it crashed: "Error: GITHUB_PERSONAL_ACCESS_TOKEN environment variable is not set"`) {
		t.Errorf("%+v\nstderr %q", d, r.Stderr)
	}
	if !strings.Contains(d.Fix, "-e KEY=VALUE") {
		t.Errorf("fix %q", d.Fix)
	}
}

func TestSlowStart(t *testing.T) {
	t.Parallel()
	// The server waits 400ms before it reads anything: past a 100ms limit
	// whatever the machine's speed.
	r := examine(t, "slow", func(o *Options) { o.SlowStart = 100 * time.Millisecond })
	d := check(t, r, KindSlowStart, Warning, 0)
	if !strings.Contains(d.Fix, "--timeout") {
		t.Errorf("%+v", d)
	}
}

func TestNoAnswer(t *testing.T) {
	t.Parallel()
	r := examine(t, "silent", func(o *Options) {
		o.ProbeTimeout = 100 * time.Millisecond
		o.Timeout = 200 * time.Millisecond
	})
	d := check(t, r, KindNoAnswer, Error, 6)
	if !strings.Contains(d.Summary, "wrote nothing") {
		t.Errorf("%+v", d)
	}
}

func TestIgnoresEOF(t *testing.T) {
	t.Parallel()
	// It never exits on its own, so a short grace decides nothing.
	r := examine(t, "stubborn", func(o *Options) { o.Grace = 200 * time.Millisecond })
	d := check(t, r, KindIgnoresEOF, Warning, 0)
	if !strings.Contains(d.Summary, "killed") {
		t.Errorf("%+v", d)
	}
}

// TestChildHoldsStdoutIsNotIgnoringEOF: a server that exits 150 ms after
// EOF while a process it started holds its stdout is not said to ignore
// EOF: the doctor says it exited, how long after EOF, and that its child
// held stdout and was signalled.
func TestChildHoldsStdoutIsNotIgnoringEOF(t *testing.T) {
	t.Parallel()
	r := examine(t, "childholds", func(o *Options) { o.Grace = 3 * time.Second })
	for _, d := range r.Diagnoses {
		if d.Kind == KindIgnoresEOF {
			t.Errorf("said to ignore EOF: %+v", d)
		}
	}
	d := check(t, r, KindChildHoldsStdout, Warning, 0)
	if !strings.Contains(d.Summary, "exited") || !strings.Contains(d.Summary, "SIGTERM") || r.ServerExit <= 0 || time.Duration(r.ServerExit) >= 3*time.Second {
		t.Errorf("%+v; server exit %s after EOF", d, r.ServerExit)
	}
}

// TestCommandLineRedacted: the doctor's report (its text and its JSON)
// does not repeat a secret of the command line.
func TestCommandLineRedacted(t *testing.T) {
	t.Parallel()
	r := examine(t, "demo", func(o *Options) {
		o.Args = []string{"--api-key", "hunter2secret", "Authorization: Bearer abcdef123456"}
	})
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{b.String(), text.String()} {
		if strings.Contains(out, "hunter2secret") || strings.Contains(out, "abcdef123456") {
			t.Errorf("a secret of the command line is in the report:\n%s", out)
		}
	}
}

func TestJSONReport(t *testing.T) {
	t.Parallel()
	r := examine(t, "banner", nil)
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b.Bytes(), &v); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if v["junkLines"].(float64) != 2 || len(v["diagnoses"].([]any)) != 2 {
		t.Fatalf("%s", b.String())
	}
}
