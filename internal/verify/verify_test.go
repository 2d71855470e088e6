package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/testkit/surfaceserver"
	"github.com/mcptui/mcptui/mcp"
)

func TestMain(m *testing.M) {
	surfaceserver.Main()
	os.Exit(m.Run())
}

type obj = map[string]any

func v1() surfaceserver.Spec {
	return surfaceserver.Spec{
		PageSize:     10,
		Capabilities: obj{"tools": obj{}},
		Tools: []map[string]any{
			{"name": "add", "inputSchema": obj{"type": "object"}},
			{"name": "now", "inputSchema": obj{"type": "object"}},
			{"name": "zzz", "inputSchema": obj{"type": "object"}},
		},
		Results: map[string]json.RawMessage{
			"add": json.RawMessage(`{"content":[{"type":"text","text":"5"}]}`),
			"now": json.RawMessage(`{"content":[{"type":"text","text":"tick"}],"structuredContent":{"at":"2026-12-03T04:00:00.123Z"},"_meta":{"trace":"a1"}}`),
		},
	}
}

// recording records a session with sp's server: list the tools, call add
// and now.
func recording(t *testing.T, sp surfaceserver.Spec) *record.Recording {
	t.Helper()
	cmd, args, env := surfaceserver.Command(t, sp)
	name, value, _ := strings.Cut(env[0], "=")
	var buf bytes.Buffer
	rec := record.New(&buf, record.Header{Command: cmd})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := mcp.Connect(ctx, cmd, args, mcp.Options{Conn: conn.Options{Env: []conn.EnvVar{{Name: name, Value: &value}}, Observer: rec.Observe}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"add", "now"} {
		if _, err := c.CallTool(ctx, tool, map[string]any{"a": 2, "b": 3}); err != nil {
			t.Fatal(err)
		}
	}
	c.Shutdown(time.Second)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := record.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func verifyAgainst(t *testing.T, r *record.Recording, sp surfaceserver.Spec, ignore ...string) *Report {
	t.Helper()
	cmd, args, env := surfaceserver.Command(t, sp)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := Run(ctx, r, Options{Command: cmd, Args: args, Env: env, Timeout: 20 * time.Second, Ignore: ignore})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func text(t *testing.T, rep *Report) string {
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestVerifySameServer: the recording verified against the server it was
// made with is the same throughout, though _meta, the timestamp and the
// tools' order differ.
func TestVerifySameServer(t *testing.T) {
	r := recording(t, v1())
	sp := v1()
	sp.Tools[0], sp.Tools[2] = sp.Tools[2], sp.Tools[0]
	sp.Results["now"] = json.RawMessage(`{"content":[{"type":"text","text":"tick"}],"structuredContent":{"at":"2026-12-04T09:30:00Z"},"_meta":{"trace":"b2"}}`)
	rep := verifyAgainst(t, r, sp)
	if rep.Fails("any") || rep.Counts[Same] != len(rep.Exchanges) || len(rep.Exchanges) != 5 {
		t.Fatalf("not all same:\n%s", text(t, rep))
	}
}

// TestVerifyChangedServer: against a changed build the exchange that
// changed is named with its difference, and the report fails.
func TestVerifyChangedServer(t *testing.T) {
	r := recording(t, v1())
	sp := v1()
	sp.Results["add"] = json.RawMessage(`{"content":[{"type":"text","text":"6"}]}`)
	rep := verifyAgainst(t, r, sp)
	out := text(t, rep)
	if !rep.Fails("risky") || rep.Fails("breaking") || rep.Counts[Changed] != 1 {
		t.Fatalf("want one changed exchange:\n%s", out)
	}
	if !strings.Contains(out, "changed  #4 tools/call add\n           .result.content[0].text: \"5\" → \"6\"") {
		t.Errorf("the exchange is not named with its difference:\n%s", out)
	}
	// Ignoring that path, it is the same.
	if rep := verifyAgainst(t, r, sp, ".result.content[].text"); rep.Fails("any") {
		t.Errorf("--ignore .result.content[].text:\n%s", text(t, rep))
	}
	// A tool removed changes the list and the call.
	sp = v1()
	sp.Tools = sp.Tools[1:]
	delete(sp.Results, "add")
	out = text(t, verifyAgainst(t, r, sp))
	for _, w := range []string{"changed  #3 tools/list\n           .result.tools[0].name: \"add\" → \"now\"", "changed  #4 tools/call add\n           .error: (absent) → {\"code\":-32602", ".result: {\"content\""} {
		if !strings.Contains(out, w) {
			t.Errorf("%q not in:\n%s", w, out)
		}
	}
}

// TestVerifyMissing: a build that exits at once answers nothing: every
// exchange is missing, and that is breaking.
func TestVerifyMissing(t *testing.T) {
	r := recording(t, v1())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := Run(ctx, r, Options{Command: "true", Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Fails("breaking") || rep.Counts[Missing] != len(rep.Exchanges) || !strings.Contains(text(t, rep), "missing  #1 server/discover: the server exited") {
		t.Fatalf("%s", text(t, rep))
	}
}

func TestIgnorePaths(t *testing.T) {
	r := &Report{}
	for _, p := range []string{".result._meta", ".result.content[].text", ".error"} {
		r.ignore = append(r.ignore, splitPath(p))
	}
	for path, want := range map[string]bool{
		".result._meta.x": true, ".result.content[3].text": true, ".result.content[3].type": false,
		".error.code": true, ".result": false, ".result.contents[0].text": false,
	} {
		if got := r.ignored(path); got != want {
			t.Errorf("ignored(%s) = %v, want %v", path, got, want)
		}
	}
}
