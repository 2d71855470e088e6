package headless

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/cli"
)

const passingScript = `# checks of the demo server
tools
expect .tools.length >= 10
expect .tools[0].name exists

call echo message="hello, world"
expect ok
expect .content[0].text == "hello, world"
expect .content[0].text matches ^hello
expect .content contains {"type":"text","text":"hello, world"}

call echo {"message": "json form"}
expect .content[0].text == json form

call large bytes:=3
expect .content[0].text.length == 3

read demo://readme
expect .contents[0].uri == "demo://readme"
expect .contents[0].mimeType != "image/png"

get greet name=Ada
expect .messages[0].content.text contains Ada

complete resource:demo://colors/{name} name=bl
expect .completion.values contains "blue"

call fail
expect isError

call no_such_tool
expect error

request resources/read {"uri":"demo://no-such-thing"}
expect error
expect .code != 0

listen {"resourceSubscriptions":["demo://counter"]}
expect .accepted exists
call bump
next notifications/resources/updated within 30s
expect .params.uri == "demo://counter"
`

func TestRunScriptPasses(t *testing.T) {
	t.Parallel()
	script := writeFile(t, "demo.mcpt", passingScript)
	junit := t.TempDir() + "/junit.xml"
	r := run(t, args("run", script, "--junit", junit, "--answer", "sampling=text:x", server("demo"))...)
	if r.code != ExitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "13 passed, 0 failed, 13 steps") {
		t.Fatalf("report:\n%s", r.stdout)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var doc JUnitSuites
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("junit: %v\n%s", err, b)
	}
	if doc.Tests != 13 || doc.Failures != 0 || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 13 {
		t.Fatalf("junit: %+v", doc)
	}
}

func TestRunScriptFailures(t *testing.T) {
	t.Parallel()
	script := writeFile(t, "bad.mcpt", `call echo message=hi
expect .content[0].text == "bye"
call fail
read demo://no-such-thing
call echo message=ok
expect error -32602
tools
`)
	junit := t.TempDir() + "/junit.xml"
	r := run(t, args("run", script, "--junit", junit, "--format", "json", server("demo"))...)
	if r.code != ExitCheck {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	var rep ScriptReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	if rep.Passed != 1 || rep.Failed != 4 || len(rep.Steps) != 5 {
		t.Fatalf("%+v", rep)
	}
	wants := []string{`got "hi"`, "isError", "failed:", "it succeeded"}
	for i, want := range wants {
		if !strings.Contains(strings.Join(rep.Steps[i].Failures, "; "), want) {
			t.Errorf("step %d: %q lacks %q", i, rep.Steps[i].Failures, want)
		}
	}
	if f := r.failure(t); f.Kind != KindCheck || !strings.Contains(f.Message, "4 of 5") {
		t.Errorf("failure %+v", f)
	}
	b, _ := os.ReadFile(junit)
	var doc JUnitSuites
	if err := xml.Unmarshal(b, &doc); err != nil || doc.Failures != 4 {
		t.Fatalf("junit %v %+v", err, doc)
	}
}

func TestRunScriptConnectFailure(t *testing.T) {
	t.Parallel()
	script := writeFile(t, "s.mcpt", "tools\n")
	junit := t.TempDir() + "/junit.xml"
	r := run(t, args("run", script, "--junit", junit, server("crash"))...)
	if r.code != ExitStart {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	b, _ := os.ReadFile(junit)
	if !strings.Contains(string(b), `<error message="the server did not start`) || !strings.Contains(string(b), "MY_API_KEY") {
		t.Fatalf("junit:\n%s", b)
	}
}

func TestRunScriptUsageErrors(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"",
		"expect ok\n",
		"frobnicate\n",
		"call\n",
		"call echo {not json\n",
		"tools\nexpect .a ~= 1\n",
		"tools\nexpect .a < x\n",
		"tools\nexpect .a matches (\n",
		"tools\nexpect error abc\n",
		"next within soon\n",
		"get greet n:=1\n",
		"call echo a\n",
	} {
		script := writeFile(t, "bad.mcpt", src)
		cfg, err := cli.Parse(args("run", script, server("demo")))
		if err != nil {
			t.Fatal(err)
		}
		var stdout, stderr strings.Builder
		if code := RunScript(t.Context(), cfg, &stdout, &stderr); code != ExitUsage {
			t.Errorf("%q: exit %d\n%s", src, code, stderr.String())
		}
	}
}

func TestParseScriptLines(t *testing.T) {
	sc, err := ParseScript("x", []byte("call echo a=\"two words\" b:=[1,2]\nexpect .\"odd key\"[2] == 3\nnext notifications/x within 2s\n"))
	if err != nil {
		t.Fatal(err)
	}
	if string(sc.Steps[0].Send.Input) != `{"a":"two words","b":[1,2]}` {
		t.Fatalf("input %s", sc.Steps[0].Send.Input)
	}
	e := sc.Steps[0].Expects[0]
	if len(e.Path) != 2 || e.Path[0].key != "odd key" || !e.Path[1].isIdx || e.Path[1].index != 2 || e.Op != "==" {
		t.Fatalf("expect %+v", e)
	}
	if sc.Steps[1].Method != "notifications/x" || sc.Steps[1].Within.String() != "2s" {
		t.Fatalf("next %+v", sc.Steps[1])
	}
}

func TestContains(t *testing.T) {
	for _, tc := range []struct {
		node, want string
		ok         bool
	}{
		{`"The sum is 42."`, `42`, true},
		{`"flag is true"`, `true`, true},
		{`"abc"`, `"b"`, true},
		{`"abc"`, `"z"`, false},
		{`[1,{"a":2}]`, `{"a":2}`, true},
		{`[1,2]`, `3`, false},
		{`{"k":1}`, `"k"`, true},
		{`7`, `7`, false},
	} {
		n, _ := decode([]byte(tc.node))
		w, _ := decode([]byte(tc.want))
		if contains(n, w) != tc.ok {
			t.Errorf("%s contains %s: %v", tc.node, tc.want, !tc.ok)
		}
	}
}

// A script whose --answer does not fit a question fails with that, even
// when every step passed: the answer was not sent.
func TestScriptFailsOnAnUnfitAnswer(t *testing.T) {
	t.Parallel()
	script := writeFile(t, "unfit.mcp", "call elicit_form\nexpect ok\n")
	r := run(t, args("run", script, "--answer", "elicitation=accept-defaults", "--protocol", "2025-11-25", server("demo"))...)
	if r.code != ExitUsage || !strings.Contains(r.stderr, "was not sent") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}
