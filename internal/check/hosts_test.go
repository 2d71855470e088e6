package check

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/check/rules"
	"github.com/mcptui/mcptui/internal/hostprofile"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/testkit/everything"
	"github.com/mcptui/mcptui/internal/testkit/surfaceserver"
)

// hostCheck checks spec's server against every host and model profile,
// with the tools rules only (which list the tools and call the read-only
// ones).
func hostCheck(t *testing.T, spec surfaceserver.Spec) *Report {
	t.Helper()
	cmd, args, env := surfaceserver.Command(t, spec)
	name, value, _ := strings.Cut(env[0], "=")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep := Run(ctx, Options{Command: cmd, Args: args, Conn: conn.Options{Env: []conn.EnvVar{{Name: name, Value: &value}}},
		Timeout: 30 * time.Second, Rules: []string{"tools"},
		Hosts: hostprofile.Hosts(), Models: hostprofile.Models(), ServerName: "srv", ContextTokens: 100000})
	if rep.Error != "" || rep.Hosts == nil {
		t.Fatalf("check: %s (hosts %v)", rep.Error, rep.Hosts)
	}
	return rep
}

func hostSpec(tools ...map[string]any) surfaceserver.Spec {
	return surfaceserver.Spec{Protocols: []string{"2025-06-18"}, ServerInfo: map[string]any{"name": "srv", "version": "1"},
		Capabilities: map[string]any{"tools": map[string]any{}}, Tools: tools, PageSize: 10}
}

func objectSchema(props map[string]any) map[string]any {
	return map[string]any{"type": "object", "properties": props}
}

// TestHostRulesOneBreakEach: a server that breaks exactly one host or
// model rule is found out by that rule alone, naming the host or model,
// the tool, what was seen and the source; the check then exits non-zero
// as for a failed MUST, while the host finding is never one of the MCP
// rules' results.
func TestHostRulesOneBreakEach(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 60)
	var big strings.Builder
	for i := 0; big.Len() < 150*1024; i++ {
		fmt.Fprintf(&big, "%d,", i*7919)
	}
	result, _ := json.Marshal(map[string]any{"content": []any{map[string]any{"type": "text", "text": big.String()}}})
	readOnly := map[string]any{"readOnlyHint": true}
	cases := []struct {
		name       string
		spec       surfaceserver.Spec
		rule, tool string
		targets    []string
		seen       string
	}{
		{"60-character name", hostSpec(map[string]any{"name": long, "inputSchema": objectSchema(nil)}),
			RuleHostToolName, long, []string{"claude-code"}, "mcp__srv__" + long + ", is 70 characters, over the 64-character limit"},
		{"array without items", hostSpec(map[string]any{"name": "tag", "inputSchema": objectSchema(map[string]any{"tags": map[string]any{"type": "array"}})}),
			RuleHostSchema, "tag", []string{"gemini-cli/gemini", "gemini"}, `inputSchema /properties/tags: array without "items"`},
		{"type array", hostSpec(map[string]any{"name": "opt", "inputSchema": objectSchema(map[string]any{"n": map[string]any{"type": []any{"string", "null"}}})}),
			RuleHostSchema, "opt", []string{"gemini-cli/gemini", "gemini"}, `inputSchema /properties/n: "type" is an array`},
		{"150 KB result", func() surfaceserver.Spec {
			s := hostSpec(map[string]any{"name": "dump", "inputSchema": objectSchema(nil), "annotations": readOnly})
			s.Results = map[string]json.RawMessage{"dump": result}
			return s
		}(), RuleHostResultCap, "dump", []string{"claude-code"}, "over the 25000-token default cap (MAX_MCP_OUTPUT_TOKENS)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rep := hostCheck(t, c.spec)
			var targets []string
			for _, f := range rep.Hosts.Findings {
				if f.Rule == RuleHostSchema && strings.HasPrefix(f.Target, "openai-strict") {
					continue // strict mode refuses every schema here: judged in TestHostRulesCorrectServer
				}
				if f.Rule != c.rule || f.Tool != c.tool || !strings.Contains(f.Seen, c.seen) || f.Source == "" {
					t.Errorf("unexpected finding %+v", f)
				}
				targets = append(targets, f.Target)
			}
			if strings.Join(targets, ",") != strings.Join(c.targets, ",") {
				t.Errorf("findings for %v, want %v", targets, c.targets)
			}
			if got := ExitCode(rep, rules.Must); got != ExitRuleFailed {
				t.Errorf("exit %d, want %d", got, ExitRuleFailed)
			}
			for _, e := range rep.Eras {
				for _, res := range e.Results {
					if strings.HasPrefix(res.ID, "host.") {
						t.Errorf("a host rule among the MCP rules: %+v", res)
					}
				}
			}
			var b strings.Builder
			if err := rep.WriteText(&b, rules.Must, false); err != nil {
				t.Fatal(err)
			}
			for _, line := range strings.Split(b.String(), "\n") {
				if strings.Contains(line, c.rule) && (strings.Contains(line, "MUST") || !strings.Contains(line, HostLevel)) {
					t.Errorf("host finding printed as %q", line)
				}
			}
		})
	}
}

