package cli

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseCommands(t *testing.T) {
	for _, tc := range []struct {
		args   string
		mode   Mode
		target string
		input  string
		server []string
		format string
	}{
		{"tools -- ./srv a", ModeTools, "", "", []string{"./srv", "a"}, "json"},
		{"resources --format text -- srv", ModeResources, "", "", []string{"srv"}, "text"},
		{"templates -- srv", ModeTemplates, "", "", []string{"srv"}, "json"},
		{"prompts -e A=1 -- srv --x", ModePrompts, "", "", []string{"srv", "--x"}, "json"},
		{"call echo --arg message=hi --arg n:=3 -- srv", ModeCall, "echo", `{"message":"hi","n":3}`, []string{"srv"}, "json"},
		{"call --args {\"a\":[1]} echo -- srv", ModeCall, "echo", `{"a":[1]}`, []string{"srv"}, "json"},
		{"read demo://readme -- srv", ModeRead, "demo://readme", "", []string{"srv"}, "json"},
		{"get greet --arg name=Ada -- srv", ModeGet, "greet", `{"name":"Ada"}`, []string{"srv"}, "json"},
		{"request ping -- srv", ModeRequest, "ping", "", []string{"srv"}, "json"},
		{"request tools/list --params {\"cursor\":\"x\"} -- srv", ModeRequest, "tools/list", `{"cursor":"x"}`, []string{"srv"}, "json"},
		{"run checks.mcpt --junit out.xml -- srv", ModeRun, "checks.mcpt", "", []string{"srv"}, "text"},
		{"doctor -- npx -y pkg", ModeDoctor, "", "", []string{"npx", "-y", "pkg"}, "text"},
		{"doctor --format json -- srv", ModeDoctor, "", "", []string{"srv"}, "json"},
		{"replay s.jsonl", ModeReplay, "s.jsonl", "", nil, ""},
		{"replay --serve s.jsonl", ModeReplayServe, "s.jsonl", "", nil, ""},
		{"call echo --record rec.jsonl --record-secrets -- srv", ModeCall, "echo", "", []string{"srv"}, "json"},
	} {
		cfg, err := Parse(strings.Fields(tc.args))
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		var server []string
		if cfg.Command != "" {
			server = append([]string{cfg.Command}, cfg.Args...)
		}
		if cfg.Mode != tc.mode || cfg.Target != tc.target || string(cfg.Input) != tc.input ||
			!reflect.DeepEqual(server, tc.server) || cfg.Format != tc.format {
			t.Errorf("%q: mode %v target %q input %s server %q format %q", tc.args, cfg.Mode, cfg.Target, cfg.Input, server, cfg.Format)
		}
		if !cfg.Mode.Headless() {
			t.Errorf("%q: %v is not headless", tc.args, cfg.Mode)
		}
	}
}

func TestParseCommandFlags(t *testing.T) {
	cfg, err := Parse(strings.Fields("call slow --timeout 2s --protocol 2025-11-25 --root file:///a -v " +
		"--answer sampling=text:hello --answer elicitation=decline --record r.jsonl -- srv"))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Timeout.String() != "2s" || cfg.Protocols[0] != "2025-11-25" || cfg.Roots[0] != "file:///a" || !cfg.Verbose || cfg.Record != "r.jsonl" {
		t.Fatalf("flags: %+v", cfg)
	}
	want := []AnswerRule{{Kind: "sampling", Method: "sampling/createMessage", Action: AnswerText, Text: "hello"}, {Kind: "elicitation", Method: "elicitation/create", Action: AnswerDecline}}
	if !reflect.DeepEqual(cfg.Answers, want) {
		t.Fatalf("answers %+v", cfg.Answers)
	}
}

