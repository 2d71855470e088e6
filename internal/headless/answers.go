package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// HeadlessModel is the model name of a sampling reply given with
// --answer sampling=text:REPLY.
const HeadlessModel = model.PreparedModel

// Rules answer the server's questions without a person, from --answer and
// --root: the same answer policies the inspector applies (cli.Config's
// Policies), with no one to ask. A question whose policy asks gets an
// error that names the flag that would answer it.
type Rules struct {
	policies    model.Policies
	roots       []model.Root
	notes       *noteWriter
	verbose     bool
	noRootsOnce sync.Once

	mu sync.Mutex
	// unfit is the failure of the first prepared answer that did not fit
	// its question (and was not sent).
	unfit *Failure
}

// Unfit is the failure of the first prepared answer that did not fit its
// question and so was not sent, or nil: a command whose --answer could not
// answer fails with it, whatever the server made of the error it got.
func (r *Rules) Unfit() *Failure {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.unfit
}

// NewRules returns the rules of cfg (its --answer files were checked as
// they were parsed). Notes about questions go to notes.
func NewRules(cfg *cli.Config, notes *noteWriter) (*Rules, error) {
	r := &Rules{notes: notes, verbose: cfg.Verbose, policies: cfg.Policies()}
	for _, uri := range cfg.Roots {
		r.roots = append(r.roots, model.Root{URI: uri})
	}
	return r, nil
}

// RulesTo is NewRules with its notes (the questions no rule answers)
// written to w, for other commands that answer questions headless.
func RulesTo(cfg *cli.Config, w io.Writer) (*Rules, error) {
	return NewRules(cfg, &noteWriter{w: w})
}

// Declare sets every answerer of o to these rules: the capability set
// every mode of mcptui declares for the same flags (the inspector's too,
// but for roots.listChanged, which only the inspector sends): sampling
// (with tools from 2025-11-25), elicitation (form and URL, where the
// version has them) and roots.
func (r *Rules) Declare(o *mcp.Options) {
	o.Sampling, o.ElicitForm, o.ElicitURL, o.Roots = r.Sampling(), r.ElicitForm(), r.ElicitURL(), r.Roots()
	o.SamplingTools = true
}

// DoctorRules are the rules doctor answers with: the same flags, notes
// about questions to w.
func DoctorRules(cfg *cli.Config, w io.Writer) (*Rules, error) {
	return NewRules(cfg, &noteWriter{w: w})
}

// Sampling answers sampling/createMessage.
func (r *Rules) Sampling() mcp.Answerer { return mcp.AnswerFunc(r.answer) }

// ElicitForm answers form elicitations.
func (r *Rules) ElicitForm() mcp.Answerer { return mcp.AnswerFunc(r.answer) }

// ElicitURL answers URL elicitations.
func (r *Rules) ElicitURL() mcp.Answerer { return mcp.AnswerFunc(r.answer) }

// Roots answers roots/list.
func (r *Rules) Roots() mcp.Answerer { return mcp.AnswerFunc(r.answer) }

// answer applies the question's policy.
func (r *Rules) answer(_ context.Context, q *mcp.Question) (json.RawMessage, error) {
	mq := modelQuestion(q)
	p := r.policies.For(q.Method)
	d := p.Decide(mq, r.roots)
	if d.Ask && d.Answer == nil {
		switch mq.Kind {
		case model.AskSampling:
			return nil, r.noRule(q, "sampling", -1, "--answer sampling=@reply.json (or sampling=text:REPLY)")
		case model.AskElicitForm, model.AskElicitURL:
			return nil, r.noRule(q, "elicitation", mcp.CodeInternal, "--answer elicitation=accept-defaults|decline|cancel|@answer.json")
		}
		return nil, r.noRule(q, model.PolicyKind(q.Method), mcp.CodeInternal, "--answer "+model.PolicyKind(q.Method)+"=answer")
	}
	rule := p.Rule(q.Method)
	if d.Ask {
		// A prepared answer that does not fit is not sent, as in the
		// inspector; with no one to ask, the server gets an error and the
		// command fails (Unfit).
		why := strings.TrimPrefix(d.Why, "the prepared answer does not fit: ")
		r.mu.Lock()
		if r.unfit == nil {
			r.unfit = fail(KindUsage, "--answer %s does not fit the server's %s, so it was not sent (the server got an error instead): %s; give a fitting answer with --answer %s=@answer.json",
				rule, q.Method, why, model.PolicyKind(q.Method))
		}
		r.mu.Unlock()
		r.notes.printf("the answer to %s (%s) does not fit its schema, not sent: %s", q.Method, inert.Line(rule), inert.Line(why))
		return nil, &mcp.Error{Code: mcp.CodeInternal, Message: fmt.Sprintf("mcptui (headless) has no fitting answer for %s: its --answer %s does not fit: %s", q.Method, rule, why)}
	}
	if mq.Kind == model.AskRoots && d.Answer != nil && len(r.roots) == 0 && p.Answer == nil {
		// No --root is an honest answer: no roots. Said once.
		r.noRootsOnce.Do(func() {
			r.notes.printf("the server asked for roots (%s): answered with an empty list; offer some with --root URI", q.Method)
		})
		return d.Answer, nil
	}
	r.answered(q, rule+": "+d.Gist)
	if d.Err != nil {
		return nil, &mcp.Error{Code: d.Err.Code, Message: d.Err.Message}
	}
	return d.Answer, nil
}

// noRule is the error for a question no rule answers, and a note saying so.
func (r *Rules) noRule(q *mcp.Question, what string, code int, flag string) error {
	r.notes.printf("the server asked for %s (%s) and no rule answers it: answered with an error; pass %s", what, q.Method, flag)
	return &mcp.Error{Code: code, Message: fmt.Sprintf("mcptui (headless) has no answer for %s: run it with %s", q.Method, flag)}
}

func (r *Rules) answered(q *mcp.Question, how string) {
	if r.verbose {
		r.notes.printf("answered %s with %s", q.Method, inert.Line(how))
	}
}

// modelQuestion is q as the model sees it (with its summary: the form's
// fields and defaults).
func modelQuestion(q *mcp.Question) *model.Question {
	return model.QuestionFor(q.Method, q.Params, nil)
}
