package model

import (
	"strings"
	"testing"
)

func TestDefaultPolicies(t *testing.T) {
	ps := DefaultPolicies()
	if got := ps.String(); got != "roots=answer sampling=ask elicitation=ask" {
		t.Errorf("defaults = %q", got)
	}
	if ps.For("x/other").Action != PolicyAsk {
		t.Error("a method with no policy must ask")
	}
	changed := ps.Set(MethodSampling, Policy{Action: PolicyReject})
	if ps.For(MethodSampling).Action != PolicyAsk || changed.For(MethodSampling).Action != PolicyReject {
		t.Error("Set must copy the table")
	}
	if got := changed.Set("x/ping", Policy{Action: PolicyAnswer}).Methods(); strings.Join(got, " ") != "roots/list sampling/createMessage elicitation/create x/ping" {
		t.Errorf("methods = %q", got)
	}
}

func TestPolicyNextSkipsAnswerWithoutOne(t *testing.T) {
	p := Policy{}
	if p = p.Next(MethodSampling); p.Action != PolicyReject {
		t.Errorf("sampling without a prepared reply: ask → %v, want reject", p.Action)
	}
	if p = p.Next(MethodSampling); p.Action != PolicyAsk {
		t.Errorf("reject → %v, want ask", p.Action)
	}
	withText := Policy{Answer: SamplingText("hi"), Via: "text:hi"}
	if withText = withText.Next(MethodSampling); withText.Action != PolicyAnswer || withText.Rule(MethodSampling) != "sampling=text:hi" {
		t.Errorf("with a reply: %+v %s", withText, withText.Rule(MethodSampling))
	}
	if r := (Policy{}).Next(MethodRoots); r.Action != PolicyAnswer || r.Rule(MethodRoots) != "roots=answer" {
		t.Errorf("roots: %+v", r)
	}
}

func TestPolicyDecide(t *testing.T) {
	roots := &Question{Kind: AskRoots, Method: MethodRoots}
	d := Policy{Action: PolicyAnswer}.Decide(roots, []Root{{URI: "file:///a"}, {URI: "file:///b"}})
	if d.Ask || d.State != Answered || d.Gist != "2 roots" || !strings.Contains(string(d.Answer), "file:///b") {
		t.Errorf("roots answer = %+v %s", d, d.Answer)
	}
	if d := (Policy{Action: PolicyAnswer}).Decide(roots, nil); d.Gist != "0 roots" || d.Ask {
		t.Errorf("no roots = %+v", d)
	}
	samp := &Question{Kind: AskSampling, Method: MethodSampling}
	if d := (Policy{Action: PolicyAnswer}).Decide(samp, nil); !d.Ask || d.Why == "" {
		t.Errorf("sampling with no reply must ask, saying why: %+v", d)
	}
	if d := (Policy{Action: PolicyAnswer, Answer: SamplingText("4")}).Decide(samp, nil); d.Ask || d.State != Answered {
		t.Errorf("sampling text = %+v", d)
	}
	if d := (Policy{Action: PolicyReject}).Decide(samp, nil); d.Err == nil || d.Err.Code != -1 || d.State != Rejected {
		t.Errorf("sampling reject = %+v", d)
	}
	form := &Question{Kind: AskElicitForm, Method: MethodElicit, Summary: Summary{Fields: []Field{{Name: "name", Type: "string", Required: true}}}}
	if d := (Policy{Action: PolicyAnswer}).Decide(form, nil); !d.Ask || !strings.Contains(d.Why, "required") {
		t.Errorf("a form whose required field has no default must ask: %+v", d)
	}
	if d := (Policy{Action: PolicyReject}).Decide(form, nil); d.State != Rejected || d.Err != nil || d.Gist != "declined" {
		t.Errorf("elicitation reject = %+v", d)
	}
	if d := (Policy{Action: PolicyAnswer, Answer: ElicitAnswer("cancel", nil), Via: "cancel"}).Decide(form, nil); d.State != Rejected || d.Gist != "cancel" {
		t.Errorf("elicitation cancel = %+v", d)
	}
	if d := (Policy{}).Decide(roots, nil); !d.Ask {
		t.Errorf("ask = %+v", d)
	}
}

// An answer a policy sent is marked in the question and on its line in
// the traffic; a person's answer is not.
func TestAutoAnswerMarked(t *testing.T) {
	s := started(t, Config{})
	s.Apply(in(1, `{"jsonrpc":"2.0","id":0,"method":"roots/list"}`))
	s.Apply(QuestionAsked{Stamp: Stamp{Time: at(1)}, RequestID: raw(`0`), Method: MethodRoots, Params: raw(`{}`)})
	s.Apply(QuestionResolved{Stamp: Stamp{Time: at(1)}, RequestID: raw(`0`), State: Answered, Answer: raw(`{"roots":[]}`), Auto: "roots=answer"})
	s.Apply(out(1, `{"jsonrpc":"2.0","id":0,"result":{"roots":[]}}`))
	// A person's answer to another question is not marked.
	s.Apply(in(2, `{"jsonrpc":"2.0","id":1,"method":"roots/list"}`))
	s.Apply(QuestionAsked{Stamp: Stamp{Time: at(2)}, RequestID: raw(`1`), Method: MethodRoots, Params: raw(`{}`)})
	s.Apply(out(3, `{"jsonrpc":"2.0","id":1,"result":{"roots":[]}}`))

	qs := s.Questions()
	if len(qs) != 2 {
		t.Fatalf("questions = %+v", qs)
	}
	for _, q := range qs {
		want := map[string]string{"0": "roots=answer", "1": ""}[string(q.RequestID)]
		if q.Auto != want {
			t.Errorf("question %s: auto = %q, want %q", q.RequestID, q.Auto, want)
		}
	}
	h := s.History()
	var sums []string
	for i := 0; i < h.Len(); i++ {
		if e := h.At(i); e.Dir == Out {
			sums = append(sums, e.Summary)
		}
	}
	if len(sums) != 2 || !strings.HasPrefix(sums[0], "[auto roots=answer] ") || strings.Contains(sums[1], "auto") {
		t.Errorf("traffic summaries = %q", sums)
	}
}

// An input_required entry answered by a policy marks the request that
// re-sends it.
func TestAutoAnswerMarkedInputRequired(t *testing.T) {
	s := started(t, Config{})
	s.Apply(QuestionAsked{Stamp: Stamp{Time: at(1)}, Key: "roots#3", Method: MethodRoots, Params: raw(`{}`), CallMethod: "tools/call", Round: 1})
	s.Apply(QuestionResolved{Stamp: Stamp{Time: at(1)}, Key: "roots#3", State: Answered, Answer: raw(`{"roots":[]}`), Auto: "roots=answer"})
	s.Apply(out(1, `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"x","inputResponses":{"roots":{"roots":[]}}}}`))
	h := s.History()
	if e := h.At(h.Len() - 1); !strings.HasPrefix(e.Summary, "[auto roots=answer] ") {
		t.Errorf("summary = %q", e.Summary)
	}
}
