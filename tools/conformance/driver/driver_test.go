package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeClient records the commands the driver runs and answers them.
type fakeClient struct {
	runs    [][]string
	answers map[string]string // by subcommand (and tool name for call)
	files   map[string]string // contents of --answer @files when run
}

func (f *fakeClient) exec(_ context.Context, _ io.Writer, name string, args ...string) ([]byte, error) {
	f.runs = append(f.runs, append([]string{name}, args...))
	key := args[0]
	if key == "call" {
		key += " " + args[1]
	}
	for i, a := range args {
		if a == "--answer" && strings.Contains(args[i+1], "=@") {
			b, err := os.ReadFile(strings.SplitN(args[i+1], "=@", 2)[1])
			if err != nil {
				return nil, err
			}
			if f.files == nil {
				f.files = map[string]string{}
			}
			f.files[key] = string(b)
		}
	}
	out, ok := f.answers[key]
	if !ok {
		return nil, errors.New("exit status 1")
	}
	return []byte(out), nil
}

func newTestDriver(t *testing.T, f *fakeClient) *driver {
	return &driver{
		client: "/bin/mcptui", bridge: "/bin/bridge",
		url: "http://localhost:1/mcp", version: "2026-07-28", via: viaBridge,
		tmp: t.TempDir(), log: io.Discard, exec: f.exec,
	}
}

// tail is what the n-th command (from 1) must end with.
func tail(d *driver, n int) []string {
	if d.via == viaHTTP {
		return []string{"-v", "--protocol", "2026-07-28", "--", "http://localhost:1/mcp"}
	}
	return []string{"-v", "--protocol", "2026-07-28", "--", "/bin/bridge", "-trace", filepath.Join(d.tmp, fmt.Sprintf("wire-%d.log", n)), "http://localhost:1/mcp"}
}

func TestScenarioCommands(t *testing.T) {
	toolList := func(names ...string) string {
		var ts []map[string]any
		for _, n := range names {
			ts = append(ts, map[string]any{"name": n, "inputSchema": map[string]any{"type": "object"}})
		}
		b, _ := json.Marshal(map[string]any{"tools": ts})
		return string(b)
	}
	cases := []struct {
		scenario string
		answers  map[string]string
		want     [][]string // each without the common tail
	}{
		{"initialize", map[string]string{"tools": `{"tools":[]}`}, [][]string{{"tools"}}},
		{"request-metadata", map[string]string{"tools": `{"tools":[]}`}, [][]string{{"tools"}}},
		{"json-schema-ref-no-deref", map[string]string{"tools": `[]`}, [][]string{{"tools"}}},
		{"tools_call", map[string]string{"tools": toolList("add_numbers"), "call add_numbers": `{}`},
			[][]string{{"tools"}, {"call", "add_numbers", "--args", `{"a":5,"b":3}`}}},
		{"elicitation-sep1034-client-defaults",
			map[string]string{"tools": toolList("test_client_elicitation_defaults"), "call test_client_elicitation_defaults": `{}`},
			[][]string{{"tools"}, {"call", "test_client_elicitation_defaults", "--args", `{}`, "--answer", "elicitation=accept-defaults"}}},
	}
	for _, c := range cases {
		t.Run(c.scenario, func(t *testing.T) {
			f := &fakeClient{answers: c.answers}
			d := newTestDriver(t, f)
			if err := scenarios[c.scenario](context.Background(), d); err != nil {
				t.Fatal(err)
			}
			if len(f.runs) != len(c.want) {
				t.Fatalf("ran %q, want %q", f.runs, c.want)
			}
			for i, w := range c.want {
				full := append(append([]string{"/bin/mcptui"}, w...), tail(d, i+1)...)
				if !slices.Equal(f.runs[i], full) {
					t.Errorf("run %d = %q\nwant %q", i, f.runs[i], full)
				}
			}
		})
	}
}

