package ui

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/internal/testkit/uitest"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/ui/dialog"
	"github.com/mcptui/mcptui/ui/viewer"
)

func TestFocusCyclingAndZoom(t *testing.T) {
	m, _ := newTest(t, 100, 30, uitest.Session()...)
	if m.focus != paneInFlight {
		t.Fatalf("initial focus %d", m.focus)
	}
	press(m, "tab", "tab")
	if m.focus != paneTraffic {
		t.Errorf("after two tabs: %d", m.focus)
	}
	press(m, "shift+tab")
	if m.focus != panePending {
		t.Errorf("after shift+tab: %d", m.focus)
	}
	press(m, "5")
	if m.focus != paneStderr {
		t.Errorf("after 5: %d", m.focus)
	}
	press(m, "z")
	if !m.zoom || !strings.Contains(screen(m), "5 Stderr") || strings.Contains(screen(m), "3 Traffic") {
		t.Errorf("zoom did not show stderr alone:\n%s", screen(m))
	}
	press(m, "z", "?")
	if !topIs[*helpOverlay](m) || !strings.Contains(screen(m), "Keys") {
		t.Errorf("help not shown:\n%s", screen(m))
	}
	press(m, "esc")
	if m.top() != nil {
		t.Error("esc did not close help")
	}
}

// answerSampling types a reply to the selected sampling question and sends it.
func TestAnswerSamplingByHand(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	press(m, "2")
	if q := m.selectedQuestion(); q == nil || q.Kind != model.AskSampling {
		t.Fatalf("selected %+v", q)
	}
	press(m, "enter")
	// enter opens the one sampling editor (system prompt, model, stop
	// reason), its reply field first.
	if !topIs[*answerOverlay](m) {
		t.Fatalf("sampling editor not open: overlay %T", m.top())
	}
	if s := screen(m); !strings.Contains(s, "You are a terse assistant") {
		t.Fatalf("the editor does not show the request:\n%s", s)
	}
	press(m, "ctrl+s")
	if len(fb.Calls()) != 0 {
		t.Fatal("an empty reply was sent")
	}
	typeText(m, "The build passed.")
	cmd := press(m, "ctrl+s")
	if m.top() != nil {
		t.Fatal("the editor stayed open")
	}
	run(t, m, cmd)
	calls := fb.Calls()
	if len(calls) != 1 || calls[0].Method != "Answer" || string(calls[0].Ref.RequestID) != `"s-1"` {
		t.Fatalf("calls = %+v", calls)
	}
	var res struct {
		Role    string `json:"role"`
		Content struct{ Type, Text string }
		Model   string `json:"model"`
	}
	if err := json.Unmarshal(calls[0].Result, &res); err != nil || res.Role != "assistant" || res.Content.Text != "The build passed." || res.Model != model.HumanModel {
		t.Errorf("answer = %s (%v)", calls[0].Result, err)
	}
	if q := m.sess.Question(`1/in/"s-1"`); q.State != model.Answered {
		t.Errorf("question state = %v", q.State)
	}
	if !strings.Contains(m.notice, "answered sampling/createMessage") {
		t.Errorf("notice = %q", m.notice)
	}
}

func TestApproveElicitationWithDefaults(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	press(m, "2", "j")
	run(t, m, press(m, "a"))
	calls := fb.Calls()
	if len(calls) != 1 || !strings.Contains(string(calls[0].Result), `"env": "staging"`) || !strings.Contains(string(calls[0].Result), `"accept"`) {
		t.Fatalf("calls = %+v", calls)
	}
}

func TestApproveSamplingNeedsAReply(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	press(m, "2", "a")
	if !topIs[*answerOverlay](m) || len(fb.Calls()) != 0 {
		t.Fatal("approving sampling without a reply must open the reply editor")
	}
	typeText(m, "draft")
	press(m, "esc")
	if m.drafts[`1/in/"s-1"`] != "draft" {
		t.Fatalf("draft not kept: %q", m.drafts)
	}
	run(t, m, press(m, "a"))
	if c := fb.Calls(); len(c) != 1 || !strings.Contains(string(c[0].Result), `"text": "draft"`) {
		t.Fatalf("calls = %+v", c)
	}
}

