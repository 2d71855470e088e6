package model

import (
	"strings"
	"testing"
)

const samplingParams = `{"messages":[{"role":"user","content":{"type":"text","text":"first"}},{"role":"assistant","content":{"type":"text","text":"ok"}},{"role":"user","content":{"type":"text","text":"What is 2+2?"}}],"systemPrompt":"Be brief","maxTokens":100,"modelPreferences":{"hints":[{"name":"claude"}],"speedPriority":0.8}}`

const elicitParams = `{"message":"Who are you?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","title":"Name"},"age":{"type":"integer","default":30},"color":{"type":"string","enum":["red","blue"],"default":"red"},"ok":{"type":"boolean"}},"required":["name"]}}`

func TestSamplingQuestion(t *testing.T) {
	s := started(t, Config{})
	s.Apply(in(1, `{"jsonrpc":"2.0","id":"q1","method":"sampling/createMessage","params":`+samplingParams+`}`))
	s.Apply(QuestionAsked{Stamp: Stamp{Time: at(1)}, RequestID: raw(`"q1"`), Method: "sampling/createMessage", Params: raw(samplingParams)})
	qs := s.Questions()
	if len(qs) != 1 || s.Counters().Pending != 1 {
		t.Fatalf("questions = %+v", qs)
	}
	q := qs[0]
	sum := q.Summary
	if q.Kind != AskSampling || sum.LastUser != "What is 2+2?" || sum.SystemPrompt != "Be brief" || sum.MaxTokens != 100 ||
		sum.ModelPrefs != "hints claude; speed 0.8" || sum.Messages != 3 {
		t.Errorf("summary = %+v", sum)
	}
	lines := sum.Lines(q.Kind)
	if len(lines) != 5 || lines[0] != [2]string{"user", "What is 2+2?"} {
		t.Errorf("lines = %q", lines)
	}
	ans := Prepared(q, "4", nil)
	if err := ValidateAnswer(q, ans); err != nil {
		t.Errorf("prepared answer invalid: %v\n%s", err, ans)
	}
	if !strings.Contains(string(ans), `"text": "4"`) || !strings.Contains(string(ans), `"model": "mcptui-human"`) {
		t.Errorf("prepared = %s", ans)
	}
	// Our response on the wire answers it; a later resolution changes nothing.
	s.Apply(out(5, `{"jsonrpc":"2.0","id":"q1","result":{"role":"assistant","content":{"type":"text","text":"4"},"model":"m"}}`))
	s.Apply(QuestionResolved{Stamp: Stamp{Time: at(6)}, RequestID: raw(`"q1"`), State: QuestionConnectionDied})
	if q.State != Answered || !q.Resolved.Equal(at(5)) || q.Waited(at(100)).Seconds() != 4 {
		t.Errorf("question = %+v", q)
	}
	if s.Counters().Pending != 0 {
		t.Error("answered question still pending")
	}
}

func TestElicitationQuestion(t *testing.T) {
	s := started(t, Config{})
	s.Apply(QuestionAsked{Stamp: Stamp{Time: at(1)}, RequestID: raw(`7`), Method: "elicitation/create", Params: raw(elicitParams)})
	q := s.Questions()[0]
	names := []string{}
	for _, f := range q.Summary.Fields {
		names = append(names, f.Name)
	}
	if q.Kind != AskElicitForm || q.Summary.Message != "Who are you?" || strings.Join(names, ",") != "name,age,color,ok" || !q.Summary.Fields[0].Required {
		t.Errorf("summary = %+v", q.Summary)
	}
	prepared := Prepared(q, "", nil)
	if want := "{\n  \"action\": \"accept\",\n  \"content\": {\n    \"age\": 30,\n    \"color\": \"red\"\n  }\n}"; string(prepared) != want {
		t.Errorf("prepared = %s", prepared)
	}
	if err := ValidateAnswer(q, prepared); err == nil || !strings.Contains(err.Error(), `"name" is required`) {
		t.Errorf("missing required field: %v", err)
	}
	// Declining is a result, shown as rejected.
	s.Apply(out(2, `{"jsonrpc":"2.0","id":7,"result":{"action":"decline"}}`))
	if q.State != Rejected {
		t.Errorf("declined state = %v", q.State)
	}
}

