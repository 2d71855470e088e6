package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// HeadlessModel is the model name of a sampling reply given with
// --answer sampling=text:REPLY.
const HeadlessModel = "mcptui-headless"

// Rules answer the server's questions without a person, from --answer and
// --root. Every kind has an answerer: one without a rule answers with an
// error that names the flag that would answer it.
type Rules struct {
	sampling, elicit *cli.AnswerRule
	roots            []model.Root
	notes            *noteWriter
	verbose          bool
	noRootsOnce      sync.Once
}

// NewRules checks the --answer rules of cfg (the files must hold answers of
// the right shape) and returns them. Notes about questions go to notes.
func NewRules(cfg *cli.Config, notes *noteWriter) (*Rules, error) {
	r := &Rules{notes: notes, verbose: cfg.Verbose}
	for i := range cfg.Answers {
		a := &cfg.Answers[i]
		switch a.Kind {
		case "sampling":
			if a.Action == cli.AnswerFile {
				if err := checkSamplingFile(a.Body); err != nil {
					return nil, fmt.Errorf("--answer sampling=@%s: %w", a.File, err)
				}
			}
			r.sampling = a
		case "elicitation":
			if a.Action == cli.AnswerFile {
				if err := checkElicitFile(a.Body); err != nil {
					return nil, fmt.Errorf("--answer elicitation=@%s: %w", a.File, err)
				}
			}
			r.elicit = a
		}
	}
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

func checkSamplingFile(b json.RawMessage) error {
	var v struct {
		Role    *string         `json:"role"`
		Model   *string         `json:"model"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(b, &v); err != nil || v.Role == nil || v.Model == nil || len(v.Content) == 0 {
		return fmt.Errorf(`a sampling result needs "role", "content" and "model", e.g. {"role":"assistant","content":{"type":"text","text":"..."},"model":"m"}`)
	}
	return nil
}

func checkElicitFile(b json.RawMessage) error {
	var v struct {
		Action string `json:"action"`
	}
	if err := json.Unmarshal(b, &v); err != nil || (v.Action != "accept" && v.Action != "decline" && v.Action != "cancel") {
		return fmt.Errorf(`an elicitation result needs "action": "accept", "decline" or "cancel" (and "content" to accept a form)`)
	}
	return nil
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
func (r *Rules) Sampling() mcp.Answerer { return mcp.AnswerFunc(r.answerSampling) }

// ElicitForm answers form elicitations.
func (r *Rules) ElicitForm() mcp.Answerer { return mcp.AnswerFunc(r.answerElicit) }

// ElicitURL answers URL elicitations.
func (r *Rules) ElicitURL() mcp.Answerer { return mcp.AnswerFunc(r.answerElicit) }

// Roots answers roots/list.
func (r *Rules) Roots() mcp.Answerer { return mcp.AnswerFunc(r.answerRoots) }

func (r *Rules) answerSampling(_ context.Context, q *mcp.Question) (json.RawMessage, error) {
	rule := r.sampling
	if rule == nil {
		return nil, r.noRule(q, "sampling", -1, "--answer sampling=@reply.json (or sampling=text:REPLY)")
	}
	switch rule.Action {
	case cli.AnswerFile:
		r.answered(q, "the reply in "+rule.File)
		return rule.Body, nil
	case cli.AnswerText:
		r.answered(q, "the text reply")
		return json.Marshal(map[string]any{
			"role": "assistant", "content": map[string]string{"type": "text", "text": rule.Text},
			"model": HeadlessModel, "stopReason": "endTurn",
		})
	}
	r.answered(q, "a rejection")
	return nil, &mcp.Error{Code: -1, Message: "User rejected sampling request"}
}

func (r *Rules) answerElicit(_ context.Context, q *mcp.Question) (json.RawMessage, error) {
	rule := r.elicit
	if rule == nil {
		return nil, r.noRule(q, "elicitation", mcp.CodeInternal, "--answer elicitation=accept-defaults|decline|cancel|@answer.json")
	}
	mq := modelQuestion(q)
	var ans json.RawMessage
	switch rule.Action {
	case cli.AnswerFile:
		ans = rule.Body
	case cli.AnswerAcceptDefaults:
		ans = model.Prepared(mq, "", nil)
	default:
		ans = model.ElicitAnswer(rule.Action, nil)
	}
	if err := model.ValidateAnswer(mq, ans); err != nil {
		r.notes.printf("the answer to %s (%s) does not fit its schema, sent anyway: %s", q.Method, rule.Action, inert.Line(err.Error()))
	}
	r.answered(q, rule.Action)
	return ans, nil
}

func (r *Rules) answerRoots(_ context.Context, q *mcp.Question) (json.RawMessage, error) {
	if len(r.roots) == 0 {
		// No --root is an honest answer: no roots. Said once.
		r.noRootsOnce.Do(func() {
			r.notes.printf("the server asked for roots (%s): answered with an empty list; offer some with --root URI", q.Method)
		})
		return model.RootsAnswer(nil), nil
	}
	r.answered(q, fmt.Sprintf("%d root(s) from --root", len(r.roots)))
	return model.RootsAnswer(r.roots), nil
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
	s := model.New(model.Config{})
	s.Apply(model.QuestionAsked{Stamp: model.Stamp{Time: time.Now()}, Key: "q", Method: q.Method, Params: q.Params})
	if qs := s.Questions(); len(qs) > 0 {
		return qs[0]
	}
	return &model.Question{Method: q.Method, Params: q.Params, Kind: model.ClassifyQuestion(q.Method, q.Params)}
}
