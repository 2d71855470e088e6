package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
)

// parked is a question waiting for a person.
type parked struct {
	answer chan answer
}

type answer struct {
	result json.RawMessage
	err    error
}

// asker is the mcp.Answerer for every kind of question of one generation:
// it parks them with the session.
type asker struct {
	s *Session
	g *generation
}

// Answer implements mcp.Answerer.
func (a asker) Answer(ctx context.Context, q *mcp.Question) (json.RawMessage, error) {
	return a.s.ask(ctx, a.g, q)
}

// ask parks a question from the server until the person answers it (see
// Answer and Reject), the server withdraws it, or the connection stops.
func (s *Session) ask(ctx context.Context, g *generation, q *mcp.Question) (json.RawMessage, error) {
	s.mu.Lock()
	key := ""
	if q.Origin.RequestID == nil {
		// Entries of concurrent input_required results may share a key:
		// make each one unique for the queue.
		s.nextKey++
		key = fmt.Sprintf("%s#%d", q.Origin.Key, s.nextKey)
	}
	s.mu.Unlock()
	callID := roundID(ctx, q)
	result, err, auto, note := s.decide(g, q, key, callID)
	if auto {
		return result, err
	}
	s.mu.Lock()
	ref := refKey(g.n, q.Origin.RequestID, key)
	p := &parked{answer: make(chan answer, 1)}
	s.questions[ref] = p
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.questions, ref)
		s.mu.Unlock()
	}()

	s.push(model.QuestionAsked{
		Stamp: model.Stamp{Time: s.now(), Gen: g.n}, RequestID: q.Origin.RequestID, Key: key, Method: q.Method, Params: q.Params,
		CallMethod: q.Origin.CallMethod, Round: q.Origin.Round, CallID: callID, Note: note,
	})
	select {
	case a := <-p.answer:
		if a.err != nil && q.Origin.InputRequired() {
			// The request cannot go on without this answer: say so in
			// words, not as the chain of the layers it passes through.
			return nil, &InputRejectedError{Kind: q.Kind.String(), Key: q.Origin.Key, Err: a.err}
		}
		return a.result, a.err
	case <-ctx.Done():
	case <-g.stopped:
	}
	state := model.CancelledByServer
	if g.isStopped() || s.connErr(g) != nil {
		state = model.QuestionConnectionDied
	}
	s.push(model.QuestionResolved{Stamp: model.Stamp{Time: s.now(), Gen: g.n}, RequestID: q.Origin.RequestID, Key: key, State: state})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return nil, errors.New("the connection stopped")
}

// connErr is the error the generation's connection stopped with, or nil
// while it runs (or before it is up). The connection records it before it
// cancels the handlers of the server's requests, so a handler that sees its
// context end can tell the connection's end from the server's cancellation.
func (s *Session) connErr(g *generation) error {
	s.mu.Lock()
	c := g.client
	s.mu.Unlock()
	if c == nil {
		return nil
	}
	return c.Transport().Err()
}

// roundCtl is the context key of the call control of one of the person's
// requests (see track): an input_required entry asked under it belongs to
// the round whose id the control holds.
type roundCtl struct{}

// roundID is the wire id of the request round whose input_required result
// asked q, or nil (a server request, or a request not sent through track).
func roundID(ctx context.Context, q *mcp.Question) json.RawMessage {
	if !q.Origin.InputRequired() {
		return nil
	}
	ctl, _ := ctx.Value(roundCtl{}).(*conn.CallControl)
	if ctl == nil || ctl.ID() == 0 {
		return nil
	}
	return json.RawMessage(strconv.FormatInt(ctl.ID(), 10))
}

// InputRejectedError is a request that failed because the person (or an
// answer policy) rejected a question of its input_required result: without
// the answer the request cannot go on, and no further round is sent. It
// wraps the rejection (an *mcp.Error).
type InputRejectedError struct {
	// Kind is the question's kind ("sampling"), Key its inputRequests key.
	Kind, Key string
	// Policy is the answer policy that rejected it ("sampling=reject");
	// "" when the person did.
	Policy string
	Err    error
}

// Error says what happened in the person's terms.
func (e *InputRejectedError) Error() string {
	who := "you"
	if e.Policy != "" {
		who = "the " + e.Policy + " policy"
	}
	return fmt.Sprintf("%s rejected its %s question (input request %q), so the request cannot go on", who, e.Kind, e.Key)
}

// Unwrap is the rejection.
func (e *InputRejectedError) Unwrap() error { return e.Err }

func refKey(gen int, requestID json.RawMessage, key string) string {
	return fmt.Sprintf("%d\x00%s\x00%s", gen, requestID, key)
}

// deliver hands an answer to a parked question.
func (s *Session) deliver(q model.QuestionRef, a answer) error {
	s.mu.Lock()
	p := s.questions[refKey(q.Gen, q.RequestID, q.InputKey)]
	s.mu.Unlock()
	if p == nil {
		return errors.New("the question is no longer waiting (answered, withdrawn, or the connection stopped)")
	}
	select {
	case p.answer <- a:
		return nil
	default:
		return errors.New("the question was already answered")
	}
}

// Answer sends result as the answer to a question.
func (s *Session) Answer(_ context.Context, q model.QuestionRef, result json.RawMessage) error {
	return s.deliver(q, answer{result: result})
}

// Reject answers a question with a JSON-RPC error.
func (s *Session) Reject(_ context.Context, q model.QuestionRef, e model.RPCError) error {
	return s.deliver(q, answer{err: &mcp.Error{Code: e.Code, Message: e.Message}})
}