// TestHostRulesCorrectServer: a server within every profile has no
// finding and exits 0; its cost is counted, and what no profile records
// is said, not judged.
func TestHostRulesCorrectServer(t *testing.T) {
	t.Parallel()
	schema := map[string]any{"type": "object", "additionalProperties": false, "required": []any{"tags"},
		"properties": map[string]any{"tags": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}}}
	rep := hostCheck(t, hostSpec(map[string]any{"name": "tag", "description": "Tag things.", "inputSchema": schema, "annotations": map[string]any{"readOnlyHint": true}}))
	if len(rep.Hosts.Findings) != 0 {
		t.Fatalf("findings on a correct server: %+v", rep.Hosts.Findings)
	}
	if got := ExitCode(rep, rules.Must); got != 0 {
		t.Errorf("exit %d", got)
	}
	if rep.Hosts.Cost == nil || rep.Hosts.Cost.Total == 0 || len(rep.Hosts.Cost.Tools) != 1 || rep.Hosts.Results != 1 {
		t.Fatalf("cost %+v results %d", rep.Hosts.Cost, rep.Hosts.Results)
	}
	var b strings.Builder
	if err := rep.WriteText(&b, rules.Must, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"not judged: cursor:", "o200k_base", "total for 1 tools", "tag  "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

// TestHostRulesEverything: the everything server from npm against every
// profile: its tools list whole, results seen, a cost counted, and no
// finding but OpenAI strict mode's (its optional properties; README).
func TestHostRulesEverything(t *testing.T) {
	t.Parallel()
	cmd, args := everything.Server(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rep := Run(ctx, Options{Command: cmd, Args: args, Timeout: 30 * time.Second, Rules: []string{"tools"},
		Hosts: hostprofile.Hosts(), Models: hostprofile.Models(), ServerName: "everything",
		Sampling: declineAll, ElicitForm: declineAll, ElicitURL: declineAll, Roots: declineAll})
	if rep.Error != "" || rep.Hosts == nil {
		t.Fatalf("check: %q", rep.Error)
	}
	hr := rep.Hosts
	if len(hr.Tools) < 10 || hr.Results == 0 || hr.Cost == nil || hr.Cost.Total < 500 {
		t.Fatalf("tools %d results %d cost %+v", len(hr.Tools), hr.Results, hr.Cost)
	}
	strict := 0
	for _, f := range hr.Findings {
		if f.Target != "openai-strict" || f.Rule != RuleHostSchema {
			t.Errorf("finding %+v", f)
		}
		strict++
	}
	if strict == 0 {
		t.Error("no OpenAI strict-mode finding: its schemas have optional properties")
	}
}

// TestHostReportFormats: JSON carries the host section, JUnit a suite of
// its own with a failure per refused rule, SARIF a result per finding;
// a tool result over the tool's own _meta["anthropic/maxResultSizeChars"]
// is its own finding.
func TestHostReportFormats(t *testing.T) {
	t.Parallel()
	spec := hostSpec(map[string]any{"name": "dump", "inputSchema": objectSchema(nil), "annotations": map[string]any{"readOnlyHint": true},
		"_meta": map[string]any{"anthropic/maxResultSizeChars": 10}})
	spec.Results = map[string]json.RawMessage{"dump": json.RawMessage(`{"content":[{"type":"text","text":"twenty characters.."}]}`)}
	rep := hostCheck(t, spec)
	var got []string
	for _, f := range rep.Hosts.Findings {
		if !strings.HasPrefix(f.Target, "openai-strict") {
			got = append(got, f.Rule+" "+f.Target+" "+f.Seen)
		}
	}
	if len(got) != 1 || !strings.Contains(got[0], RuleHostResultSize+" claude-code a result of 19 characters, over the tool's own _meta[\"anthropic/maxResultSizeChars\"] of 10") {
		t.Fatalf("findings %q", got)
	}
	var j, ju, sa strings.Builder
	if err := rep.WriteJSON(&j); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Hosts *HostReport `json:"hosts"`
	}
	if err := json.Unmarshal([]byte(j.String()), &doc); err != nil || doc.Hosts == nil || len(doc.Hosts.Findings) != len(rep.Hosts.Findings) || doc.Hosts.Cost == nil {
		t.Fatalf("json: %v\n%.1000s", err, j.String())
	}
	if err := rep.WriteJUnit(&ju, rules.Must); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ju.String(), `name="mcptui check hosts"`) || !strings.Contains(ju.String(), `classname="host.claude-code"`) || !strings.Contains(ju.String(), "maxResultSizeChars") {
		t.Fatalf("junit:\n%s", ju.String())
	}
	if err := rep.WriteSARIF(&sa); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sa.String(), `"ruleId": "`+RuleHostResultSize+`"`) {
		t.Fatalf("sarif lacks the finding:\n%.2000s", sa.String())
	}
}

