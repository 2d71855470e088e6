package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// demoServer is the command line that runs the demo server (the test
// binary as mcptui).
func demoServer(t *testing.T) []string {
	t.Helper()
	t.Setenv(asMainEnv, "1")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{"--", self, "demo-server"}
}

// TestSnapshotCommandIsStable: mcptui snapshot of the same server twice is
// byte-identical.
func TestSnapshotCommandIsStable(t *testing.T) {
	srv := demoServer(t)
	code, a := runApp(t, nil, append([]string{"snapshot"}, srv...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, a)
	}
	_, b := runApp(t, nil, append([]string{"snapshot"}, srv...)...)
	if a != b {
		t.Fatalf("two snapshots differ")
	}
	if !strings.Contains(a, `"format": "mcptui-snapshot"`) || !strings.Contains(a, `"name": "echo"`) {
		t.Fatalf("snapshot:\n%.2000s", a)
	}
}

// TestDiffCommand: diff of two files, of a file and the live server, of a
// recording; the exit code follows --fail-on; text, JSON and Markdown.
func TestDiffCommand(t *testing.T) {
	srv := demoServer(t)
	dir := t.TempDir()
	v1 := filepath.Join(dir, "v1.json")
	code, out := runApp(t, nil, append([]string{"snapshot"}, srv...)...)
	if code != 0 {
		t.Fatalf("snapshot: exit %d\n%s", code, out)
	}
	if err := os.WriteFile(v1, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	// v2: the image tool removed, echo's description reworded.
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	era := doc["eras"].([]any)[0].(map[string]any)
	var tools []any
	for _, x := range era["tools"].([]any) {
		tl := x.(map[string]any)
		switch tl["name"] {
		case "image":
			continue
		case "echo":
			tl["description"] = "Echoes the text back, and remembers it."
		}
		tools = append(tools, tl)
	}
	era["tools"] = tools
	b, _ := json.Marshal(doc)
	v2 := filepath.Join(dir, "v2.json")
	if err := os.WriteFile(v2, b, 0o644); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		args []string
		exit int
		want []string
	}{
		{[]string{"diff", v1, v2}, 1, []string{"tool image\n  BREAKING  tool removed", "tool echo\n  RISKY     description reworded", "{+", "1 breaking, 1 risky"}},
		{[]string{"diff", v2, v1}, 1, []string{"ADDITIVE  new tool", "1 risky, 1 additive"}},
		{[]string{"diff", "--fail-on", "breaking", v2, v1}, 0, []string{"new tool"}},
		{[]string{"diff", "--fail-on", "any", v2, v1}, 1, []string{"new tool"}},
		{[]string{"diff", "--fail-on", "none", v1, v2}, 0, []string{"1 breaking"}},
		{[]string{"diff", "--format", "json", v1, v2}, 1, []string{`"kind": "tool-removed"`, `"subject": "tool image"`}},
		{[]string{"diff", "--format", "markdown", v1, v2}, 1, []string{"### MCP surface diff: 1 breaking, 1 risky", "| 🔴 breaking | tool removed |"}},
		{append([]string{"diff", v1}, srv...), 0, []string{"no changes"}},
		{append([]string{"diff", v2}, srv...), 1, []string{"1 risky, 1 additive"}},
	} {
		code, out := runApp(t, nil, tc.args...)
		if code != tc.exit {
			t.Errorf("%v: exit %d, want %d\n%s", tc.args, code, tc.exit, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: %q not in\n%s", tc.args, w, out)
			}
		}
	}

	// A recording of mcptui tools is a side too: its tools list is the
	// surface (the lists it never asked for are not compared).
	rec := filepath.Join(dir, "tools.jsonl")
	if code, out := runApp(t, nil, append([]string{"tools", "--record", rec}, srv...)...); code != 0 {
		t.Fatalf("tools --record: exit %d\n%s", code, out)
	}
	if code, out := runApp(t, nil, "diff", rec, v1); code != 0 || !strings.Contains(out, "no changes") {
		t.Errorf("diff recording v1: exit %d\n%s", code, out)
	}
	if code, out := runApp(t, nil, "diff", rec, v2); code != 1 || !strings.Contains(out, "tool image\n  BREAKING  tool removed") {
		t.Errorf("diff recording v2: exit %d\n%s", code, out)
	}
}

