package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mcptui/mcptui/conn"
)

// Canned answers, one per kind.
const (
	answerSampling = `{"role":"assistant","content":{"type":"text","text":"4"},"model":"a-person","stopReason":"endTurn"}`
	answerForm     = `{"action":"accept","content":{"name":"octocat"}}`
	answerURL      = `{"action":"accept"}`
	answerRoots    = `{"roots":[{"uri":"file:///home/u/proj","name":"proj"}]}`
)

// answers is an Answerer that records the questions and gives canned answers.
type answers struct {
	mu        sync.Mutex
	questions []*Question
	byKind    map[QuestionKind]json.RawMessage
	err       error
}

func newAnswers() *answers {
	return &answers{byKind: map[QuestionKind]json.RawMessage{
		KindSampling:   json.RawMessage(answerSampling),
		KindElicitForm: json.RawMessage(answerForm),
		KindElicitURL:  json.RawMessage(answerURL),
		KindRoots:      json.RawMessage(answerRoots),
	}}
}

func (a *answers) Answer(ctx context.Context, q *Question) (json.RawMessage, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.questions = append(a.questions, q)
	return a.byKind[q.Kind], a.err
}

func (a *answers) asked() []*Question {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.questions)
}

// all installs the recorder as every answerer.
func (a *answers) all(o *Options) {
	o.Sampling, o.ElicitForm, o.ElicitURL, o.Roots = a, a, a, a
}

func modernClient(t *testing.T, setup func(*fakeSetup)) (*fakeSetup, *Client) {
	t.Helper()
	s := newFake(t, "modern", "")
	if setup != nil {
		setup(s)
	}
	return s, s.mustConnect(testCtx(t))
}

func TestInputRequiredRounds(t *testing.T) {
	a := newAnswers()
	s, c := modernClient(t, func(s *fakeSetup) { a.all(&s.opts) })
	var progress int
	res, err := c.CallTool(testCtx(t), "mrtr", map[string]any{"n": 1},
		WithProgress(func(conn.Progress) error { progress++; return nil }))
	if err != nil {
		t.Fatal(err)
	}
	if res.Content[0].Text != "done" {
		t.Fatalf("result %s", res.Raw)
	}
	round3, _ := parseObject(res.StructuredContent)
	if got := string(round3.get("round3")); got != `{"open":`+answerURL+`,"r":`+answerRoots+`}` {
		t.Errorf("round 3 responses as the server saw them: %s", got)
	}

	calls := s.wire.sent(MethodCallTool)
	if len(calls) != 3 {
		t.Fatalf("%d tools/call lines, want 3", len(calls))
	}
	ids := map[string]bool{}
	for i, m := range calls {
		ids[string(m.id)] = true
		if m.str("name") != "mrtr" || string(m.param("arguments")) != `{"n":1}` {
			t.Errorf("round %d changed the method's params: %s", i+1, m.line)
		}
		// Each round has its own progress token: its own id.
		if tok := m.meta().get("progressToken"); string(tok) != string(m.id) {
			t.Errorf("round %d progress token %s, id %s", i+1, tok, m.id)
		}
		if v, _ := stringMember(m.meta(), MetaProtocolVersion); v != Version20260728 {
			t.Errorf("round %d without the protocol version", i+1)
		}
		if got := string(m.meta().get(MetaClientCapabilities)); got != `{"sampling":{},"elicitation":{"form":{},"url":{}},"roots":{}}` {
			t.Errorf("round %d capabilities %s", i+1, got)
		}
	}
	if len(ids) != 3 {
		t.Error("a round re-used an id")
	}
	if calls[0].param("requestState") != nil || calls[0].param("inputResponses") != nil {
		t.Errorf("first message carries round data: %s", calls[0].line)
	}
	// Byte for byte: the escapes the server wrote are the escapes sent back.
	if got := string(calls[1].param("requestState")); got != mrtrState1 {
		t.Errorf("round 2 requestState %s, want %s", got, mrtrState1)
	}
	if got := string(calls[2].param("requestState")); got != mrtrState2 {
		t.Errorf("round 3 requestState %s, want %s", got, mrtrState2)
	}
	if !strings.Contains(string(calls[1].line), `"requestState":`+mrtrState1) {
		t.Errorf("the line itself does not carry the state verbatim: %s", calls[1].line)
	}
	if got := string(calls[1].param("inputResponses")); got != `{"login":`+answerForm+`,"q":`+answerSampling+`}` {
		t.Errorf("round 2 inputResponses %s", got)
	}
	if progress != 0 {
		t.Errorf("%d progress callbacks from a server that sent none", progress)
	}

	qs := a.asked()
	want := []struct {
		kind  QuestionKind
		key   string
		round int
	}{{KindElicitForm, "login", 1}, {KindSampling, "q", 1}, {KindElicitURL, "open", 2}, {KindRoots, "r", 2}}
	if len(qs) != len(want) {
		t.Fatalf("%d questions", len(qs))
	}
	for i, w := range want {
		q := qs[i]
		if q.Kind != w.kind || q.Origin.Key != w.key || q.Origin.Round != w.round || q.Origin.CallMethod != MethodCallTool ||
			!q.Origin.InputRequired() || q.Origin.RequestID != nil || string(q.Origin.CallParams) != `{"name":"mrtr","arguments":{"n":1}}` {
			t.Errorf("question %d: %+v", i, q)
		}
	}
	if string(qs[3].Params) != `{}` || qs[3].Method != MethodListRoots {
		t.Errorf("roots question params %s", qs[3].Params)
	}
	if !strings.Contains(string(qs[2].Params), "https://example.com/x") {
		t.Errorf("url question params %s", qs[2].Params)
	}

	// Nothing of the rounds leaks into the next request.
	echo, err := c.CallTool(testCtx(t), "echo", map[string]string{"message": "x"})
	if err != nil {
		t.Fatal(err)
	}
	keys, _ := parseObject(echo.StructuredContent)
	if got := string(keys.get("keys")); got != `["name","arguments","_meta"]` {
		t.Errorf("echo params keys %s", got)
	}
}