func TestEditRawJSONIsValidated(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	press(m, "2", "j", "e")
	if !topIs[*editor](m) || m.editor.mode != editRaw {
		t.Fatal("raw editor not open")
	}
	m.editor.ta.SetValue(`{"action":"accept","content":{"env":"prod"}}`)
	press(m, "ctrl+s")
	if !topIs[*editor](m) || !strings.Contains(m.editor.err, "one of") || len(fb.Calls()) != 0 {
		t.Fatalf("invalid answer: overlay %T err %q", m.top(), m.editor.err)
	}
	if !strings.Contains(screen(m), "✗") {
		t.Error("the error is not on screen")
	}
	m.editor.ta.SetValue(`{"action":"accept","content":{"env":"production","confirm":true}`)
	press(m, "ctrl+s")
	if !strings.Contains(m.editor.err, "not valid JSON") {
		t.Fatalf("syntax error: %q", m.editor.err)
	}
	m.editor.ta.SetValue(`{"action":"accept","content":{"env":"production","confirm":true}}`)
	run(t, m, press(m, "ctrl+s"))
	if c := fb.Calls(); len(c) != 1 || c[0].Method != "Answer" {
		t.Fatalf("calls = %+v", c)
	}
}

func TestRejectSamplingWithAnError(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	press(m, "2", "x")
	if !topIs[*dialog.Reject[*Model]](m) || !strings.Contains(screen(m), "Reject with a JSON-RPC error") {
		t.Fatalf("reject dialog not open:\n%s", screen(m))
	}
	press(m, "tab")
	for range len("User rejected sampling request") {
		press(m, "backspace")
	}
	typeText(m, "not now")
	run(t, m, press(m, "enter"))
	c := fb.Calls()
	if len(c) != 1 || c[0].Method != "Reject" || c[0].Err.Code != -1 || c[0].Err.Message != "not now" {
		t.Fatalf("calls = %+v", c)
	}
	if q := m.sess.Question(`1/in/"s-1"`); q.State != model.Rejected {
		t.Errorf("state = %v", q.State)
	}
}

func TestRejectElicitationWithCancel(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	press(m, "2", "j", "x")
	if s := screen(m); !topIs[*dialog.Reject[*Model]](m) || !strings.Contains(s, "Reject the elicitation with") {
		t.Fatalf("elicitation reject should offer decline/cancel:\n%s", s)
	}
	press(m, "down")
	run(t, m, press(m, "ctrl+s"))
	c := fb.Calls()
	if len(c) != 1 || c[0].Method != "Answer" || !strings.Contains(string(c[0].Result), `"cancel"`) {
		t.Fatalf("calls = %+v", c)
	}
}

func TestAnsweredQuestionsAreNotAnsweredTwice(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	m.Update(EventsMsg{Events: []model.Event{model.QuestionResolved{Stamp: model.Stamp{Time: uitest.At(29)}, RequestID: json.RawMessage(`"s-1"`), State: model.CancelledByServer}}})
	press(m, "2")
	// The waiting elicitation is listed first now; the cancelled one below.
	press(m, "j", "a")
	if len(fb.Calls()) != 0 || !m.noticeErr {
		t.Errorf("calls %+v notice %q", fb.Calls(), m.notice)
	}
}

func TestBackendErrorsAreShown(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	fb.Fail(errors.New("broken pipe"))
	press(m, "2", "j")
	run(t, m, press(m, "a"))
	if !m.noticeErr || !strings.Contains(m.notice, "broken pipe") {
		t.Errorf("notice = %q", m.notice)
	}
	if q := m.selectedQuestion(); q.State != model.Waiting {
		t.Errorf("a failed answer marked the question %v", q.State)
	}
}

