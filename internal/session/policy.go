package session

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// Policies are the answer policies in force now.
func (s *Session) Policies() model.Policies {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.policies
}

// SetPolicy changes the policy of method's questions from now on (a
// question already waiting keeps waiting for the person).
func (s *Session) SetPolicy(method string, p model.Policy) error {
	if method == "" {
		return fmt.Errorf("session: a policy needs a method")
	}
	s.mu.Lock()
	s.policies = s.policies.Set(method, p)
	s.mu.Unlock()
	return nil
}

// SetRoots changes the roots a policy's prepared roots answer returns (the
// person edited them).
func (s *Session) SetRoots(roots []model.Root) {
	s.mu.Lock()
	s.roots = slices.Clone(roots)
	s.mu.Unlock()
}

// decide applies the question's policy: ok with the answer (or the error)
// to send when the policy answers it without a person; otherwise the note
// to show with the parked question (why a policy that would answer asks).
// Either way nothing is on the wire yet: the events come first, so the
// answer's line is marked with its policy.
func (s *Session) decide(g *generation, q *mcp.Question, key string, callID json.RawMessage) (result json.RawMessage, err error, ok bool, note string) { //nolint:staticcheck // ST1008: ok and note qualify the error; the order is the answer's
	s.mu.Lock()
	p, roots := s.policies.For(q.Method), s.roots
	s.mu.Unlock()
	if p.Action == model.PolicyAsk {
		return nil, nil, false, ""
	}
	d := p.Decide(model.QuestionFor(q.Method, q.Params, roots), roots)
	rule := p.Rule(q.Method)
	if d.Ask {
		return nil, nil, false, fmt.Sprintf("%s asks you: %s", rule, d.Why)
	}
	stamp := model.Stamp{Time: s.now(), Gen: g.n}
	s.push(model.QuestionAsked{
		Stamp: stamp, RequestID: q.Origin.RequestID, Key: key, Method: q.Method, Params: q.Params,
		CallMethod: q.Origin.CallMethod, Round: q.Origin.Round, CallID: callID,
	})
	s.push(model.QuestionResolved{Stamp: stamp, RequestID: q.Origin.RequestID, Key: key, State: d.State,
		Answer: d.Answer, Err: d.Err, Auto: rule})
	if d.Err != nil {
		var err error = &mcp.Error{Code: d.Err.Code, Message: d.Err.Message}
		if q.Origin.InputRequired() {
			// The request cannot go on: say so, and who rejected it.
			err = &InputRejectedError{Kind: q.Kind.String(), Key: q.Origin.Key, Policy: rule, Err: err}
		}
		return nil, err, true, ""
	}
	return d.Answer, nil, true, ""
}
