package lint

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// feed runs lines through a fresh linter (">" client, "<" server) and
// returns the ids of the rules broken.
func feed(t *testing.T, lines ...string) []Finding {
	t.Helper()
	l := New()
	var out []Finding
	for i, ln := range lines {
		out = append(out, l.Observe(Line{Seq: uint64(i + 1), Out: ln[0] == '>', Raw: []byte(ln[1:])})...)
	}
	return out
}

func ids(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule)
	}
	return out
}

const initLines = `>{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}` + "\n" +
	`<{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`

// Progress that crossed the cancel on the wire is no finding, however
// many lines crossed it (a busy machine); once the server answered a
// request sent after the cancel, it has read it, and more progress is.
func TestCancellationJudgedByWhatTheServerRead(t *testing.T) {
	init := splitLines(initLines)
	call := `>{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow","_meta":{"progressToken":"p"}}}`
	cancel := `>{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`
	progress := `<{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":%d}}`
	crossing := append(slices.Clone(init), call, cancel, sprintf(progress, 1), sprintf(progress, 2), sprintf(progress, 3))
	if got := ids(feed(t, crossing...)); slices.Contains(got, "cancellation.no-response") {
		t.Errorf("progress crossing the cancel was judged: %v", got)
	}
	later := append(slices.Clone(crossing), `>{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`<{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`, sprintf(progress, 4))
	if got := ids(feed(t, later...)); !slices.Contains(got, "cancellation.no-response") {
		t.Errorf("progress after the server answered a later request: %v, want cancellation.no-response", got)
	}
}

// A reply to a notification is its own finding, with the rule and era a
// view cites.
func TestReplyToNotification(t *testing.T) {
	lines := append(splitLines(initLines), `>{"jsonrpc":"2.0","method":"notifications/zoo"}`,
		`<{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}`)
	fs := feed(t, lines...)
	if len(fs) != 1 || fs[0].Rule != "basic.no-response-to-notification" || fs[0].Era != "2025-11-25" {
		t.Fatalf("findings %+v", fs)
	}
	if r := fs[0].Spec(); r.Text == "" || r.URL(fs[0].Era) == "" {
		t.Errorf("spec %+v", r)
	}
	// A parse error with a null id is what JSON-RPC asks for.
	lines[len(lines)-1] = `<{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`
	if fs := feed(t, lines...); len(fs) != 0 {
		t.Errorf("parse error: %+v", fs)
	}
}

func splitLines(s string) []string { return strings.Split(s, "\n") }

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
