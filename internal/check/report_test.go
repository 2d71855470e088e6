package check

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/check/rules"
)

func sampleReport() *Report {
	must, _ := rules.Get("tools.input-schema-object")
	should, _ := rules.Get("prompts.unknown-prompt")
	skip, _ := rules.Get("completion.shape")
	res := func(r rules.Rule, st Status, seen ...string) Result {
		return Result{Rule: r, ID: r.ID, Level: r.Level.String(), Era: "2025-11-25", Status: st, Seen: seen, Checks: 1}
	}
	return &Report{Command: []string{"./srv"}, Eras: []EraReport{{Era: "2025-11-25", Server: "srv 1", Results: []Result{
		res(must, Failed, "tool \"x\x1b[2J\" inputSchema has type \"string\""),
		res(should, Failed, "got a result"),
		res(skip, Skipped),
	}}}}
}

// Each report format says what failed, at which level, and the exit code
// follows --level.
func TestReports(t *testing.T) {
	rep := sampleReport()
	var text bytes.Buffer
	if err := rep.WriteText(&text, rules.Must, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"✗ tools.input-schema-object", "! prompts.unknown-prompt", "fix:", "server/tools#tool", `\x1b[2J`, "1 failed, 1 warnings, 1 skipped"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	if strings.Contains(text.String(), "\x1b") {
		t.Error("server text reached the text report raw")
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil || !json.Valid(js.Bytes()) || !strings.Contains(js.String(), `"section": "server/tools#tool"`) {
		t.Errorf("JSON report: %v\n%s", err, js.String())
	}
	var ju bytes.Buffer
	if err := rep.WriteJUnit(&ju, rules.Must); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name `xml:"testsuites"`
	}
	if err := xml.Unmarshal(ju.Bytes(), &doc); err != nil {
		t.Errorf("JUnit is not XML: %v", err)
	}
	if !strings.Contains(ju.String(), `tests="3" failures="1"`) || !strings.Contains(ju.String(), "<skipped") {
		t.Errorf("JUnit report:\n%s", ju.String())
	}
	var sa bytes.Buffer
	if err := rep.WriteSARIF(&sa); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct {
			Results []struct{ RuleID, Level string }
		}
	}
	if json.Unmarshal(sa.Bytes(), &log) != nil || log.Version != "2.1.0" || len(log.Runs[0].Results) != 2 ||
		log.Runs[0].Results[0].Level != "error" || log.Runs[0].Results[1].Level != "warning" {
		t.Errorf("SARIF: %+v", log)
	}
	if ExitCode(rep, rules.Must) != ExitRuleFailed {
		t.Error("a failed MUST does not fail the check")
	}
	rep.Eras[0].Results[0].Status = Passed
	if ExitCode(rep, rules.Must) != 0 || ExitCode(rep, rules.Should) != ExitRuleFailed {
		t.Error("--level should does not fail on a SHOULD")
	}
}

// RFC 6570: valid templates pass, malformed ones fail.
func TestURITemplates(t *testing.T) {
	for _, ok := range []string{"file:///{path}", "demo://r/{id}{?q,page}", "x://{+base}/{var:3}/{list*}", "plain://no/vars"} {
		if err := validTemplate(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"demo://{bad", "demo://}", "x://{}", "x://{a b}", "x://{=a}", "x://{a:0}", "x://{a..b}", "x://%zz"} {
		if validTemplate(bad) == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// A robustness rule (JSON-RPC 2.0 alone) is listed under its own heading,
// after the MCP rules, never as ✗ or a warning, and fails no check even
// at --level should.
func TestRobustnessApart(t *testing.T) {
	rep := sampleReport()
	parse, _ := rules.Get("errors.parse-error")
	if parse.Level != rules.Robustness {
		t.Fatalf("errors.parse-error is %s", parse.Level)
	}
	e := &rep.Eras[0]
	e.Results = append([]Result{{Rule: parse, ID: parse.ID, Level: parse.Level.String(), Era: e.Era, Status: Failed, Seen: []string{"no answer"}}}, e.Results...)
	var text bytes.Buffer
	if err := rep.WriteText(&text, rules.Should, false); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	head := strings.Index(out, "robustness (no MCP requirement")
	at := strings.Index(out, "! errors.parse-error")
	if head < 0 || at < head || strings.Index(out, "prompts.unknown-prompt") > head {
		t.Errorf("robustness not listed apart, after the MCP rules:\n%s", out)
	}
	if !strings.Contains(out, "2 failed, 0 warnings, 1 skipped (of 4 rules for 2025-11-25); 1 robustness notes") {
		t.Errorf("counts:\n%s", out)
	}
	if rep.Failures(rules.Should) != 2 {
		t.Errorf("%d failures at should, want 2 (robustness is none)", rep.Failures(rules.Should))
	}
}