func TestParseAnswerFiles(t *testing.T) {
	dir := t.TempDir()
	reply := filepath.Join(dir, "reply.json")
	if err := os.WriteFile(reply, []byte(` {"role":"assistant","content":{"type":"text","text":"x"},"model":"m"} `), 0o600); err != nil {
		t.Fatal(err)
	}
	args := filepath.Join(dir, "args.json")
	if err := os.WriteFile(args, []byte(`{"message":"from a file"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := Parse([]string{"call", "echo", "--args", "@" + args, "--answer", "sampling=@" + reply, "--", "srv"})
	if err != nil {
		t.Fatal(err)
	}
	if string(cfg.Input) != `{"message":"from a file"}` || cfg.Answers[0].Action != AnswerFile || cfg.Answers[0].File != reply ||
		!strings.HasPrefix(string(cfg.Answers[0].Body), `{"role"`) {
		t.Fatalf("%+v", cfg)
	}
	if _, err := Parse([]string{"call", "echo", "--answer", "sampling=@" + filepath.Join(dir, "missing.json"), "--", "srv"}); !errors.Is(err, ErrUsage) {
		t.Fatalf("missing file: %v", err)
	}
}

func TestParseCompletion(t *testing.T) {
	for words, want := range map[[2]string]Completion{
		{"prompt:greet", "name=A"}:                  {RefType: "ref/prompt", Ref: "greet", Argument: "name", Value: "A"},
		{"greet", "name"}:                           {RefType: "ref/prompt", Ref: "greet", Argument: "name"},
		{"resource:demo://colors/{name}", "name=r"}: {RefType: "ref/resource", Ref: "demo://colors/{name}", Argument: "name", Value: "r"},
		{"demo://colors/{name}", "name=a=b"}:        {RefType: "ref/resource", Ref: "demo://colors/{name}", Argument: "name", Value: "a=b"},
	} {
		cfg, err := Parse([]string{"complete", words[0], words[1], "--arg", "team=x", "--", "srv"})
		if err != nil {
			t.Errorf("%q: %v", words, err)
			continue
		}
		if cfg.Complete != want || string(cfg.Input) != `{"team":"x"}` {
			t.Errorf("%q: %+v %s", words, cfg.Complete, cfg.Input)
		}
	}
}

func TestParseCommandErrors(t *testing.T) {
	for _, args := range []string{
		"tools",                                                         // no server
		"tools --",                                                      // empty server
		"tools extra -- srv",                                            // a word tools does not take
		"call -- srv",                                                   // no tool name
		"call a b -- srv",                                               // two names
		"call echo --params {} -- srv",                                  // request's flag
		"call echo --args [1] -- srv",                                   // not an object
		"call echo --args {} --arg a=1 -- srv",                          // both
		"call echo --arg a=1 --arg a=2 -- srv",                          // twice
		"call echo --arg noequals -- srv",                               // no =
		"call echo --arg n:=nope -- srv",                                // bad JSON
		"get greet --arg n:=3 -- srv",                                   // := is for tools
		"get greet --args {\"n\":3} -- srv",                             // prompt arguments are strings
		"tools --junit x.xml -- srv",                                    // run's flag
		"tools --format yaml -- srv",                                    // unknown format
		"tools --answer sampling=maybe -- srv",                          // unknown action
		"tools --answer roots=x -- srv",                                 // not a roots action
		"tools --answer roots=ask -- srv",                               // no one to ask headless
		"tools --answer samplign=reject -- srv",                         // a typo is not a method
		"tools --answer roots=reject --answer roots/list=answer -- srv", // the same kind twice
		"tools --answer elicitation=@ -- srv",                           // no such file
		"tools --answer elicitation=decline --answer elicitation=cancel -- srv",
		"doctor --answer sampling=reject -- srv", // doctor asks nothing
		"replay",                                 // no file
		"replay a.jsonl -- srv",                  // replay starts nothing
		"replay --timeout 1s a.jsonl",            // not a replay flag
		"complete prompt:greet -- srv",           // no argument
		"complete prompt: name -- srv",           // empty reference
		"complete prompt:g =v -- srv",            // empty argument name
		"call echo --record-secrets -- srv",      // secrets without a file
		"tools --bogus -- srv",
	} {
		_, err := Parse(strings.Fields(args))
		if !errors.Is(err, ErrUsage) {
			t.Errorf("%q: err %v, want a usage error", args, err)
			continue
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error spans lines: %q", args, err)
		}
	}
	if _, err := Parse([]string{"read", "", "--", "srv"}); !errors.Is(err, ErrUsage) {
		t.Errorf("empty URI: %v", err)
	}
}

func TestParseCommandHelp(t *testing.T) {
	cfg, err := Parse([]string{"call", "--help"})
	if err != nil || cfg.Mode != ModeHelp {
		t.Fatalf("%+v %v", cfg, err)
	}
}

func TestInspectorTakesRecord(t *testing.T) {
	cfg, err := Parse([]string{"--record", "s.jsonl", "--", "srv"})
	if err != nil || cfg.Mode != ModeInspect || cfg.Record != "s.jsonl" || cfg.Mode.Headless() {
		t.Fatalf("%+v %v", cfg, err)
	}
	if _, err := Parse([]string{"--format", "json", "--", "srv"}); !errors.Is(err, ErrUsage) {
		t.Fatalf("the inspector took --format: %v", err)
	}
}

func TestModeNames(t *testing.T) {
	for m := ModeInspect; m <= ModeDoctor; m++ {
		if s := m.String(); strings.HasPrefix(s, "Mode(") {
			t.Errorf("mode %d has no name", m)
		}
	}
	if ModeCall.String() != "call" || ModeReplayServe.String() != "replay-serve" {
		t.Error(ModeCall.String(), ModeReplayServe.String())
	}
}

func TestUsageNamesEveryCommandAndExitCode(t *testing.T) {
	for word := range commands {
		if !strings.Contains(Usage, word) {
			t.Errorf("Usage does not show %s", word)
		}
	}
	for _, s := range []string{"--answer", "--record", "--record-secrets", "--junit", "--serve", "--format", "--arg", "--args", "--params", "130"} {
		if !strings.Contains(Usage, s) {
			t.Errorf("Usage does not mention %s", s)
		}
	}
}

func TestParseSkillWords(t *testing.T) {
	cfg, err := Parse([]string{"skill", "refunds", "examples/email.md", "--require-digests", "--", "srv"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Mode != ModeSkill || cfg.Target != "refunds" || cfg.File != "examples/email.md" || !cfg.RequireDigests || !cfg.Mode.Headless() {
		t.Errorf("%+v", cfg)
	}
	if cfg, err = Parse([]string{"skill", "refunds", "--", "srv"}); err != nil || cfg.File != "" {
		t.Errorf("no file: %v %+v", err, cfg)
	}
	if _, err = Parse([]string{"skill", "--", "srv"}); err == nil || !strings.Contains(err.Error(), "skill needs a skill name") {
		t.Errorf("no name: %v", err)
	}
	if cfg, err = Parse([]string{"skills", "--", "srv"}); err != nil || cfg.Mode != ModeSkills || cfg.Format != "text" {
		t.Errorf("skills: %v %+v", err, cfg)
	}
	if cfg, err = Parse([]string{"demo-server", "--extensions=tampered"}); err != nil || !cfg.Extensions || cfg.ExtensionsVariant != "tampered" {
		t.Errorf("demo-server --extensions: %v %+v", err, cfg)
	}
	if _, err = Parse([]string{"demo-server", "--extensionsx"}); err == nil {
		t.Error("demo-server --extensionsx parsed")
	}
}

func TestParseApp(t *testing.T) {
	cfg, err := Parse([]string{"app", "counter", "--arg", "start:=2", "--no-open", "--", "srv"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Mode != ModeApp || cfg.Target != "counter" || string(cfg.Input) != `{"start":2}` || !cfg.NoOpen || !cfg.Mode.Headless() {
		t.Errorf("%+v", cfg)
	}
	if _, err := Parse([]string{"app", "--", "srv"}); err == nil {
		t.Error("app without a tool parsed")
	}
}

// TestExplainIsExportsPostMortem: mcptui explain ID FILE is export
// --format markdown --call ID FILE; without an id it says how it is used.
func TestExplainIsExportsPostMortem(t *testing.T) {
	cfg, err := Parse([]string{"explain", "7", "-o", "pm.md", "rec.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Mode != ModeExport || cfg.Format != "markdown" || cfg.Export.Call != "7" || cfg.Target != "rec.jsonl" || cfg.Export.Output != "pm.md" {
		t.Errorf("mode %v format %q call %q target %q output %q", cfg.Mode, cfg.Format, cfg.Export.Call, cfg.Target, cfg.Export.Output)
	}
	if _, err := Parse([]string{"explain", "rec.jsonl"}); err == nil {
		t.Error("explain with one word parsed")
	}
	if _, err := Parse([]string{"explain", "--format", "json"}); err == nil || !strings.Contains(err.Error(), "mcptui explain ID FILE") {
		t.Errorf("explain without an id: %v", err)
	}
}
