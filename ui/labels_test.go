package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
)

// TestCallLabelPerState: every state of a request's record maps to one
// label, and only that record (and its own questions) decides it.
func TestCallLabelPerState(t *testing.T) {
	at := uitest.At(30)
	start := uitest.At(10)
	q := func(st model.QuestionState) *model.Question { return &model.Question{State: st} }
	ended := func(o model.Outcome) *model.Call {
		o.Time = uitest.At(20)
		return &model.Call{Start: start, Outcome: o}
	}
	timer := func(left time.Duration) *model.Call {
		return &model.Call{Start: start, Deadline: at.Add(left)}
	}
	covered := map[model.OutcomeKind]bool{}
	defer func() {
		// A new state of a request needs its label, and its row here.
		for k := model.Pending; named(k); k++ {
			if !covered[k] {
				t.Errorf("no case for a request %v", k)
			}
		}
	}()
	for _, tc := range []struct {
		name     string
		c        *model.Call
		qs       []*model.Question
		readOnly bool
		text     string
		tone     tone
		done     bool
	}{
		{"pending, no timer", &model.Call{Start: start}, nil, false, "", toneMuted, false},
		{"pending, time left", timer(20 * time.Second), nil, false, "20s left", toneMuted, false},
		{"pending, little time left", timer(3 * time.Second), nil, false, "3s left", toneWarn, false},
		{"pending, overdue", timer(-2 * time.Second), nil, false, "overdue 2s", toneError, false},
		{"pending, unwritten", &model.Call{Start: start, Queued: true}, nil, false, "unwritten", toneWarn, false},
		{"pending, answer discarded", &model.Call{Start: start, AnswerDiscarded: "over the limit"}, nil, false, "ans discarded", toneError, false},
		{"succeeded", ended(model.Outcome{Kind: model.Succeeded}), nil, false, "ok", toneOK, true},
		{"succeeded with isError", ended(model.Outcome{Kind: model.Succeeded, ToolError: true}), nil, false, "tool error", toneError, true},
		{"error answer", ended(model.Outcome{Kind: model.FailedWithError, Err: &model.RPCError{Code: -32602}}), nil, false, "error -32602", toneError, true},
		{"the probe's -32601", ended(model.Outcome{Kind: model.FailedWithError, Err: &model.RPCError{Code: -32601}, Negotiation: true}), nil, false, "older server", toneMuted, true},
		{"cancelled", ended(model.Outcome{Kind: model.CancelledByCaller}), nil, false, "cancelled", toneWarn, true},
		{"connection died", ended(model.Outcome{Kind: model.ConnectionDied}), nil, false, "conn died", toneError, true},
		{"failed locally", ended(model.Outcome{Kind: model.FailedLocally, Err: &model.RPCError{Message: "write failed"}}), nil, false, "failed", toneError, true},
		{"timed out", ended(model.Outcome{Kind: model.FailedLocally, Err: &model.RPCError{Message: "request timed out"}}), nil, false, "timed out", toneError, true},
		{"failed after its question was rejected", ended(model.Outcome{Kind: model.FailedLocally, Err: &model.RPCError{Message: "you rejected"}}), []*model.Question{q(model.Rejected)}, false, "you rejected", toneError, true},
		{"failed after a policy rejected its question", ended(model.Outcome{Kind: model.FailedLocally, Err: &model.RPCError{Message: "the policy rejected"}}), []*model.Question{{State: model.Rejected, Auto: "sampling=reject"}}, false, "policy rejected", toneError, true},
		{"input required, its question waits", ended(model.Outcome{Kind: model.NeedsInput}), []*model.Question{q(model.Waiting)}, false, "waits for you", tonePending, true},
		{"input required, its question waits, watched", ended(model.Outcome{Kind: model.NeedsInput}), []*model.Question{q(model.Waiting)}, true, "waits (host)", tonePending, true},
		{"input required, answered", ended(model.Outcome{Kind: model.NeedsInput}), []*model.Question{q(model.Answered), q(model.Answered)}, false, "answered", toneMuted, true},
		{"input required, one waits of two", ended(model.Outcome{Kind: model.NeedsInput}), []*model.Question{q(model.Answered), q(model.Waiting)}, false, "waits for you", tonePending, true},
		{"input required, declined", ended(model.Outcome{Kind: model.NeedsInput}), []*model.Question{q(model.Rejected)}, false, "declined", toneMuted, true},
		{"input required, withdrawn", ended(model.Outcome{Kind: model.NeedsInput}), []*model.Question{q(model.CancelledByServer)}, false, "asked you", toneMuted, true},
		{"input required, questions unknown", ended(model.Outcome{Kind: model.NeedsInput}), nil, false, "asked you", toneMuted, true},
		{"input required, questions unknown, watched", ended(model.Outcome{Kind: model.NeedsInput}), nil, true, "asked", toneMuted, true},
	} {
		covered[tc.c.Outcome.Kind] = true
		t.Run(tc.name, func(t *testing.T) {
			got := callLabel(tc.c, tc.qs, at, tc.readOnly)
			if want := (label{text: tc.text, tone: tc.tone, done: tc.done}); got != want {
				t.Errorf("callLabel = %+v; want %+v", got, want)
			}
		})
	}
}