func TestCancelAndExtend(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	// Rows: e-2, s-1 (server requests), 7, 5, 4 (ours).
	press(m, "c")
	if !m.noticeErr || len(fb.Calls()) != 0 {
		t.Fatal("a server request was cancelled")
	}
	press(m, "j", "j", "j", "j")
	if c := m.selectedCall(); c == nil || string(c.ID) != "4" {
		t.Fatalf("selected %+v", c)
	}
	before := m.selectedCall().Deadline
	run(t, m, press(m, "+"))
	run(t, m, press(m, "c"))
	c := fb.Calls()
	if len(c) != 2 || c[0].Method != "Extend" || c[0].By != extendBy || c[1].Method != "Cancel" || string(c[1].ID) != "4" {
		t.Fatalf("calls = %+v", c)
	}
	if got := m.sess.Call("1/out/4").Deadline; got.Sub(before) != extendBy {
		t.Errorf("deadline moved by %v", got.Sub(before))
	}
}

func TestTrafficFilterJumpOpenCopy(t *testing.T) {
	m, _ := newTest(t, 100, 30, uitest.Session()...)
	press(m, "3", "/")
	if !m.traffic.editing {
		t.Fatal("filter input not open")
	}
	typeText(m, "kind:err")
	if n := m.traffic.len(m.sess.History()); n != 2 {
		t.Errorf("%d entries match kind:err", n)
	}
	press(m, "enter")
	if m.traffic.editing || !strings.Contains(screen(m), "filter: kind:err") {
		t.Errorf("filter not applied:\n%s", screen(m))
	}
	// Jump from the error response to its request is impossible under
	// the filter: the request is filtered out.
	press(m, "%")
	if !m.noticeErr {
		t.Error("jump to a filtered-out entry should say so")
	}
	press(m, "esc")
	if m.traffic.filtering() {
		t.Fatal("esc did not clear the filter")
	}
	// Find tools/list's response and jump to its request.
	h := m.sess.History()
	for i := range h.Len() {
		if e := h.At(i); e.Kind == model.KindResponse && string(e.ID) == "3" {
			m.traffic.list.cursor = i
		}
	}
	resp := m.selectedEntry()
	press(m, "%")
	if e := m.selectedEntry(); e.Seq != resp.Link || e.Method != "tools/list" || m.traffic.follow {
		t.Errorf("jumped to %+v", e)
	}
	press(m, "enter")
	if !topIs[*viewer.Viewer[*Model]](m) || !strings.Contains(screen(m), `"method": "tools/list"`) {
		t.Errorf("viewer:\n%s", screen(m))
	}
	press(m, "%")
	if topAs[*viewer.Viewer[*Model]](m).Entry().Seq != resp.Seq {
		t.Errorf("viewer jump went to #%d", topAs[*viewer.Viewer[*Model]](m).Entry().Seq)
	}
	cmd := press(m, "y")
	if cmd == nil || !strings.Contains(m.notice, "copied") {
		t.Errorf("copy: notice %q", m.notice)
	}
	press(m, "esc", "f")
	if !m.traffic.follow {
		t.Error("f did not resume following")
	}
}

func TestCloseSubscriptionRestartQuit(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	run(t, m, press(m, "4", "x"))
	run(t, m, press(m, "r"))
	msgs := run(t, m, press(m, "q"))
	c := fb.Calls()
	if len(c) != 3 || c[0].Method != "CloseSubscription" || string(c[0].ID) != "7" || c[1].Method != "Restart" || c[2].Method != "Shutdown" {
		t.Fatalf("calls = %+v", c)
	}
	if _, ok := msgs[len(msgs)-1].(tea.QuitMsg); !ok {
		t.Errorf("quit ended with %T", msgs[len(msgs)-1])
	}
}