// TestHostContextBudget: a description with a large cost puts the list
// over --budget, alone of every rule; under the budget nothing is said.
func TestHostContextBudget(t *testing.T) {
	t.Parallel()
	spec := hostSpec(map[string]any{"name": "wordy", "description": strings.Repeat("Explains at great length what it does. ", 300), "inputSchema": objectSchema(nil)},
		map[string]any{"name": "terse", "description": "Does it.", "inputSchema": objectSchema(nil)})
	cmd, args, env := surfaceserver.Command(t, spec)
	name, value, _ := strings.Cut(env[0], "=")
	for budget, want := range map[int]int{1000: 1, 100000: 0} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		rep := Run(ctx, Options{Command: cmd, Args: args, Conn: conn.Options{Env: []conn.EnvVar{{Name: name, Value: &value}}},
			Timeout: 30 * time.Second, Rules: []string{"tools.names"}, ContextBudget: budget})
		cancel()
		if rep.Hosts == nil || len(rep.Hosts.Findings) != want {
			t.Fatalf("budget %d: %+v", budget, rep.Hosts)
		}
		if want == 1 {
			f := rep.Hosts.Findings[0]
			if f.Rule != RuleHostBudget || !strings.Contains(f.Seen, "over the budget of 1000; costliest: wordy ") || ExitCode(rep, rules.Must) != ExitRuleFailed {
				t.Fatalf("%+v", f)
			}
		} else if ExitCode(rep, rules.Must) != 0 {
			t.Fatalf("exit %d under the budget", ExitCode(rep, rules.Must))
		}
	}
}

// TestFromRecordingResultCap: check --recording judges a recording's
// tool results against a host's cap without starting or calling
// anything: a 150 KB text result is over Claude Code's 25,000 tokens
// (said with the tokenizer's count and the tool), a small one is not, and
// a result whose tool was never listed in the recording is judged too.
func TestFromRecordingResultCap(t *testing.T) {
	var big strings.Builder
	for i := 0; big.Len() < 150*1024; i++ {
		fmt.Fprintf(&big, "row %d: checksum %x, state %s\n", i, i*7919, []string{"open", "closed", "pending"}[i%3])
	}
	line := func(typ string, msg any) string {
		b, err := json.Marshal(map[string]any{"type": typ, "t": "2026-12-03T07:00:00Z", "msg": msg})
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	text := func(s string) map[string]any {
		return map[string]any{"content": []map[string]any{{"type": "text", "text": s}}}
	}
	rec := `{"type":"header","format":"mcptui-recording","version":1,"t":"2026-12-03T07:00:00Z"}` + "\n" +
		line("sent", map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}) +
		line("received", map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{"tools": []map[string]any{
			{"name": "dump", "inputSchema": map[string]any{"type": "object"}}, {"name": "small", "inputSchema": map[string]any{"type": "object"}}}}}) +
		line("sent", map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{"name": "dump"}}) +
		line("received", map[string]any{"jsonrpc": "2.0", "id": 2, "result": text(big.String())}) +
		line("sent", map[string]any{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": map[string]any{"name": "small"}}) +
		line("received", map[string]any{"jsonrpc": "2.0", "id": 3, "result": text("ok")}) +
		line("sent", map[string]any{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": map[string]any{"name": "unlisted"}}) +
		line("received", map[string]any{"jsonrpc": "2.0", "id": 4, "result": text(big.String())})
	r, err := record.Read(strings.NewReader(rec))
	if err != nil {
		t.Fatal(err)
	}
	cc, _ := hostprofile.HostNamed("claude-code")
	rep := FromRecording(r, "rec.jsonl", Options{Hosts: []hostprofile.Host{cc}, ServerName: "srv"})
	hr := rep.Hosts
	if hr == nil || hr.Results != 3 {
		t.Fatalf("%+v", hr)
	}
	var capped []string
	for _, f := range hr.Findings {
		if f.Rule != RuleHostResultCap {
			t.Errorf("another finding: %+v", f)
			continue
		}
		capped = append(capped, f.Tool)
		if !strings.Contains(f.Seen, "over the 25000-token default cap (MAX_MCP_OUTPUT_TOKENS)") || !strings.Contains(f.Seen, "o200k_base") || f.Target != "claude-code" {
			t.Errorf("%+v", f)
		}
	}
	if strings.Join(capped, ",") != "dump,unlisted" {
		t.Fatalf("capped %v", capped)
	}
	if ExitCode(rep, rules.Must) != ExitRuleFailed {
		t.Errorf("exit %d", ExitCode(rep, rules.Must))
	}
	var b strings.Builder
	if err := rep.WriteText(&b, rules.Must, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "mcptui check -- --recording rec.jsonl") || !strings.Contains(b.String(), "host.result-cap") {
		t.Errorf("text:\n%s", b.String())
	}
}
