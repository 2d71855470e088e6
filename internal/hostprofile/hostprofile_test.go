package hostprofile

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestGeminiSubset: each construct Gemini refuses is found, with its
// JSON pointer, and a schema in the subset passes.
func TestGeminiSubset(t *testing.T) {
	cases := []struct{ schema, pointer, problem string }{
		{`{"type":"object","properties":{"tags":{"type":"array"}}}`, "/properties/tags", `array without "items"`},
		{`{"type":"object","properties":{"n":{"type":["string","null"]}}}`, "/properties/n", `"type" is an array`},
		{`{"type":"object","properties":{"v":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"number"}]}}}}`, "/properties/v/items", "union (anyOf)"},
		{`{"type":"object","properties":{"v":{"type":"array","items":{"type":["string","number"]}}}}`, "/properties/v/items", "union (type"},
		{`{"type":"object","properties":{"s":{"type":"string","properties":{"x":{"type":"string"}}}}}`, "/properties/s", `"properties" on a schema of type [string]`},
		{`{"type":"object","properties":{"a/b":{"type":"array"}}}`, "/properties/a~1b", `array without "items"`},
		// github/copilot-cli#4623's .NET schema, both triggers.
		{`{"type":"object","properties":{"args":{"type":["array","null"],"items":{"type":["object","null"],"properties":{"value":true}}}}}`, "/properties/args", `"type" is an array [array null]`},
		{`{"type":"object","properties":{"args":{"type":["array","null"],"items":{"type":["object","null"],"properties":{"value":true}}}}}`, "/properties/args/items", `union (type [object null])`},
		{`{"type":"object","properties":{"args":{"type":["array","null"],"items":{"type":["object","null"],"properties":{"value":true}}}}}`, "/properties/args/items/properties/value", "a boolean schema (true)"},
		// Skyvern-AI/skyvern#8611: any_of[1].items: missing field.
		{`{"type":"object","properties":{"output":{"anyOf":[{"type":"object"},{"type":"array"}]}}}`, "/properties/output/anyOf/1", `array without "items"`},
	}
	for _, c := range cases {
		ps := CheckSchema(DialectGemini, json.RawMessage(c.schema))
		found := false
		for _, p := range ps {
			if p.Pointer == c.pointer && strings.Contains(p.Problem, c.problem) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: got %+v, want %q at %q", c.schema, ps, c.problem, c.pointer)
		}
	}
	ok := `{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}},"n":{"type":"integer"}},"required":["n"]}`
	if ps := CheckSchema(DialectGemini, json.RawMessage(ok)); len(ps) != 0 {
		t.Errorf("a schema in Gemini's subset: %+v", ps)
	}
	if ps := CheckSchema(DialectAny, json.RawMessage(cases[0].schema)); len(ps) != 0 {
		t.Errorf("no dialect judges nothing: %+v", ps)
	}
}

// TestOpenAIStrict: additionalProperties false and every property
// required, on nested objects too.
func TestOpenAIStrict(t *testing.T) {
	bad := `{"type":"object","properties":{"a":{"type":"string"},"o":{"type":"object","properties":{"x":{"type":"string"}},"required":["x"]}},"required":["a"]}`
	ps := CheckSchema(DialectOpenAIStrict, json.RawMessage(bad))
	want := map[string]string{"": "", "/properties/o": ""}
	got := map[string][]string{}
	for _, p := range ps {
		got[p.Pointer] = append(got[p.Pointer], p.Problem)
	}
	for ptr := range want {
		if len(got[ptr]) == 0 {
			t.Errorf("nothing at %q: %+v", ptr, ps)
		}
	}
	if !strings.Contains(strings.Join(got[""], ";"), `not in "required": o`) {
		t.Errorf("root: %v", got[""])
	}
	good := `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`
	if ps := CheckSchema(DialectOpenAIStrict, json.RawMessage(good)); len(ps) != 0 {
		t.Errorf("a strict schema: %+v", ps)
	}
}