func TestRequestStateScript(t *testing.T) {
	var script string
	f := &fakeClient{answers: map[string]string{"run": "ok\n"}}
	d := newTestDriver(t, f)
	exec := d.exec
	d.exec = func(ctx context.Context, w io.Writer, name string, args ...string) ([]byte, error) {
		b, err := os.ReadFile(args[1])
		script = string(b)
		if err != nil {
			return nil, err
		}
		return exec(ctx, w, name, args...)
	}
	if err := requestState(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	if len(f.runs) != 1 {
		t.Fatalf("ran %q, want one mcptui run", f.runs)
	}
	want := append([]string{"/bin/mcptui", "run", filepath.Join(d.tmp, "sep-2322.mcpt"), "--answer", "elicitation=@" + filepath.Join(d.tmp, "confirm.json")}, tail(d, 1)...)
	if !slices.Equal(f.runs[0], want) {
		t.Errorf("ran %q\nwant %q", f.runs[0], want)
	}
	if got := f.files["run"]; got != `{"action":"accept","content":{"confirmed":true}}` {
		t.Errorf("answer file %q", got)
	}
	var calls []string
	for _, l := range strings.Split(script, "\n") {
		if strings.HasPrefix(l, "call ") {
			calls = append(calls, strings.TrimPrefix(l, "call "))
		}
	}
	if want := []string{"test_mrtr_echo_state", "test_mrtr_unrelated", "test_mrtr_no_state", "test_mrtr_no_result_type"}; !slices.Equal(calls, want) {
		t.Errorf("the script calls %q, want %q", calls, want)
	}

	// A failed run fails the scenario.
	f = &fakeClient{}
	if err := requestState(context.Background(), newTestDriver(t, f)); err == nil {
		t.Error("requestState succeeded although mcptui run failed")
	}
}

// TestSchemaEchoVerbatim: the focal tool's inputSchema goes back as the
// client printed it, keyword order and all.
func TestSchemaEchoVerbatim(t *testing.T) {
	schema := `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"address":{"$anchor":"addr","type":"object"}},"if":{"required":["a"]},"then":{},"else":{},"additionalProperties":false}`
	f := &fakeClient{answers: map[string]string{
		"tools":                 `{"tools":[{"name":"json_schema_2020_12_tool","inputSchema":` + schema + `},{"name":"json_schema_echo","inputSchema":{"type":"object"}}]}`,
		"call json_schema_echo": `{"content":[]}`,
	}}
	if err := schemaEcho(context.Background(), newTestDriver(t, f)); err != nil {
		t.Fatal(err)
	}
	if got, want := f.runs[1][4], `{"schema":`+schema+`}`; got != want {
		t.Errorf("--args %s\nwant   %s", got, want)
	}
}

func TestMissingTool(t *testing.T) {
	f := &fakeClient{answers: map[string]string{"tools": `{"tools":[{"name":"other"}]}`}}
	err := addNumbers(context.Background(), newTestDriver(t, f))
	if err == nil || !strings.Contains(err.Error(), "add_numbers") {
		t.Errorf("addNumbers = %v, want an error naming add_numbers", err)
	}
}

func TestParseTools(t *testing.T) {
	for _, in := range []string{`{"tools":[{"name":"a"},{"name":"b"}]}`, `[{"name":"a"},{"name":"b"}]`, "\n{\"tools\":[{\"name\":\"a\"},{\"name\":\"b\"}]}\n"} {
		tools, err := parseTools([]byte(in))
		if err != nil || len(tools) != 2 || tools["a"] == nil {
			t.Errorf("parseTools(%s) = %v, %v", in, tools, err)
		}
	}
	for _, in := range []string{``, `{"x":1}`, `[{"title":"no name"}]`, `not json`} {
		if _, err := parseTools([]byte(in)); err == nil {
			t.Errorf("parseTools(%q) gave no error", in)
		}
	}
}

func TestRunDispatch(t *testing.T) {
	env := func(scenario, version string) func(string) string {
		return func(k string) string {
			return map[string]string{envScenario: scenario, envVersion: version, envVia: viaBridge}[k]
		}
	}
	var log bytes.Buffer
	// Through the bridge the HTTP scenarios measure nothing of mcptui's.
	for _, s := range []string{"sse-retry", "http-custom-headers"} {
		log.Reset()
		if code := run(context.Background(), []string{"http://localhost:1"}, env(s, "2026-07-28"), &log); code != 0 || !strings.Contains(log.String(), "HTTP transport") {
			t.Errorf("%s: exit %d, log %q", s, code, log.String())
		}
	}
	if code := run(context.Background(), []string{"http://localhost:1"}, env("brand-new", "2026-07-28"), &log); code != 2 {
		t.Errorf("unknown scenario: exit %d, want 2", code)
	}
	if code := run(context.Background(), []string{"http://localhost:1"}, env("", ""), &log); code != 2 {
		t.Errorf("no environment: exit %d, want 2", code)
	}
	if code := run(context.Background(), nil, env("initialize", "2025-06-18"), &log); code != 2 {
		t.Errorf("no URL: exit %d, want 2", code)
	}
}

func TestCheckClient(t *testing.T) {
	ok := &fakeClient{answers: map[string]string{"tools": `{"tools":[{"name":"echo"}]}`}}
	if err := checkClient(context.Background(), "/bin/mcptui", ok.exec); err != nil {
		t.Errorf("checkClient = %v", err)
	}
	if want := []string{"/bin/mcptui", "tools", "--", "/bin/mcptui", "demo-server"}; !slices.Equal(ok.runs[0], want) {
		t.Errorf("ran %q, want %q", ok.runs[0], want)
	}
	for _, out := range []string{`{"tools":[]}`, "mcptui — a live terminal inspector"} {
		f := &fakeClient{answers: map[string]string{"tools": out}}
		if err := checkClient(context.Background(), "/bin/mcptui", f.exec); err == nil {
			t.Errorf("checkClient accepted %q", out)
		}
	}
}

func TestProgram(t *testing.T) {
	if got := program("/x/y", "mcptui"); got != "/x/y" {
		t.Errorf("program = %q", got)
	}
	if got := program("", "bridge"); filepath.Base(got) != "bridge" || !filepath.IsAbs(got) {
		t.Errorf("program = %q, want bridge beside the test binary", got)
	}
}

// TestWireLogged: the bridge's trace of a step is copied to the log.
func TestWireLogged(t *testing.T) {
	var log bytes.Buffer
	f := &fakeClient{answers: map[string]string{"tools": "{\n  \"tools\": []\n}\n"}}
	d := newTestDriver(t, f)
	d.log = &log
	d.exec = func(ctx context.Context, w io.Writer, name string, args ...string) ([]byte, error) {
		for i, a := range args {
			if a == "-trace" {
				os.WriteFile(args[i+1], []byte("--> {\"id\":1}\n<-- {\"id\":1,\"result\":{}}\n"), 0o600)
			}
		}
		return f.exec(ctx, w, name, args...)
	}
	if _, err := d.tools(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"wire: --> {\"id\":1}\nwire: <-- {\"id\":1,\"result\":{}}\n", "driver: stdout: {\"tools\":[]}\n"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
}

func TestShellJoin(t *testing.T) {
	if got, want := shellJoin([]string{"call", "x", "--args", `{"a":1}`, "it's"}), `call x --args '{"a":1}' 'it'\''s'`; got != want {
		t.Errorf("shellJoin = %s, want %s", got, want)
	}
}

// Over HTTP the commands take the URL itself; the HTTP scenarios call what
// the scenario's context names, or every tool mcptui listed.
func TestHTTPScenarioCommands(t *testing.T) {
	f := &fakeClient{answers: map[string]string{"tools": `{"tools":[{"name":"valid_tool"}]}`, "call valid_tool": `{}`, "call t": `{}`}}
	d := newTestDriver(t, f)
	d.via = viaHTTP
	if err := scenarios["http-invalid-tool-headers"](context.Background(), d); err != nil {
		t.Fatal(err)
	}
	d.context = json.RawMessage(`{"name":"http-custom-headers","toolCalls":[{"name":"t","arguments":{"region":"us-west1"}}]}`)
	if err := scenarios["http-custom-headers"](context.Background(), d); err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"tools"}, {"call", "valid_tool", "--args", `{}`}, {"call", "t", "--args", `{"region":"us-west1"}`}}
	if len(f.runs) != len(want) {
		t.Fatalf("ran %q, want %q", f.runs, want)
	}
	for i, w := range want {
		if full := append(append([]string{"/bin/mcptui"}, w...), tail(d, i+1)...); !slices.Equal(f.runs[i], full) {
			t.Errorf("run %d = %q\nwant %q", i, f.runs[i], full)
		}
	}
}
