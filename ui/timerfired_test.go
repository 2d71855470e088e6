package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcptui/mcptui/internal/backend"
	"github.com/mcptui/mcptui/internal/protocol"
	"github.com/mcptui/mcptui/internal/rpccall"
	"github.com/mcptui/mcptui/internal/session"
	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// gaveUpCall is a tools/call of tool sent at sec, with id, and the
// notifications/cancelled mcptui sent when it gave up on it (g).
func gaveUpCall(sec float64, id int, tool string, g *rpccall.GaveUp) []model.Event {
	req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, id, tool)
	cancel := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%d,"reason":"%s"}}`, id, rpccall.ReasonTimedOut)
	return []model.Event{
		model.Wire{Stamp: model.Stamp{Time: uitest.At(sec)}, Dir: model.Out, Line: []byte(req), Size: len(req)},
		model.Wire{Stamp: model.Stamp{Time: uitest.At(sec).Add(g.After)}, Dir: model.Out, Line: []byte(cancel), Size: len(cancel), GaveUp: g},
	}
}

// TestTimerThatFiredIsUnderTheRow: pane 1 draws, under the row of a call
// mcptui cancelled because a timer fired, which timer and when, in the
// post-mortem's words; a sentence longer than the pane (at 80 columns,
// even the shortest) is cut after a word, with an ellipsis, inside the
// pane; a call the person cancelled gets no such line.
func TestTimerThatFiredIsUnderTheRow(t *testing.T) {
	evs := []model.Event{
		model.Started{Stamp: model.Stamp{Time: uitest.At(0)}, Command: []string{"./server"}, PID: 7},
		model.Ready{Stamp: model.Stamp{Time: uitest.At(0.3)}, ServerName: "server", ServerVersion: "1", Protocol: protocol.Rev20251125, PID: 7},
	}
	evs = append(evs, gaveUpCall(20, 8, "slow", &rpccall.GaveUp{Why: rpccall.WhyTimeout, Timeout: time.Second, After: 1000400 * time.Microsecond})...)
	evs = append(evs, gaveUpCall(22, 9, "steps", &rpccall.GaveUp{Why: rpccall.WhyTimeout, Timeout: time.Second, ResetOnProgress: true,
		Progress: 3, LastProgress: 2 * time.Second, After: 3 * time.Second})...)
	evs = append(evs, gaveUpCall(26, 10, "held", &rpccall.GaveUp{Why: rpccall.WhyCancelled, Cause: errors.New("cancelled by the person (the cancel key)"), After: 2 * time.Second})...)
	for _, c := range []struct {
		w, h       int
		slow, step string
	}{
		{160, 48, "    ✗ The per-request timeout: 1s, fired at +1.000s. ", "    ✗ The per-request timeout: 1s, restarted by each progress notification (3… "},
		{80, 24, "    ✗ The per-request timeout: 1s, fired… ┃", "    ✗ The per-request timeout: 1s…        ┃"},
	} {
		m, _ := newTest(t, c.w, c.h, evs...)
		s := screen(m)
		rows := strings.Split(s, "\n")
		for i, r := range rows {
			if w := ansi.StringWidth(r); w != c.w {
				t.Errorf("%d columns: row %d is %d cells wide: %q", c.w, i, w, r)
			}
		}
		under := func(tool string) string {
			t.Helper()
			for i, r := range rows {
				if strings.Contains(r, "tools/call "+tool+" ") && i+1 < len(rows) {
					return rows[i+1]
				}
			}
			t.Fatalf("%d columns: no row for %s:\n%s", c.w, tool, s)
			return ""
		}
		if got := under("slow"); !strings.Contains(got, c.slow) {
			t.Errorf("%d columns: under slow's row: %q; want %q in it\n%s", c.w, got, c.slow, s)
		}
		if got := under("steps"); !strings.Contains(got, c.step) {
			t.Errorf("%d columns: under steps's row (cut with an ellipsis): %q; want %q in it\n%s", c.w, got, c.step, s)
		}
		if got := under("held"); strings.Contains(got, "✗") || strings.Contains(got, "timeout") {
			t.Errorf("%d columns: the call the person cancelled has a timer's line: %q\n%s", c.w, got, s)
		}
	}
}

// TestTimedOutCallSaysWhichTimerInPane1: the demo's slow tool, called with
// a 1s timeout: pane 1 draws under its row which timer fired and when, the
// very sentence its post-mortem writes under "Which timer fired"; the
// outcome (enter on the row) says it whole.
func TestTimedOutCallSaysWhichTimerInPane1(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the demo server")
	}
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	l := startServer(t, demoEnv, "1", []string{mcp.Version20251125}, model.Config{}, func(o *Options, s *session.Session) {
		o.Catalog = s.Catalog("demo")
	})
	defer l.quit()
	l.waitText("● ready")
	if _, err := l.sess.Call(context.Background(), backend.CallRequest{Method: "tools/call", Params: json.RawMessage(`{"name":"slow","arguments":{"seconds":60}}`), Timeout: time.Second}); err == nil {
		t.Fatal("slow answered within its 1s timeout")
	}
	line := regexp.MustCompile(`→2\s+tools/call slow .* cancelled┃[^\n]*\n┃    ✗ (The per-request timeout: 1s, fired at \+\d+\.\d{3}s\.) `)
	m := line.FindStringSubmatch(l.waitMatch(line.String()))
	words := m[1]
	doc := l.postMortemFile(dir, 0)
	if timer := section(doc, "Which timer fired"); !strings.Contains(timer, words+" mcptui then cancelled the request.") {
		t.Errorf("pane 1 says %q; its post-mortem says otherwise:\n%s", words, doc)
	}
	l.p.Send(keyMsg("1"))
	l.p.Send(keyMsg("g"))
	l.p.Send(keyMsg("enter"))
	l.waitText("cancelled: " + words + " notifications/cancelled was sent")
	l.answersKeys()
}
