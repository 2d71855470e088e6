package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcptui/mcptui/conn"
)

// QuestionKind says what the server is asking for.
type QuestionKind int

// The kinds of Question.
const (
	// KindSampling is sampling/createMessage: the answer is a
	// CreateMessageResult (role, content, model).
	KindSampling QuestionKind = iota + 1
	// KindElicitForm is a form-mode elicitation/create: the answer is
	// {"action": "accept"|"decline"|"cancel", "content": {...}}.
	KindElicitForm
	// KindElicitURL is a URL-mode elicitation/create: the answer is
	// {"action": ...} without content.
	KindElicitURL
	// KindRoots is roots/list: the answer is {"roots": [{"uri": ...}]}.
	KindRoots
)

// String names the kind.
func (k QuestionKind) String() string {
	switch k {
	case KindSampling:
		return "sampling"
	case KindElicitForm:
		return "elicitation-form"
	case KindElicitURL:
		return "elicitation-url"
	case KindRoots:
		return "roots"
	}
	return fmt.Sprintf("QuestionKind(%d)", int(k))
}

// Question is something the server asks the client, whether it came as a
// server-to-client request (initialize era) or as one entry of an
// input_required result (2026-07-28).
type Question struct {
	Kind QuestionKind
	// Method is the question's method (sampling/createMessage,
	// elicitation/create, roots/list).
	Method string
	// Params is the question's params, verbatim ({} when none were sent).
	Params json.RawMessage
	// Origin is where the question came from.
	Origin Origin
}

// Origin says where a Question came from: a server request (RequestID set)
// or an input_required result (Call, Key, Round set).
type Origin struct {
	// RequestID is the server's JSON-RPC id for a server-to-client request;
	// nil for an input_required entry.
	RequestID json.RawMessage
	// CallMethod and CallParams are the request that got the
	// input_required result, as the caller gave them.
	CallMethod string
	CallParams json.RawMessage
	// Key is the entry's key in inputRequests.
	Key string
	// Round counts the input_required results of this request, from 1.
	Round int
}

// InputRequired reports whether the question came from an input_required
// result rather than a server-to-client request.
func (o Origin) InputRequired() bool { return o.RequestID == nil }

// Answerer answers the server's questions. Answer may block until a person
// has answered; it must return when ctx is done (the server cancelled the
// request, the connection stopped, or the caller gave up). It returns the
// answer (a JSON object valid for the question's method) or an error: an
// *Error is sent to the server as it is for a server request, anything else
// as -32603; for an input_required entry any error ends the request with it.
type Answerer interface {
	Answer(ctx context.Context, q *Question) (json.RawMessage, error)
}

// AnswerFunc adapts a function to Answerer.
type AnswerFunc func(ctx context.Context, q *Question) (json.RawMessage, error)

// Answer calls f.
func (f AnswerFunc) Answer(ctx context.Context, q *Question) (json.RawMessage, error) {
	return f(ctx, q)
}