// TestProfiles: the names the command line takes resolve, every limit a
// profile states has its source beside it, and Claude Code's final name
// is mcp__<server>__<tool> judged against 64.
func TestProfiles(t *testing.T) {
	for _, want := range []string{"claude-desktop", "claude-code", "vscode", "cursor", "gemini-cli", "chatgpt"} {
		if _, ok := HostNamed(want); !ok {
			t.Errorf("no host %s", want)
		}
	}
	for _, want := range []string{"anthropic", "openai", "openai-strict", "gemini", "bedrock"} {
		if _, ok := ModelNamed(want); !ok {
			t.Errorf("no model %s", want)
		}
	}
	for _, h := range Hosts() {
		if (h.ToolName != "") != (h.ToolNameSource != "") || (h.NameLimit != 0) != (h.NameSource != "") ||
			(h.ResultTokens != 0) != (h.ResultSource != "") || (h.ConnectTimeout != 0) != (h.ConnectTimeoutSource != "") ||
			h.LegacyInitialize != (h.LegacySource != "") {
			t.Errorf("host %s: a fact without its source (or a source without its fact)", h.Name)
		}
		if err := h.check(); err != nil {
			t.Errorf("host %s: %v", h.Name, err)
		}
	}
	for _, m := range Models() {
		if (m.NameLimit != 0) != (m.NameSource != "") || (m.Dialect != DialectAny) != (m.DialectSource != "") {
			t.Errorf("model %s: a fact without its source", m.Name)
		}
	}
	cc, _ := HostNamed("claude-code")
	if n, ok := cc.FinalName("srv", "tool"); !ok || n != "mcp__srv__tool" {
		t.Errorf("claude-code final name %q %v", n, ok)
	}
	if l, src := cc.NameRule(); l != 64 || !strings.Contains(src, "claude-code#20643") {
		t.Errorf("claude-code name rule %d %q", l, src)
	}
	if hs, err := ParseHosts("all"); err != nil || len(hs) != len(Hosts()) {
		t.Errorf("all: %d %v", len(hs), err)
	}
	if _, err := ParseHosts("claude-code,nope"); err == nil || !strings.Contains(err.Error(), `unknown host "nope"`) {
		t.Errorf("unknown host: %v", err)
	}
}

// TestWithFile: a user's file replaces a profile by name and adds new
// ones (a host may name a model of the file); a limit without its source,
// an unknown field or model is refused.
func TestWithFile(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		p := dir + "/p.json"
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tb, err := Builtin().WithFile(write(`{
	  "models": [{"name": "local", "nameLimit": 40, "nameSource": "our gateway's docs"}],
	  "hosts": [
	    {"name": "cursor", "toolName": "{server}_{tool}", "toolNameSource": "our test, 2026-12", "models": ["local"]},
	    {"name": "ours", "models": ["gemini"], "resultTokens": 1000, "resultSource": "our proxy"}
	  ]}`))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := tb.Host("cursor")
	if n, _ := c.FinalName("s", "t"); n != "s_t" {
		t.Errorf("cursor replaced: %q", n)
	}
	if l, src := c.NameRule(); l != 40 || src != "our gateway's docs" {
		t.Errorf("cursor's model from the file: %d %q", l, src)
	}
	o, ok := tb.Host("ours")
	if !ok || len(o.ModelProfiles) != 1 || o.ModelProfiles[0].Dialect != DialectGemini || o.ResultTokens != 1000 {
		t.Errorf("added host: %+v", o)
	}
	if len(tb.Hosts) != len(Hosts())+1 || len(tb.Models) != len(Models())+1 {
		t.Errorf("%d hosts %d models", len(tb.Hosts), len(tb.Models))
	}
	if orig, _ := HostNamed("cursor"); orig.ToolName != "" {
		t.Error("the built-in table changed")
	}
	for body, want := range map[string]string{
		`{"hosts":[{"name":"x","nameLimit":10}]}`:                        "nameLimit needs its nameSource",
		`{"hosts":[{"name":"x","models":["nope"]}]}`:                     `unknown model "nope"`,
		`{"hosts":[{"name":"x","limit":3}]}`:                             "unknown field",
		`{"models":[{"name":"m","dialect":"yaml"}]}`:                     "dialectSource",
		`{"models":[{"name":"m","dialect":"yaml","dialectSource":"s"}]}`: `dialect "yaml" is none of`,
	} {
		if _, err := Builtin().WithFile(write(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}

// TestDesktopLaunchPerPlatform: Claude Desktop's launch is recorded for
// macOS, Windows and Linux, each with its config file, and Windows' with
// the batch-file and PATHEXT facts; a platform with none has none.
func TestDesktopLaunchPerPlatform(t *testing.T) {
	h, _ := HostNamed("claude-desktop")
	for _, tt := range []struct{ goos, config string }{
		{"darwin", "~/Library/Application Support/Claude/claude_desktop_config.json"},
		{"windows", `%APPDATA%\Claude\claude_desktop_config.json`},
		{"linux", "~/.config/Claude/claude_desktop_config.json"},
	} {
		l, ok := h.LaunchOn(tt.goos)
		if !ok || l.Config != tt.config || l.ConfigSource == "" {
			t.Errorf("%s: %+v", tt.goos, l)
		}
	}
	w, _ := h.LaunchOn("windows")
	if !w.BatchUnquoted || !w.UserPATH || len(w.Drops) != 1 || w.Drops[0] != "PATHEXT" || w.PATH != "" {
		t.Errorf("windows: %+v", w)
	}
	if l, _ := h.LaunchOn("linux"); l.PATH != "" || l.Inherit != nil || len(l.Unknown) == 0 {
		t.Errorf("linux: a fact no source states: %+v", l)
	}
	if _, ok := h.LaunchOn("plan9"); ok {
		t.Error("a launch for plan9")
	}
	bad := Host{Name: "x", Launches: []Launch{{OS: "windows", BatchUnquoted: true}}}
	if bad.check() == nil {
		t.Error("batchUnquoted without its source passed")
	}
}
