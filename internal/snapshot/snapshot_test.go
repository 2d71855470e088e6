package snapshot

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"regexp"
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

// spec is a server of five tools (three pages), resources, a template and
// a prompt, listed out of order.
func spec() surfaceserver.Spec {
	return surfaceserver.Spec{
		ServerInfo:   map[string]any{"name": "demo", "version": "1.2.0"},
		Capabilities: map[string]any{"tools": map[string]any{"listChanged": true}, "resources": map[string]any{}, "prompts": map[string]any{}},
		Instructions: "Use <add> for sums & more.",
		Tools: []map[string]any{
			{"name": "zeta", "inputSchema": map[string]any{"type": "object", "required": []any{"b", "a"}, "properties": map[string]any{"b": map[string]any{"type": "number"}, "a": map[string]any{"type": "number"}}}},
			{"name": "add", "description": "Adds", "inputSchema": map[string]any{"type": "object"}, "annotations": map[string]any{"readOnlyHint": true}},
			{"name": "mid", "inputSchema": map[string]any{"type": "object"}, "outputSchema": map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer"}}}},
			{"name": "big", "inputSchema": map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer", "maximum": json.Number("12345678901234567890")}}}},
			{"name": "beta", "inputSchema": map[string]any{"type": "object"}},
		},
		Resources:         []map[string]any{{"uri": "demo://b", "name": "b"}, {"uri": "demo://a", "name": "a"}},
		ResourceTemplates: []map[string]any{{"uriTemplate": "demo://{x}", "name": "x"}},
		Prompts:           []map[string]any{{"name": "greet", "arguments": []any{map[string]any{"name": "who", "required": true}}}},
	}
}

func capture(t *testing.T, sp surfaceserver.Spec, eras []string, rec *record.Recorder) []byte {
	t.Helper()
	cmd, args, env := surfaceserver.Command(t, sp)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	name, value, _ := strings.Cut(env[0], "=")
	o := mcp.Options{Conn: conn.Options{Env: []conn.EnvVar{{Name: name, Value: &value}}}}
	if rec != nil {
		o.Conn.Observer = rec.Observe
		c, err := mcp.Connect(ctx, cmd, args, o)
		if err != nil {
			t.Fatal(err)
		}
		rec.Connected(c)
		s, err := Take(ctx, c)
		c.Shutdown(time.Second)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Marshal(&Document{Format: Format, Version: Version, Eras: []Surface{s}})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	d, err := Capture(ctx, cmd, args, o, eras)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSnapshotIsStable: the same server snapshotted twice is
// byte-identical, every page was followed, lists are sorted, sets sorted,
// numbers kept as written and nothing HTML-escaped.
func TestSnapshotIsStable(t *testing.T) {
	a := capture(t, spec(), nil, nil)
	b := capture(t, spec(), nil, nil)
	if !bytes.Equal(a, b) {
		t.Fatalf("two snapshots differ:\n%s\n---\n%s", a, b)
	}
	d, err := Parse(a)
	if err != nil {
		t.Fatal(err)
	}
	s := d.Eras[0]
	var names []string
	for _, tl := range s.Tools {
		names = append(names, Key(tl, "name"))
	}
	if got := strings.Join(names, ","); got != "add,beta,big,mid,zeta" {
		t.Errorf("tools %s, want every page, sorted", got)
	}
	if s.Protocol != "2025-06-18" || len(s.Resources) != 2 || Key(s.Resources[0], "uri") != "demo://a" || len(s.ResourceTemplates) != 1 || len(s.Prompts) != 1 {
		t.Errorf("surface: %s", a)
	}
	if !regexp.MustCompile(`"required": \[\s*"a",\s*"b"\s*\]`).Match(a) {
		t.Errorf("required not sorted:\n%s", a)
	}
	for _, want := range []string{`12345678901234567890`, `Use <add> for sums & more.`, `"name": "demo"`} {
		if !bytes.Contains(a, []byte(want)) {
			t.Errorf("%q not in the snapshot:\n%s", want, a)
		}
	}
	// Another order of the same lists is the same snapshot.
	sp := spec()
	sp.Tools[0], sp.Tools[4] = sp.Tools[4], sp.Tools[0]
	sp.PageSize = 10
	if c := capture(t, sp, nil, nil); !bytes.Equal(a, c) {
		t.Errorf("the same surface in another order and page size differs:\n%s\n---\n%s", a, c)
	}
}

// TestSnapshotEras: --era all snapshots each revision the server accepts
// and leaves out those it refuses.
func TestSnapshotEras(t *testing.T) {
	sp := spec()
	sp.Protocols = []string{"2025-06-18", "2025-03-26"}
	var eras []string
	for _, v := range mcp.DefaultVersions {
		eras = append([]string{v}, eras...)
	}
	d, err := Parse(capture(t, sp, eras, nil))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range d.Eras {
		got = append(got, e.Protocol)
	}
	if strings.Join(got, ",") != "2025-03-26,2025-06-18" {
		t.Fatalf("eras %v, want the two the server accepts", got)
	}
}

// TestSnapshotFromRecording: a recording of the session that listed
// everything gives the same snapshot as the live server.
func TestSnapshotFromRecording(t *testing.T) {
	var buf bytes.Buffer
	rec := record.New(&buf, record.Header{Command: "surface"})
	live := capture(t, spec(), nil, rec)
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := record.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	d, err := FromRecording(r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, live) {
		t.Fatalf("from the recording:\n%s\nlive:\n%s", b, live)
	}
}
