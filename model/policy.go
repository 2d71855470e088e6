package model

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcptui/mcptui/internal/protocol"
)

// PreparedModel is the model name of a sampling reply given as text with a
// policy (--answer sampling=text:REPLY), not typed by a person.
const PreparedModel = "mcptui-headless"

// The methods of the questions every policy table names, by their short
// kind words (the --answer vocabulary: roots=…, sampling=…, elicitation=…).
const (
	MethodRoots    = protocol.MethodListRoots
	MethodSampling = protocol.MethodCreateMessage
	MethodElicit   = protocol.MethodElicit
)

// PolicyAction says what happens to a question of one kind when it
// arrives: a person is asked, the prepared answer is sent, or it is
// rejected.
type PolicyAction int

// The actions of a Policy.
const (
	// PolicyAsk parks the question for a person (pane 2).
	PolicyAsk PolicyAction = iota
	// PolicyAnswer sends the prepared answer at once.
	PolicyAnswer
	// PolicyReject rejects at once: an error, or a decline for an
	// elicitation.
	PolicyReject
)

// String is the action's word in the --answer vocabulary.
func (a PolicyAction) String() string {
	switch a {
	case PolicyAnswer:
		return "answer"
	case PolicyReject:
		return "reject"
	}
	return "ask"
}

// Policy is how the questions of one method are answered.
type Policy struct {
	Action PolicyAction
	// Answer is the prepared answer given with the policy (a file's JSON
	// result, an elicitation's decline); nil means the question's own
	// prepared answer (see Prepared): the configured roots, an
	// elicitation's schema defaults, a URL elicitation accepted, {} for
	// another method. A sampling question has none of its own.
	Answer json.RawMessage
	// Via names the prepared answer for people: "text:…", "@reply.json",
	// "accept-defaults", "decline"; "" for the question's own.
	Via string
}

// HasAnswer reports whether the policy can answer method's questions
// without a person: every method but sampling has a prepared answer of its
// own; sampling needs one given (text or a file).
func (p Policy) HasAnswer(method string) bool {
	return p.Answer != nil || method != MethodSampling
}

// Next is the policy with the next action (ask → answer → reject → ask),
// skipping answer where there is nothing to answer with.
func (p Policy) Next(method string) Policy {
	p.Action = (p.Action + 1) % 3
	if p.Action == PolicyAnswer && !p.HasAnswer(method) {
		p.Action = PolicyReject
	}
	return p
}

// Rule is the policy in the --answer vocabulary, "roots=answer",
// "sampling=text:…", for marks and lists.
func (p Policy) Rule(method string) string {
	what := p.Action.String()
	if p.Action == PolicyAnswer && p.Via != "" {
		what = p.Via
	}
	return PolicyKind(method) + "=" + what
}

// PolicyMethod is the method a kind word names (roots, sampling,
// elicitation); any other word is a method itself.
func PolicyMethod(kind string) string {
	switch kind {
	case "roots":
		return MethodRoots
	case "sampling":
		return MethodSampling
	case "elicitation":
		return MethodElicit
	}
	return kind
}

// PolicyKind is the short kind word of a method, or the method.
func PolicyKind(method string) string {
	switch method {
	case MethodRoots:
		return "roots"
	case MethodSampling:
		return "sampling"
	case MethodElicit:
		return "elicitation"
	}
	return method
}

// Policies are the policies of every kind of question, by method. The
// zero value asks about everything; DefaultPolicies is what mcptui starts
// with. Set copies the table, so a Policies value may be shared.
type Policies struct {
	byMethod map[string]Policy
}

// DefaultPolicies answer roots with the configured roots (none is an
// honest answer) and ask a person about everything else.
func DefaultPolicies() Policies {
	return Policies{byMethod: map[string]Policy{
		MethodRoots:    {Action: PolicyAnswer},
		MethodSampling: {Action: PolicyAsk},
		MethodElicit:   {Action: PolicyAsk},
	}}
}

// For is the policy of method's questions (ask when none is set).
func (ps Policies) For(method string) Policy { return ps.byMethod[method] }