// named reports whether k is a state model names (String panics past the
// last one).
func named(k model.OutcomeKind) (ok bool) {
	defer func() { ok = recover() == nil }()
	_ = k.String()
	return true
}

// inputRound is one 2026-07-28 round of tools/call id that got an
// input_required result asking key (a sampling question) at sec.
func inputRound(sec float64, id int, key string) []model.Event {
	w := func(dir model.Direction, t float64, line string) model.Wire {
		return model.Wire{Stamp: model.Stamp{Time: uitest.At(t)}, Dir: dir, Line: []byte(line), Size: len(line)}
	}
	ir := fmt.Sprintf(`{"resultType":"input_required","inputRequests":{%q:{"method":"sampling/createMessage","params":%s}}}`, key, uitest.SamplingParams)
	return []model.Event{
		w(model.Out, sec, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"sample","arguments":{}}}`, id)),
		w(model.In, sec+0.1, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, id, ir)),
		model.QuestionAsked{Stamp: model.Stamp{Time: uitest.At(sec + 0.1)}, Key: fmt.Sprintf("%s#%d", key, id), Method: "sampling/createMessage",
			Params: json.RawMessage(uitest.SamplingParams), CallMethod: "tools/call", Round: 1, CallID: json.RawMessage(fmt.Sprint(id))},
	}
}

// TestWaitsForYouOnlyWhereItsQuestionWaits: two requests whose questions
// were answered and one whose question waits: pane 1 says "waits for you"
// on the one row only (it said it on all three whenever any question
// waited), "answered" on the others; the header counts one pending.
func TestWaitsForYouOnlyWhereItsQuestionWaits(t *testing.T) {
	evs := []model.Event{
		model.Started{Stamp: model.Stamp{Time: uitest.At(0)}, Command: []string{"./srv"}, PID: 7},
		model.Ready{Stamp: model.Stamp{Time: uitest.At(0.2)}, ServerName: "srv", ServerVersion: "1", Protocol: "2026-07-28", PID: 7},
	}
	evs = append(evs, inputRound(2, 11, "a")...)
	evs = append(evs, model.QuestionResolved{Stamp: model.Stamp{Time: uitest.At(3)}, Key: "a#11", State: model.Answered, Answer: json.RawMessage(`{}`)})
	evs = append(evs, inputRound(4, 12, "b")...)
	evs = append(evs, model.QuestionResolved{Stamp: model.Stamp{Time: uitest.At(5)}, Key: "b#12", State: model.Answered, Answer: json.RawMessage(`{}`)})
	evs = append(evs, inputRound(6, 13, "c")...)
	m, _ := newTest(t, 100, 30, evs...)
	shown := screen(m)
	var rows []string
	for _, l := range strings.Split(shown, "\n") {
		if strings.Contains(l, "tools/call sample") && strings.Contains(l, " →1") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 3 {
		t.Fatalf("want 3 tools/call rows in pane 1, got %d:\n%s", len(rows), shown)
	}
	for _, r := range rows {
		waits := strings.Contains(r, "waits for you")
		if is13 := strings.Contains(r, "13 "); waits != is13 {
			t.Errorf("row %q: waits for you = %v; want it on request 13 only", r, waits)
		}
		if !strings.Contains(r, "13 ") && !strings.Contains(r, "answered") {
			t.Errorf("row %q: want \"answered\"", r)
		}
	}
	if n := m.sess.Counters().Pending; n != 1 {
		t.Errorf("pending %d; want 1", n)
	}
}

// TestCleanExitReadsAsAnEnd: a server that ended with exit status 0 (a
// recording's last process, stopped at the quit) reads as a clean end in
// pane 1 and the header, not as "✗ the server stopped"; any other status
// still does.
func TestCleanExitReadsAsAnEnd(t *testing.T) {
	for _, tc := range []struct {
		status    string
		want, not string
	}{
		{"", "● the server ended cleanly (exit 0)", "✗"},
		{"exit status 0", "● the server ended cleanly (exit 0)", "✗"},
		{"exit status 3", "✗ the server stopped: exit status 3", "cleanly"},
	} {
		t.Run(tc.status, func(t *testing.T) {
			m, _ := newTest(t, 100, 30,
				model.Started{Stamp: model.Stamp{Time: uitest.At(0)}, Command: []string{"./srv"}, PID: 7},
				model.Ready{Stamp: model.Stamp{Time: uitest.At(0.2)}, ServerName: "srv", ServerVersion: "1", Protocol: "2025-11-25", PID: 7},
				model.Exited{Stamp: model.Stamp{Time: uitest.At(9)}, Status: tc.status})
			s := screen(m)
			if !strings.Contains(s, tc.want) || strings.Contains(s, tc.not) {
				t.Errorf("want %q and no %q:\n%s", tc.want, tc.not, s)
			}
			if clean := tc.not == "✗"; clean != strings.Contains(s, "exited cleanly (exit status 0)") {
				t.Errorf("the header's status line for %q:\n%s", tc.status, s)
			}
		})
	}
}

// TestRestartDrawsABoundary: after a restart pane 1 lists the calls of
// both processes; a row marks where the earlier one's begin, and their ids
// carry its number, so the two requests 12 do not both read "→12".
func TestRestartDrawsABoundary(t *testing.T) {
	w := func(dir model.Direction, sec float64, line string) model.Wire {
		return model.Wire{Stamp: model.Stamp{Time: uitest.At(sec)}, Dir: dir, Line: []byte(line), Size: len(line)}
	}
	var evs []model.Event
	for gen, at := range []float64{0, 10} {
		evs = append(evs,
			model.Started{Stamp: model.Stamp{Time: uitest.At(at), Gen: gen + 1}, Command: []string{"./srv"}, PID: 7 + gen},
			model.Ready{Stamp: model.Stamp{Time: uitest.At(at + 0.2), Gen: gen + 1}, ServerName: "srv", ServerVersion: "1", Protocol: "2025-11-25", PID: 7 + gen},
			w(model.Out, at+1, `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"echo"}}`),
			w(model.In, at+1.5, `{"jsonrpc":"2.0","id":12,"result":{"content":[]}}`))
	}
	m, _ := newTest(t, 100, 30, evs...)
	var pane []string
	for _, l := range strings.Split(screen(m), "\n") {
		if strings.Contains(l, "echo") || strings.Contains(l, "process 1") {
			pane = append(pane, l)
		}
	}
	if len(pane) < 3 {
		t.Fatalf("pane 1 rows %q", pane)
	}
	if !strings.Contains(pane[0], "→12 ") || !strings.Contains(pane[1], "── process 1, before a restart") || !strings.Contains(pane[2], "→1·12 ") {
		t.Errorf("want the new process's 12, the boundary, then the earlier one's 1·12:\n%s", strings.Join(pane, "\n"))
	}
}