// TestCheckBaseline: check --baseline adds the drift group to the report,
// text, JUnit and SARIF; a baseline the server still matches passes.
func TestCheckBaseline(t *testing.T) {
	srv := demoServer(t)
	dir := t.TempDir()
	code, out := runApp(t, nil, append([]string{"snapshot"}, srv...)...)
	if code != 0 {
		t.Fatalf("snapshot: exit %d\n%s", code, out)
	}
	same := filepath.Join(dir, "same.json")
	if err := os.WriteFile(same, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	// The last release had a tool "gone" and worded echo otherwise.
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	era := doc["eras"].([]any)[0].(map[string]any)
	tools := era["tools"].([]any)
	for _, x := range tools {
		if tl := x.(map[string]any); tl["name"] == "echo" {
			tl["description"] = "Says it back."
		}
	}
	era["tools"] = append(tools, map[string]any{"name": "gone", "inputSchema": map[string]any{"type": "object"}})
	b, _ := json.Marshal(doc)
	old := filepath.Join(dir, "old.json")
	if err := os.WriteFile(old, b, 0o644); err != nil {
		t.Fatal(err)
	}

	code, out = runApp(t, nil, append([]string{"check", "--rule", "drift", "--baseline", same}, srv...)...)
	if code != 0 || !strings.Contains(out, "✓ drift.breaking") || !strings.Contains(out, "✓ drift.risky") {
		t.Errorf("same baseline: exit %d\n%s", code, out)
	}
	junit, sarif := filepath.Join(dir, "r.xml"), filepath.Join(dir, "r.sarif")
	code, out = runApp(t, nil, append([]string{"check", "--rule", "drift", "--baseline", old, "--junit", junit, "--sarif", sarif}, srv...)...)
	if code != 10 {
		t.Errorf("old baseline: exit %d, want 10\n%s", code, out)
	}
	for _, w := range []string{"✗ drift.breaking", "seen: tool gone: tool removed", "! drift.risky", "seen: tool echo: description reworded (description): [-Says it back.-] {+"} {
		if !strings.Contains(out, w) {
			t.Errorf("%q not in\n%s", w, out)
		}
	}
	for _, f := range []string{junit, sarif} {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), "drift.breaking") || !strings.Contains(string(b), "tool gone: tool removed") {
			t.Errorf("%s lacks the drift failure (%v):\n%.3000s", f, err, b)
		}
	}
	if code, out := runApp(t, nil, append([]string{"check", "--rule", "drift", "--level", "should", "--baseline", old}, srv...)...); code != 10 {
		t.Errorf("exit %d\n%s", code, out)
	}
	if code, out := runApp(t, nil, append([]string{"check", "--baseline", filepath.Join(dir, "missing.json")}, srv...)...); code != 2 || !strings.Contains(out, "--baseline") {
		t.Errorf("missing baseline: exit %d\n%s", code, out)
	}
}

// TestReplayVerifyCommand: a recording verified against the server it was
// made with passes, the server's question (sampling) included; against a
// recording whose answer differs it fails with the exchange named.
func TestReplayVerifyCommand(t *testing.T) {
	srv := demoServer(t)
	dir := t.TempDir()
	for _, protocol := range []string{"2025-06-18", "2026-07-28"} {
		rec := filepath.Join(dir, protocol+".jsonl")
		if code, out := runApp(t, nil, append([]string{"call", "sample", "--arg", "prompt=hi", "--answer", "sampling=text:hello", "--protocol", protocol, "--record", rec}, srv...)...); code != 0 {
			t.Fatalf("recording: exit %d\n%s", code, out)
		}
		code, out := runApp(t, nil, append([]string{"replay", "--verify", rec}, srv...)...)
		want := "same     #3 sampling/createMessage (asked by the server)"
		if protocol == "2026-07-28" {
			want = "same     #2 tools/call sample" // pinned: no discover; the input_required round, requestState and all
		}
		if code != 0 || !strings.Contains(out, want) || strings.Contains(out, "changed") {
			t.Errorf("%s: same server: exit %d\n%s", protocol, code, out)
		}
		b, err := os.ReadFile(rec)
		if err != nil {
			t.Fatal(err)
		}
		changed := filepath.Join(dir, protocol+"-changed.jsonl")
		if err := os.WriteFile(changed, []byte(strings.ReplaceAll(string(b), "replied (stop reason", "answered (stop reason")), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out = runApp(t, nil, append([]string{"replay", "--verify", changed}, srv...)...)
		if code != 1 || !strings.Contains(out, "changed  #") || !strings.Contains(out, "tools/call sample\n           .result.content[0].text: \"The model \\\"mcptui-headless\\\" answered") {
			t.Errorf("%s: changed: exit %d\n%s", protocol, code, out)
		}
		if code, out := runApp(t, nil, append([]string{"replay", "--verify", "--ignore", ".result.content[].text", changed}, srv...)...); code != 0 {
			t.Errorf("%s: --ignore: exit %d\n%s", protocol, code, out)
		}
		if code, out := runApp(t, nil, append([]string{"replay", "--verify", "--fail-on", "none", "--format", "json", changed}, srv...)...); code != 0 || !strings.Contains(out, `"status": "changed"`) {
			t.Errorf("%s: --fail-on none: exit %d\n%s", protocol, code, out)
		}
	}
}