// Set returns the table with method's policy replaced.
func (ps Policies) Set(method string, p Policy) Policies {
	m := maps.Clone(ps.byMethod)
	if m == nil {
		m = map[string]Policy{}
	}
	m[method] = p
	return Policies{byMethod: m}
}

// Methods lists the methods with a policy: roots, sampling, elicitation
// first, then the others in order.
func (ps Policies) Methods() []string {
	out := []string{MethodRoots, MethodSampling, MethodElicit}
	var rest []string
	for m := range ps.byMethod {
		if !slices.Contains(out, m) {
			rest = append(rest, m)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// String lists the table in the --answer vocabulary.
func (ps Policies) String() string {
	var parts []string
	for _, m := range ps.Methods() {
		parts = append(parts, ps.For(m).Rule(m))
	}
	return strings.Join(parts, " ")
}

// Decision is what a policy does with one question.
type Decision struct {
	// Ask: a person answers (the policy asks, or it has no answer that
	// fits; Why then says why not, and Answer holds the unfit one).
	Ask bool
	Why string
	// State is Answered or Rejected (a decline or cancel of an
	// elicitation is Rejected and carries its Answer).
	State  QuestionState
	Answer json.RawMessage
	Err    *RPCError
	// Gist says what was sent, for the question's outcome ("0 roots").
	Gist string
}

// Decide applies the policy to q; roots are the roots the client offers
// now. A prepared answer that does not fit the question (a form's
// required field without a default) is not sent: the decision asks, and
// says why.
func (p Policy) Decide(q *Question, roots []Root) Decision {
	switch p.Action {
	case PolicyAsk:
		return Decision{Ask: true}
	case PolicyReject:
		if q.Kind == AskElicitForm || q.Kind == AskElicitURL {
			return Decision{State: Rejected, Answer: ElicitAnswer("decline", nil), Gist: "declined"}
		}
		e := RPCError{Code: protocol.CodeInternal, Message: "Rejected by the client's answer policy: " + q.Method}
		if q.Kind == AskSampling {
			e = RPCError{Code: -1, Message: "User rejected sampling request"}
		}
		return Decision{State: Rejected, Err: &e, Gist: fmt.Sprintf("error %d", e.Code)}
	}
	ans := p.Answer
	if ans == nil {
		if q.Kind == AskSampling {
			return Decision{Ask: true, Why: "no prepared reply (--answer sampling=text:REPLY gives one)"}
		}
		ans = Prepared(q, "", roots)
	}
	d := Decision{State: Answered, Answer: ans, Gist: "the prepared answer"}
	if err := ValidateAnswer(q, ans); err != nil {
		// Answer and State stay filled in, for a caller with no one to
		// ask (a headless command sends it anyway, and says so).
		d.Ask, d.Why = true, "the prepared answer does not fit: "+err.Error()
	}
	switch q.Kind {
	case AskRoots:
		d.Gist = fmt.Sprintf("%d roots", rootCount(ans))
	case AskElicitForm, AskElicitURL:
		action, _ := str(member(ans, "action"))
		d.Gist = action
		if action != "accept" {
			d.State = Rejected
		}
	case AskSampling:
		d.Gist = "the prepared reply"
	}
	return d
}

func rootCount(ans []byte) int {
	n := 0
	eachElement(member(ans, "roots"), func([]byte) bool { n++; return true })
	return n
}

// SamplingText is a sampling result replying text, from the prepared
// model (a policy's text:REPLY).
func SamplingText(text string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{
		"role": "assistant", "content": map[string]string{"type": "text", "text": text},
		"model": PreparedModel, "stopReason": "endTurn",
	})
	return b
}

// QuestionFor is a question as the policies see it: its kind and summary
// (an elicitation's fields and defaults), with roots as the prepared
// answer's.
func QuestionFor(method string, params json.RawMessage, roots []Root) *Question {
	k := ClassifyQuestion(method, params)
	return &Question{Method: method, Params: params, Kind: k, Summary: summarizeQuestion(k, params, roots)}
}
