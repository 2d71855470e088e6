package export

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcptui/mcptui/internal/check/lint"
	"github.com/mcptui/mcptui/internal/record"
)

// scripted is a recording of one tools/call (id 2) on 2025-11-25, after
// an initialize; tail are its entries after the request, as JSON Lines
// (the request went at ms 100, at 2026-12-03T10:00:00.100Z).
func scripted(t *testing.T, tail ...string) *record.Recording {
	t.Helper()
	lines := []string{
		`{"type":"header","format":"mcptui-recording","version":1,"t":"2026-12-03T10:00:00Z","ms":0,"mode":"call","command":"./server","settings":{"timeout":"30s","maxTotalTimeout":"10m0s"}}`,
		`{"type":"sent","t":"2026-12-03T10:00:00.001Z","ms":1,"size":1,"msg":{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcptui","version":"dev"}}}}`,
		`{"type":"received","t":"2026-12-03T10:00:00.002Z","ms":2,"size":1,"msg":{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"scripted","version":"1"}}}}`,
		`{"type":"sent","t":"2026-12-03T10:00:00.003Z","ms":3,"size":1,"msg":{"jsonrpc":"2.0","method":"notifications/initialized"}}`,
		`{"type":"ready","t":"2026-12-03T10:00:00.003Z","ms":3,"protocol":"2025-11-25","pid":7,"server":{"name":"scripted","version":"1"}}`,
		`{"type":"sent","t":"2026-12-03T10:00:00.100Z","ms":100,"size":1,"msg":{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{},"_meta":{"progressToken":2}}}}`,
	}
	rec, err := record.Read(strings.NewReader(strings.Join(append(lines, tail...), "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// postMortem is call 2's post-mortem of rec, linted by the live lint.
func postMortem(t *testing.T, rec *record.Recording) string {
	t.Helper()
	s := Build(rec)
	s.Lint(rec, lint.New())
	var b bytes.Buffer
	if err := WritePostMortem(&b, s, s.Find("2"), "rec.jsonl"); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// section is the post-mortem's section named heading.
func section(md, heading string) string {
	_, after, ok := strings.Cut(md, "\n## "+heading+"\n")
	if !ok {
		return ""
	}
	body, _, _ := strings.Cut(after, "\n## ")
	return body
}

const cancelled2 = `"msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"Request timed out"}}}`

// TestPostMortemSaysWhichTimerFired: the post-mortem of a call names what
// ended it: the per-request timeout (restarted by progress or not), the
// maximum total timeout, the person's cancel key, the caller's own
// deadline (mcptui check's call timeout), an answer, a server's error,
// the transport closing, with the durations and when, from the request's
// start; a recording made before "gaveUp" says a timer fired, not which.
func TestPostMortemSaysWhichTimerFired(t *testing.T) {
	cases := map[string]struct {
		tail  []string
		wants []string
	}{
		"per-request timeout": {[]string{
			`{"type":"sent","t":"2026-12-03T10:00:01.101Z","ms":1101,"size":1,"gaveUp":{"why":"timeout","timeout":"1s","afterMs":1000.5},` + cancelled2,
		}, []string{"The per-request timeout: 1s, fired at +1.000s", "| per-request timeout (`--timeout`) | 1s |", "| restarted by progress (`--reset-timeout-on-progress`) | no |"}},
		"restarted by progress": {[]string{
			`{"type":"received","t":"2026-12-03T10:00:00.600Z","ms":600,"size":1,"msg":{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":1}}}`,
			`{"type":"sent","t":"2026-12-03T10:00:01.600Z","ms":1600,"size":1,"gaveUp":{"why":"timeout","timeout":"1s","resetTimeoutOnProgress":true,"maxTotalTimeout":"10s","afterMs":1500,"progress":1,"lastProgressMs":500},` + cancelled2,
		}, []string{"The per-request timeout: 1s, restarted by each progress notification (1 progress notification(s), the last at +500.0ms); it fired at +1.500s, 1s after the last one", "| maximum total timeout (`--max-total-timeout`) | 10s |"}},
		"maximum total timeout": {[]string{
			`{"type":"sent","t":"2026-12-03T10:00:03.100Z","ms":3100,"size":1,"gaveUp":{"why":"max-total-timeout","timeout":"1s","resetTimeoutOnProgress":true,"maxTotalTimeout":"3s","afterMs":3000,"progress":9,"lastProgressMs":2900},` + cancelled2,
		}, []string{"The maximum total timeout (--max-total-timeout): 3s, the cap on how far progress may restart the per-request timeout of 1s (9 progress notification(s), the last at +2.900s); it fired at +3.000s"}},
		"the person's cancel key": {[]string{
			`{"type":"sent","t":"2026-12-03T10:00:00.400Z","ms":400,"size":1,"gaveUp":{"why":"cancelled","timeout":"30s","afterMs":300,"cause":"cancelled by the person (the cancel key)"},"msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"The client stopped waiting"}}}`,
		}, []string{"None: it was cancelled at +300.0ms, cancelled by the person (the cancel key)."}},
		"the check's call timeout": {[]string{
			`{"type":"sent","t":"2026-12-03T10:00:05.100Z","ms":5100,"size":1,"gaveUp":{"why":"deadline","timeout":"30s","afterMs":5000,"cause":"the check's call timeout (5s): context deadline exceeded"},"msg":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"The client stopped waiting"}}}`,
		}, []string{"The caller's own deadline, not a timer of the request's: the check's call timeout (5s): context deadline exceeded; it passed at +5.000s"}},
		"answered": {[]string{
			`{"type":"received","t":"2026-12-03T10:00:00.150Z","ms":150,"size":1,"msg":{"jsonrpc":"2.0","id":2,"result":{"content":[]}}}`,
		}, []string{"None: the server answered after 50.0ms (ok)."}},
		"a server-side error": {[]string{
			`{"type":"received","t":"2026-12-03T10:00:00.150Z","ms":150,"size":1,"msg":{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"boom"}}}`,
		}, []string{"None: the server answered with an error after 50.0ms (a server-side error: error -32603 boom)."}},
		"the transport closed": {[]string{
			`{"type":"exit","t":"2026-12-03T10:00:00.700Z","ms":700,"status":"exit status 3"}`,
		}, []string{"None: the transport closed first: the server process ended (exit status 3) at +600.0ms, before an answer came."}},
		"an older recording": {[]string{
			`{"type":"sent","t":"2026-12-03T10:00:30.100Z","ms":30100,"size":1,` + cancelled2,
		}, []string{`A timer fired: mcptui cancelled it at +30.000s with the reason "Request timed out". The recording does not say which timer`, "| per-request timeout (`--timeout`) | 30s |"}},
	}
	for name, c := range cases {
		got := section(postMortem(t, scripted(t, c.tail...)), "Which timer fired")
		for _, w := range c.wants {
			if !strings.Contains(got, w) {
				t.Errorf("%s: the section lacks %q:\n%s", name, w, got)
			}
		}
	}
}

// TestPostMortemListsLintFindings: the post-mortem lists the live lint's
// findings on the call's lines (the rule, its level, what was seen, the
// rule's sentence and its section of the specification), and says none
// for a clean call.
func TestPostMortemListsLintFindings(t *testing.T) {
	broken := section(postMortem(t, scripted(t,
		`{"type":"received","t":"2026-12-03T10:00:00.150Z","ms":150,"size":1,"msg":{"jsonrpc":"2.0","id":2,"result":42}}`)), "Lint findings on its lines")
	for _, w := range []string{"**`basic.result-object`** (MUST) on the answer at +50.000 ms", "the rule: ", "(https://modelcontextprotocol.io/specification/2025-11-25/basic#responses) (2025-11-25)"} {
		if !strings.Contains(broken, w) {
			t.Errorf("the findings lack %q:\n%s", w, broken)
		}
	}
	clean := section(postMortem(t, scripted(t,
		`{"type":"received","t":"2026-12-03T10:00:00.150Z","ms":150,"size":1,"msg":{"jsonrpc":"2.0","id":2,"result":{"content":[]}}}`)), "Lint findings on its lines")
	if !strings.HasPrefix(strings.TrimSpace(clean), "None: its lines broke no rule") {
		t.Errorf("a clean call's findings:\n%s", clean)
	}
}