// V opens the version picker; picking a version reconnects pinned to it
// (the history stays, as with r).
func TestReconnectAtAnotherVersion(t *testing.T) {
	m, fb := newTest(t, 100, 30, uitest.Session()...)
	press(m, "V")
	s := screen(m)
	if !strings.Contains(s, "Protocol version") || !strings.Contains(s, "pin 2024-11-05") || !strings.Contains(s, "negotiate") {
		t.Fatalf("no picker:\n%s", s)
	}
	run(t, m, press(m, "G", "enter"))
	c := fb.Calls()
	if len(c) != 1 || c[0].Method != "RestartAt" || len(c[0].Versions) != 1 || c[0].Versions[0] != "2024-11-05" {
		t.Fatalf("calls = %+v", c)
	}
}

func TestMouseFocusAndScroll(t *testing.T) {
	m, _ := newTest(t, 100, 30, uitest.Session()...)
	_ = screen(m) // scroll positions are settled by drawing
	rs := layout(100, 30, false, m.focus, false)
	r := rs[paneTraffic]
	m.Update(tea.MouseClickMsg{X: r.x + 5, Y: r.y + 2, Button: tea.MouseLeft})
	if m.focus != paneTraffic || m.traffic.follow {
		t.Errorf("click: focus %d follow %v", m.focus, m.traffic.follow)
	}
	sel := m.traffic.list.cursor
	m.Update(tea.MouseWheelMsg{X: r.x + 5, Y: r.y + 2, Button: tea.MouseWheelUp})
	if m.traffic.list.cursor != sel-3 {
		t.Errorf("wheel moved %d → %d", sel, m.traffic.list.cursor)
	}
	s := rs[paneStderr]
	m.Update(tea.MouseClickMsg{X: s.x + 3, Y: s.y + 1, Button: tea.MouseLeft})
	if m.focus != paneStderr {
		t.Errorf("focus %d", m.focus)
	}
}

func TestNewQuestionRingsTheBell(t *testing.T) {
	fb := uitest.New()
	m := New(Options{Backend: fb, Now: now, Tick: -1, Theme: "dark"})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := m.Update(EventsMsg{Events: uitest.Session()})
	if cmd == nil {
		t.Fatal("no bell")
	}
	if _, ok := cmd().(tea.RawMsg); !ok {
		t.Errorf("bell = %T", cmd())
	}
	if !strings.Contains(m.notice, "asking") {
		t.Errorf("notice %q", m.notice)
	}
}

func TestEventsFromTheBackendAreBatched(t *testing.T) {
	fb := uitest.New()
	m := New(Options{Backend: fb, Now: now, Tick: -1, Theme: "dark", NoBell: true})
	fb.Push(uitest.Session()...)
	cmd := m.waitEvents()
	msg := cmd().(eventsMsg)
	if len(msg.events) != len(uitest.Session())+2 { // between the LintAhead marks
		t.Errorf("one batch of %d, want all %d and the two marks", len(msg.events), len(uitest.Session()))
	}
	_, next := m.Update(msg)
	if next == nil || m.sess.Counters().Pending != 2 {
		t.Error("the inbox was not re-armed or the batch not applied")
	}
	fb.Inbox.Close()
	m.Update(eventsMsg{err: errors.New("closed")})
	if m.waitEvents() != nil {
		t.Error("waiting again after the inbox closed")
	}
}

// TestCopyRefusesWhatTerminalsDrop: y on a line larger than an OSC 52
// sequence can carry copies nothing and says so, with the way to keep it.
func TestCopyRefusesWhatTerminalsDrop(t *testing.T) {
	big := `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + strings.Repeat("x", 200<<10) + `"}}`
	evs := append(uitest.Session(), model.Wire{Stamp: model.Stamp{Time: uitest.At(40)}, Dir: model.In, Line: []byte(big), Size: len(big)})
	m, _ := newTest(t, 100, 30, evs...)
	press(m, "3", "G")
	if cmd := press(m, "y"); cmd != nil || !m.noticeErr ||
		!strings.Contains(m.notice, "not copied: the line") || !strings.Contains(m.notice, "--record FILE") {
		t.Fatalf("y on a 200 KiB line: cmd %v, notice %q", cmd != nil, m.notice)
	}
}