func TestServerCancelsAQuestion(t *testing.T) {
	s := started(t, Config{})
	s.Apply(in(1, `{"jsonrpc":"2.0","id":9,"method":"roots/list"}`))
	s.Apply(QuestionAsked{Stamp: Stamp{Time: at(1)}, RequestID: raw(`9`), Method: "roots/list"})
	s.Apply(in(2, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}`))
	if q := s.Questions()[0]; q.State != CancelledByServer {
		t.Errorf("state = %v", q.State)
	}
	if len(s.InFlight()) != 0 {
		t.Error("the server's cancelled request is still in flight")
	}
}

func TestInputRequiredQuestionsAndConnectionDeath(t *testing.T) {
	s := started(t, Config{Roots: []Root{{URI: "file:///work", Name: "work"}}})
	s.Apply(QuestionAsked{Stamp: Stamp{Time: at(1)}, Key: "roots", Method: "roots/list", CallMethod: "tools/call", Round: 1})
	s.Apply(QuestionAsked{Stamp: Stamp{Time: at(1)}, Key: "roots", Method: "roots/list"}) // duplicate
	qs := s.Questions()
	if len(qs) != 1 || qs[0].Key != "1/input/roots" || qs[0].RequestID != nil {
		t.Fatalf("questions = %+v", qs)
	}
	q := qs[0]
	if want := "{\n  \"roots\": [\n    {\n      \"uri\": \"file:///work\",\n      \"name\": \"work\"\n    }\n  ]\n}"; string(Prepared(q, "", s.Config().Roots)) != want {
		t.Errorf("prepared roots = %s", Prepared(q, "", s.Config().Roots))
	}
	if l := q.Summary.Lines(q.Kind); len(l) != 1 || l[0][1] != "file:///work" {
		t.Errorf("roots lines = %q", l)
	}
	s.Apply(Exited{Stamp: Stamp{Time: at(3)}})
	if q.State != QuestionConnectionDied {
		t.Errorf("state = %v", q.State)
	}
}

func TestResolvedQuestionsAreBounded(t *testing.T) {
	s := started(t, Config{ClosedQuestions: 2})
	for i := range 5 {
		key := string(rune('a' + i))
		s.Apply(QuestionAsked{Stamp: Stamp{Time: at(float64(i))}, Key: key, Method: "ping"})
		s.Apply(QuestionResolved{Stamp: Stamp{Time: at(float64(i))}, Key: key, State: Answered, Answer: raw(`{}`)})
	}
	s.Apply(QuestionAsked{Stamp: Stamp{Time: at(9)}, Key: "w", Method: "ping"})
	qs := s.Questions()
	if len(qs) != 3 || qs[0].Key != "1/input/w" || qs[1].Key != "1/input/e" {
		t.Errorf("questions = %d, first %q second %q", len(qs), qs[0].Key, qs[1].Key)
	}
}

func TestValidateAnswer(t *testing.T) {
	sampling := &Question{Kind: AskSampling}
	elicit := &Question{Kind: AskElicitForm, Summary: summarizeQuestion(AskElicitForm, []byte(elicitParams), nil)}
	roots := &Question{Kind: AskRoots}
	cases := []struct {
		q      *Question
		answer string
		err    string // "" = valid
	}{
		{sampling, `{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}`, ""},
		{sampling, `{"role":"assistant","content":[{"type":"text","text":"hi"}],"model":"m","stopReason":"endTurn"}`, ""},
		{sampling, `{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"`, "not valid JSON"},
		{sampling, `{} {}`, "more than one value"},
		{sampling, `[]`, "must be a JSON object"},
		{sampling, `{"role":"robot","content":{"type":"text","text":"hi"},"model":"m"}`, `"role"`},
		{sampling, `{"role":"assistant","content":"hi","model":"m"}`, `"content" must be`},
		{sampling, `{"role":"assistant","content":{"type":"text"},"model":"m"}`, `string "text"`},
		{sampling, `{"role":"assistant","content":{"type":"video"},"model":"m"}`, "unknown content type"},
		{sampling, `{"role":"assistant","content":{"type":"image","data":"AA=="},"model":"m"}`, `"mimeType"`},
		{sampling, `{"role":"assistant","content":{"type":"text","text":"hi"}}`, `"model"`},
		{elicit, `{"action":"accept","content":{"name":"Ada","age":36,"color":"blue","ok":true}}`, ""},
		{elicit, `{"action":"decline"}`, ""},
		{elicit, `{"action":"cancel","content":{}}`, "only sent with"},
		{elicit, `{"action":"maybe"}`, `"action" must be`},
		{elicit, `{"action":"accept"}`, "required fields"},
		{elicit, `{"action":"accept","content":{"name":1}}`, `"name": must be a string`},
		{elicit, `{"action":"accept","content":{"name":"x","age":1.5}}`, "integer"},
		{elicit, `{"action":"accept","content":{"name":"x","color":"green"}}`, "one of"},
		{elicit, `{"action":"accept","content":{"name":"x","ok":"yes"}}`, "true or false"},
		{roots, `{"roots":[{"uri":"file:///a","name":"a"}]}`, ""},
		{roots, `{"roots":{}}`, "must be an array"},
		{roots, `{"roots":[{"name":"a"}]}`, `string "uri"`},
		{roots, `{"roots":[{"uri":"https://a"}]}`, "file://"},
		{&Question{Kind: AskPing}, `{}`, ""},
	}
	for _, c := range cases {
		err := ValidateAnswer(c.q, []byte(c.answer))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%v %s: unexpected error %v", c.q.Kind, c.answer, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v %s: error %v, want one containing %q", c.q.Kind, c.answer, err, c.err)
		}
	}
}

