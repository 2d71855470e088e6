package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/mcptui/mcptui/model"

	"github.com/mcptui/mcptui/internal/protocol"
)

// AnswerRule is one --answer KIND=ACTION: the policy for the server's
// questions of one kind, in the inspector and in the headless commands
// alike (one vocabulary, parsed here for both).
type AnswerRule struct {
	// Kind is the word given: roots, sampling, elicitation, or a method.
	Kind string
	// Method is the question's method Kind names (roots/list, …).
	Method string
	// Action is AnswerAsk, AnswerPrepared, AnswerReject, AnswerFile,
	// AnswerText, AnswerAcceptDefaults, AnswerDecline or AnswerCancel.
	Action string
	// Body is the file's JSON (AnswerFile); File its name.
	Body json.RawMessage
	File string
	// Text is the reply (AnswerText).
	Text string
}

// The actions of an AnswerRule.
const (
	// AnswerAsk asks a person (the inspector only: a headless command has
	// no one to ask).
	AnswerAsk = "ask"
	// AnswerPrepared answers with the question's own prepared answer: the
	// configured roots, an elicitation's defaults, {} for another method.
	AnswerPrepared = "answer"
	// AnswerFile answers with the JSON result in a file (@FILE).
	AnswerFile = "file"
	// AnswerText answers sampling with an assistant text reply (text:...).
	AnswerText = "text"
	// AnswerReject rejects: the error a person's reject sends (a decline
	// for an elicitation).
	AnswerReject = "reject"
	// AnswerAcceptDefaults accepts an elicitation with its schema's
	// defaults (a URL elicitation is accepted).
	AnswerAcceptDefaults = "accept-defaults"
	// AnswerDecline and AnswerCancel answer an elicitation so.
	AnswerDecline = "decline"
	AnswerCancel  = "cancel"
)

// Policy is the rule as the model's answer policy.
func (r AnswerRule) Policy() model.Policy {
	switch r.Action {
	case AnswerAsk:
		return model.Policy{Action: model.PolicyAsk}
	case AnswerReject:
		return model.Policy{Action: model.PolicyReject}
	case AnswerFile:
		return model.Policy{Action: model.PolicyAnswer, Answer: r.Body, Via: "@" + r.File}
	case AnswerText:
		return model.Policy{Action: model.PolicyAnswer, Answer: model.SamplingText(r.Text), Via: "text:" + r.Text}
	case AnswerAcceptDefaults:
		return model.Policy{Action: model.PolicyAnswer, Via: AnswerAcceptDefaults}
	case AnswerDecline, AnswerCancel:
		return model.Policy{Action: model.PolicyAnswer, Answer: model.ElicitAnswer(r.Action, nil), Via: r.Action}
	}
	return model.Policy{Action: model.PolicyAnswer}
}

// Policies are the answer policies the command line asks for: the
// defaults (roots answered with --root's roots, or none; sampling and
// elicitation ask) with every --answer rule over them.
func (c *Config) Policies() model.Policies {
	ps := model.DefaultPolicies()
	for _, r := range c.Answers {
		ps = ps.Set(r.Method, r.Policy())
	}
	return ps
}

type answerFlags struct{ cfg *Config }

// set parses one --answer KIND=ACTION.
func (a *answerFlags) set(s string) error {
	kind, value, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("want KIND=ACTION such as sampling=text:hi, roots=reject or elicitation=ask, got %q", s)
	}
	method := model.PolicyMethod(kind)
	if method == kind && !strings.Contains(kind, "/") && kind != protocol.MethodPing {
		return fmt.Errorf("unknown kind %q: roots, sampling, elicitation, or a method such as elicitation/create", kind)
	}
	for _, old := range a.cfg.Answers {
		if old.Method == method {
			return fmt.Errorf("%s answered twice", kind)
		}
	}
	r := AnswerRule{Kind: kind, Method: method}
	switch {
	case value == AnswerAsk && a.cfg.Mode.Headless():
		return fmt.Errorf("%s=ask: a headless command has no one to ask; answer, reject or @FILE", kind)
	case value == AnswerAsk || value == AnswerReject:
		r.Action = value
	case strings.HasPrefix(value, "@"):
		r.Action, r.File = AnswerFile, value[1:]
		b, err := os.ReadFile(r.File)
		if err != nil {
			return fmt.Errorf("reading %s: %w", r.File, err)
		}
		b = bytes.TrimSpace(b)
		if !json.Valid(b) || len(b) == 0 || b[0] != '{' {
			return fmt.Errorf("%s does not hold a JSON object", r.File)
		}
		if err := checkAnswerFile(method, b); err != nil {
			return fmt.Errorf("%s=@%s: %w", kind, r.File, err)
		}
		r.Body = b
	case method == model.MethodSampling && strings.HasPrefix(value, "text:"):
		r.Action, r.Text = AnswerText, value[len("text:"):]
	case method == model.MethodSampling:
		return fmt.Errorf("sampling=%s: want text:REPLY, @FILE (a JSON result), reject or ask", value)
	case method == model.MethodElicit && (value == AnswerAcceptDefaults || value == AnswerDecline || value == AnswerCancel):
		r.Action = value
	case method == model.MethodElicit && value == AnswerPrepared:
		r.Action = AnswerAcceptDefaults
	case method == model.MethodElicit:
		return fmt.Errorf("elicitation=%s: want accept-defaults, decline, cancel, @FILE, reject or ask", value)
	case value == AnswerPrepared:
		r.Action = value
	case method == model.MethodRoots:
		return fmt.Errorf("roots=%s: want answer (the --root roots), @FILE, reject or ask", value)
	default:
		return fmt.Errorf("%s=%s: want answer ({}), @FILE, reject or ask", kind, value)
	}
	a.cfg.Answers = append(a.cfg.Answers, r)
	return nil
}

// checkAnswerFile checks that a file's JSON has the shape of method's
// result.
func checkAnswerFile(method string, b json.RawMessage) error {
	switch method {
	case model.MethodSampling:
		var v struct {
			Role    *string         `json:"role"`
			Model   *string         `json:"model"`
			Content json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(b, &v); err != nil || v.Role == nil || v.Model == nil || len(v.Content) == 0 {
			return fmt.Errorf(`a sampling result needs "role", "content" and "model", e.g. {"role":"assistant","content":{"type":"text","text":"..."},"model":"m"}`)
		}
	case model.MethodElicit:
		var v struct {
			Action string `json:"action"`
		}
		if err := json.Unmarshal(b, &v); err != nil || (v.Action != "accept" && v.Action != "decline" && v.Action != "cancel") {
			return fmt.Errorf(`an elicitation result needs "action": "accept", "decline" or "cancel" (and "content" to accept a form)`)
		}
	case model.MethodRoots:
		var v struct {
			Roots []struct {
				URI string `json:"uri"`
			} `json:"roots"`
		}
		if err := json.Unmarshal(b, &v); err != nil || v.Roots == nil {
			return fmt.Errorf(`a roots result needs "roots", e.g. {"roots":[{"uri":"file:///home/me/project"}]}`)
		}
	}
	return nil
}