// classify finds a question's kind and checks its params: not an object, or
// missing what the method requires, is -32602 naming it. Unknown methods
// return kind 0 and no error.
func classify(method string, params json.RawMessage) (QuestionKind, json.RawMessage, error) {
	var kind QuestionKind
	var required []string
	switch method {
	case MethodCreateMessage:
		kind, required = KindSampling, []string{"messages", "maxTokens"}
	case MethodElicit:
		kind, required = KindElicitForm, []string{"message", "requestedSchema"}
	case MethodListRoots:
		kind = KindRoots
	default:
		return 0, params, nil
	}
	if jsonKind(params) == "absent" || jsonKind(params) == "null" {
		if kind != KindRoots {
			return kind, params, errorf(CodeInvalidParams, "params must be an object")
		}
		return kind, json.RawMessage(`{}`), nil
	}
	obj, err := parseObject(params)
	if err != nil {
		return kind, params, errorf(CodeInvalidParams, "params must be an object")
	}
	what := "A sampling request"
	if kind == KindElicitForm {
		mode, _ := stringMember(obj, "mode")
		switch {
		case !obj.has("mode") || mode == "form":
			what = "A form elicitation"
		case mode == "url":
			kind, required, what = KindElicitURL, []string{"message", "url"}, "A URL elicitation"
		default:
			return kind, params, errorf(CodeInvalidParams, "Unknown elicitation mode %s", obj.get("mode"))
		}
	}
	var missing []string
	for _, k := range required {
		if !obj.has(k) {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return kind, params, newError(CodeInvalidParams,
			fmt.Sprintf("%s needs %s in its params", what, quoteList(required)),
			map[string]any{"missing": missing})
	}
	return kind, params, nil
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// answerer returns the answerer for a kind, or nil.
func (o *Options) answerer(k QuestionKind) Answerer {
	switch k {
	case KindSampling:
		return o.Sampling
	case KindElicitForm:
		return o.ElicitForm
	case KindElicitURL:
		return o.ElicitURL
	case KindRoots:
		return o.Roots
	}
	return nil
}

// invalidAnswer is the -32603 error for an answer not valid for its method.
func invalidAnswer(reason string) *Error {
	return newError(CodeInternal, MsgInvalidAnswer, map[string]string{"reason": reason})
}

// validateAnswer checks an answer is valid for its kind.
func validateAnswer(k QuestionKind, answer json.RawMessage) error {
	obj, err := parseObject(answer)
	if err != nil || !isObject(answer) {
		return invalidAnswer("the answer must be a JSON object")
	}
	switch k {
	case KindElicitForm, KindElicitURL:
		action, _ := stringMember(obj, "action")
		if !slices.Contains([]string{"accept", "decline", "cancel"}, action) {
			return invalidAnswer(`an elicitation answer needs "action": "accept", "decline" or "cancel"`)
		}
		if c := obj.get("content"); c != nil {
			if !isObject(c) {
				return invalidAnswer(`elicitation "content" must be an object`)
			}
			if action != "accept" {
				return invalidAnswer(`elicitation "content" is only sent with "accept"`)
			}
		}
	case KindSampling:
		if _, ok := stringMember(obj, "role"); !ok {
			return invalidAnswer(`a sampling answer needs a string "role"`)
		}
		if c := jsonKind(obj.get("content")); c != "object" && c != "array" {
			return invalidAnswer(`a sampling answer needs "content"`)
		}
		if _, ok := stringMember(obj, "model"); !ok {
			return invalidAnswer(`a sampling answer needs a string "model"`)
		}
	case KindRoots:
		roots := obj.get("roots")
		if jsonKind(roots) != "array" {
			return invalidAnswer(`a roots answer needs a "roots" array`)
		}
		var list []json.RawMessage
		if err := unmarshal(roots, &list); err != nil {
			return invalidAnswer(`a roots answer needs a "roots" array`)
		}
		for _, r := range list {
			ro, err := parseObject(r)
			if err != nil || !isObject(r) {
				return invalidAnswer("each root must be an object")
			}
			if _, ok := stringMember(ro, "uri"); !ok {
				return invalidAnswer(`each root needs a string "uri"`)
			}
		}
	}
	return nil
}

// ask runs the answerer for q and validates its answer.
func (c *Client) ask(ctx context.Context, q *Question) (json.RawMessage, error) {
	a := c.opts.answerer(q.Kind)
	if a == nil {
		return nil, errorf(CodeMethodNotFound, "Method not found: %s", q.Method)
	}
	answer, err := a.Answer(ctx, q)
	if err != nil {
		return nil, err
	}
	if err := validateAnswer(q.Kind, answer); err != nil {
		return nil, err
	}
	return answer, nil
}

// handleServerRequest answers a server-to-client request: ping itself, the
// four question methods through the answerers, anything else through
// Options.Conn.OnServerRequest (or -32601).
func (c *Client) handleServerRequest(ctx context.Context, req *conn.Request) (json.RawMessage, error) {
	if req.Method == MethodPing {
		return json.RawMessage(`{}`), nil
	}
	kind, params, err := classify(req.Method, req.Params)
	if kind == 0 {
		if h := c.opts.Conn.OnServerRequest; h != nil {
			return h(ctx, req)
		}
		return nil, errorf(CodeMethodNotFound, "Method not found: %s", req.Method)
	}
	if err != nil {
		return nil, err
	}
	if v := c.Version(); kind == KindElicitForm || kind == KindElicitURL {
		if v != "" && !Stateless(v) && Before(v, Version20250618) {
			// Declared in initialize for the version asked for, but the
			// server settled on one without elicitation.
			return nil, errorf(CodeMethodNotFound, "Protocol %s does not define %s (elicitation arrived in 2025-06-18)", v, req.Method)
		}
	}
	return c.ask(ctx, &Question{
		Kind:   kind,
		Method: req.Method,
		Params: params,
		Origin: Origin{RequestID: slices.Clone(req.ID)},
	})
}