func TestDefaultRejection(t *testing.T) {
	if r := DefaultRejection(&Question{Kind: AskSampling}); r.Code != -1 {
		t.Errorf("sampling rejection = %+v", r)
	}
	if r := DefaultRejection(&Question{Kind: AskRoots, Method: "roots/list"}); r.Code != -32603 || !strings.Contains(r.Message, "roots/list") {
		t.Errorf("roots rejection = %+v", r)
	}
	if a := ElicitAnswer("decline", raw(`{"x":1}`)); string(a) != "{\n  \"action\": \"decline\"\n}" {
		t.Errorf("decline = %s", a)
	}
}

func TestClassifyQuestion(t *testing.T) {
	for _, c := range []struct {
		method, params string
		want           QuestionKind
	}{
		{"sampling/createMessage", `{}`, AskSampling},
		{"elicitation/create", `{"mode":"url","url":"https://x"}`, AskElicitURL},
		{"elicitation/create", `{"mode":"form"}`, AskElicitForm},
		{"roots/list", ``, AskRoots},
		{"ping", ``, AskPing},
		{"tasks/get", `{}`, AskOther},
	} {
		if got := ClassifyQuestion(c.method, []byte(c.params)); got != c.want {
			t.Errorf("ClassifyQuestion(%s, %s) = %v", c.method, c.params, got)
		}
	}
}

// TestRootsAnswerSeenOnTheWire: when the answer to a roots question is seen
// on the wire (a host answering through a tap, a replay), the question shows
// the roots that answer returned, not the inspector's prepared ones.
func TestRootsAnswerSeenOnTheWire(t *testing.T) {
	s := started(t, Config{})
	s.Apply(Wire{Stamp: Stamp{Time: at(1)}, Dir: In, Line: raw(`{"jsonrpc":"2.0","id":7,"method":"roots/list"}`), Size: 46})
	s.Apply(QuestionAsked{Stamp: Stamp{Time: at(1)}, RequestID: raw(`7`), Method: "roots/list", Params: raw(`{}`)})
	qs := s.Questions()
	if len(qs) != 1 {
		t.Fatalf("questions = %+v", qs)
	}
	if l := qs[0].Summary.Lines(AskRoots); len(l) != 1 || l[0][1] != "(none configured: --root)" {
		t.Errorf("waiting roots lines = %q", l)
	}
	s.Apply(Wire{Stamp: Stamp{Time: at(2)}, Dir: Out, Line: raw(`{"jsonrpc":"2.0","id":7,"result":{"roots":[{"uri":"file:///tmp/tapdemo","name":"demo"}]}}`), Size: 80})
	q := s.Questions()[0]
	if q.State != Answered || len(q.Summary.Roots) != 1 || q.Summary.Roots[0].URI != "file:///tmp/tapdemo" || !q.Summary.RootsSent {
		t.Fatalf("answered roots question = state %v, summary %+v", q.State, q.Summary)
	}
	if l := q.Summary.Lines(AskRoots); len(l) != 1 || l[0][1] != "file:///tmp/tapdemo" {
		t.Errorf("answered roots lines = %q", l)
	}
}