func TestInputRequiredStateOnly(t *testing.T) {
	a := newAnswers()
	s, c := modernClient(t, func(s *fakeSetup) { a.all(&s.opts) })
	res, err := c.CallTool(testCtx(t), "state-only", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Content[0].Text != "after load shedding" {
		t.Errorf("result %s", res.Raw)
	}
	calls := s.wire.sent(MethodCallTool)
	if len(calls) != 2 || string(calls[1].param("requestState")) != `"busy"` || calls[1].param("inputResponses") != nil {
		t.Errorf("%d calls; retry %s", len(calls), calls[len(calls)-1].line)
	}
	if len(a.asked()) != 0 {
		t.Error("a state-only result asked a question")
	}
}

func TestInputRequiredRoundLimit(t *testing.T) {
	a := newAnswers()
	s, c := modernClient(t, func(s *fakeSetup) { a.all(&s.opts); s.opts.MaxInputRounds = 2 })
	_, err := c.CallTool(testCtx(t), "forever", nil)
	e := errCode(t, err)
	if e.Code != CodeConnection || string(e.Data) != `{"maxInputRounds":2}` {
		t.Errorf("error %v", e)
	}
	if got := len(s.wire.sent(MethodCallTool)); got != 3 {
		t.Errorf("%d messages sent, want 3 (the first and two rounds)", got)
	}
	if len(a.asked()) != 2 {
		t.Errorf("%d questions", len(a.asked()))
	}
	_, err = c.CallTool(testCtx(t), "forever", nil, WithMaxInputRounds(0))
	if e := errCode(t, err); string(e.Data) != `{"maxInputRounds":0}` {
		t.Errorf("error %v", e)
	}
	if got := len(s.wire.sent(MethodCallTool)); got != 4 {
		t.Errorf("%d messages sent in all, want 4", got)
	}
}

func TestInputRequiredCannotAnswer(t *testing.T) {
	a := newAnswers()
	s, c := modernClient(t, func(s *fakeSetup) {
		s.opts.ElicitForm, s.opts.Sampling = a, a // no URL answerer
	})
	cases := []struct {
		tool string
		code int
		msg  string
		data string
	}{
		{"url-needed", CodeInvalidParams, `No answerer for elicitation-url (input request "u")`, `{"key":"u","method":"elicitation/create"}`},
		{"unknown-entry", CodeInvalidParams, `No answerer for foo/bar (input request "x")`, `{"key":"x","method":"foo/bar"}`},
		{"bad-entry", CodeConnection, `The server sent a malformed input request "x"`, ``},
		{"missing-params", CodeInvalidParams, `Input request "s": A sampling request needs ["messages", "maxTokens"] in its params`, `{"missing":["maxTokens"]}`},
	}
	for i, tc := range cases {
		_, err := c.CallTool(testCtx(t), tc.tool, nil)
		e := errCode(t, err)
		if e.Code != tc.code || e.Message != tc.msg || string(e.Data) != tc.data {
			t.Errorf("%s: error %v", tc.tool, e)
		}
		if got := len(s.wire.sent(MethodCallTool)); got != i+1 {
			t.Errorf("%s: something was re-sent (%d calls)", tc.tool, got)
		}
	}
	if len(a.asked()) != 0 {
		t.Errorf("answerers ran although the round could not be answered: %v", a.asked())
	}
}

func TestInputRequiredInvalidAnswer(t *testing.T) {
	a := newAnswers()
	a.byKind[KindElicitForm] = json.RawMessage(`{"action":"maybe"}`)
	s, c := modernClient(t, func(s *fakeSetup) { a.all(&s.opts) })
	_, err := c.CallTool(testCtx(t), "mrtr", nil)
	e := errCode(t, err)
	if e.Code != CodeInternal || e.Message != MsgInvalidAnswer {
		t.Errorf("error %v", e)
	}
	if got := len(s.wire.sent(MethodCallTool)); got != 1 {
		t.Errorf("%d calls: an invalid answer was sent", got)
	}
}

func TestInputRequiredAnswererWaitsForPerson(t *testing.T) {
	asked := make(chan *Question)
	block := AnswerFunc(func(ctx context.Context, q *Question) (json.RawMessage, error) {
		asked <- q
		<-ctx.Done()
		return nil, ctx.Err()
	})
	s, c := modernClient(t, func(s *fakeSetup) {
		s.opts.ElicitForm, s.opts.Sampling = block, block
		s.opts.ElicitURL, s.opts.Roots = block, block
	})
	ctx, cancel := context.WithCancel(testCtx(t))
	done := make(chan error)
	go func() {
		_, err := c.CallTool(ctx, "mrtr", nil)
		done <- err
	}()
	q := <-asked
	if q.Origin.Key != "login" {
		t.Errorf("first question %+v", q)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("error %v", err)
	}
	if got := len(s.wire.sent(MethodCallTool)); got != 1 {
		t.Errorf("%d calls", got)
	}
}

func TestResultTypes(t *testing.T) {
	_, c := modernClient(t, nil)
	_, err := c.CallTool(testCtx(t), "weird", nil)
	if e := errCode(t, err); e.Code != CodeConnection || !strings.Contains(e.Message, `"weird"`) || string(e.Data) != `{"resultType":"weird"}` {
		t.Errorf("error %v", e)
	}
	res, err := c.CallTool(testCtx(t), "no-type", nil)
	if err != nil || res.Content[0].Text != "no resultType" {
		t.Errorf("absent resultType: %v %v", res, err)
	}
	failing, err := c.CallTool(testCtx(t), "failing", nil)
	if err != nil || !failing.IsError || failing.Content[0].Text != "it broke" {
		t.Errorf("isError result: %+v, %v", failing, err)
	}

	_, c2 := modernClient(t, func(s *fakeSetup) { s.opts.ExtraResultTypes = []string{"weird"} })
	raw, err := c2.Request(testCtx(t), MethodCallTool, map[string]string{"name": "weird"})
	if err != nil || !strings.Contains(string(raw), `"weird"`) {
		t.Errorf("extension resultType: %s %v", raw, err)
	}
}

func TestStatelessMeta(t *testing.T) {
	var logs []Notification
	var mu sync.Mutex
	s, c := modernClient(t, func(s *fakeSetup) {
		s.opts.ClientInfo = Implementation{Version: "9.9.9", Title: "Inspector"}
		s.opts.ElicitForm = newAnswers()
		s.opts.Capabilities = json.RawMessage(`{"elicitation":{"url":{}},"experimental":{"x":{}}}`)
		s.opts.OnNotification = func(n Notification) { mu.Lock(); logs = append(logs, n); mu.Unlock() }
	})
	echo := func(opts ...RequestOption) object {
		t.Helper()
		res, err := c.CallTool(testCtx(t), "echo", json.RawMessage(`{"message":"m"}`), opts...)
		if err != nil {
			t.Fatal(err)
		}
		sc, _ := parseObject(res.StructuredContent)
		meta, _ := parseObject(sc.get("meta"))
		return meta
	}
	meta := echo()
	if got := string(meta.encode()); got != `{"io.modelcontextprotocol/protocolVersion":"2026-07-28",`+
		`"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}},"experimental":{"x":{}}},`+
		`"io.modelcontextprotocol/clientInfo":{"name":"mcptui","title":"Inspector","version":"9.9.9"}}` {
		t.Errorf("_meta %s", got)
	}
	if err := c.SetLogLevel(testCtx(t), "warning"); err != nil {
		t.Fatal(err)
	}
	if len(s.wire.sent(MethodSetLevel)) != 0 {
		t.Error("logging/setLevel sent on 2026-07-28")
	}
	meta = echo(WithMeta(json.RawMessage(`{"trace":"t1","io.modelcontextprotocol/logLevel":"error"}`)))
	if lvl, _ := stringMember(meta, MetaLogLevel); lvl != "error" || string(meta.get("trace")) != `"t1"` {
		t.Errorf("WithMeta did not win: %s", meta.encode())
	}
	if _, err := c.CallTool(testCtx(t), "log", nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(logs) != 1 || logs[0].Method != NotificationMessage {
		t.Fatalf("notifications %v", logs)
	}
	lm, err := DecodeLogMessage(logs[0])
	mu.Unlock()
	if err != nil || lm.Level != "warning" || lm.Logger != "fake" {
		t.Errorf("log %+v %v", lm, err)
	}
	if err := c.SetLogLevel(testCtx(t), "loud"); errCode(t, err).Code != CodeInvalidParams {
		t.Errorf("bad level: %v", err)
	}
	// A params._meta of the caller wins over the dialect keys: here it names
	// a version the server rejects; the client re-sends once, then gives up.
	before := len(s.wire.sent(MethodCallTool))
	_, err = c.Request(testCtx(t), MethodCallTool, json.RawMessage(`{"name":"echo","arguments":{"message":"m"},"_meta":{"progressToken":"mine","io.modelcontextprotocol/protocolVersion":"x"}}`))
	if e := errCode(t, err); e.Code != CodeUnsupportedVersion {
		t.Errorf("error %v", e)
	}
	calls := s.wire.sent(MethodCallTool)[before:]
	if len(calls) != 2 || string(calls[0].id) == string(calls[1].id) {
		t.Fatalf("%d messages", len(calls))
	}
	for _, m := range calls {
		if v, _ := stringMember(m.meta(), MetaProtocolVersion); v != "x" || string(m.meta().get("progressToken")) != `"mine"` {
			t.Errorf("caller's _meta lost: %s", m.line)
		}
	}
}

func TestProgressThroughRequest(t *testing.T) {
	_, c := modernClient(t, nil)
	var got []string
	res, err := c.CallTool(testCtx(t), "progress", nil, WithProgress(func(p conn.Progress) error {
		got = append(got, p.Message+"/"+strconv.Itoa(int(p.Progress))+"/"+strconv.Itoa(int(p.Total)))
		return nil
	}))
	if err != nil || res.Content[0].Text != "progressed" {
		t.Fatal(res, err)
	}
	if strings.Join(got, ",") != "step 1/1/3,step 2/2/3,step 3/3/3" {
		t.Errorf("progress %v", got)
	}
}

func TestReadResourceRound(t *testing.T) {
	a := newAnswers()
	_, c := modernClient(t, func(s *fakeSetup) { a.all(&s.opts) })
	res, err := c.ReadResource(testCtx(t), "file:///r")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Contents) != 1 || res.Contents[0].Text == nil || !strings.Contains(*res.Contents[0].Text, "file:///home/u/proj") {
		t.Errorf("contents %s", res.Raw)
	}
	if qs := a.asked(); len(qs) != 1 || qs[0].Origin.CallMethod != MethodReadResource {
		t.Errorf("questions %v", qs)
	}
}
