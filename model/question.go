package model

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/protocol"
)

// QuestionKind says what the server asks for.
type QuestionKind int

// The kinds of Question.
const (
	// AskOther is a method the inspector has no form for.
	AskOther QuestionKind = iota
	// AskSampling is sampling/createMessage: a person writes the reply.
	AskSampling
	// AskElicitForm is a form-mode elicitation/create.
	AskElicitForm
	// AskElicitURL is a URL-mode elicitation/create.
	AskElicitURL
	// AskRoots is roots/list.
	AskRoots
	// AskPing is ping.
	AskPing
)

// String names the kind.
func (k QuestionKind) String() string {
	switch k {
	case AskSampling:
		return "sampling"
	case AskElicitForm:
		return "elicitation"
	case AskElicitURL:
		return "elicitation (url)"
	case AskRoots:
		return "roots"
	case AskPing:
		return protocol.MethodPing
	}
	return "other"
}

// ClassifyQuestion finds the kind of a question from its method and params.
func ClassifyQuestion(method string, params []byte) QuestionKind {
	switch method {
	case protocol.MethodCreateMessage:
		return AskSampling
	case protocol.MethodElicit:
		if mode, _ := str(member(params, "mode")); mode == "url" {
			return AskElicitURL
		}
		return AskElicitForm
	case protocol.MethodListRoots:
		return AskRoots
	case protocol.MethodPing:
		return AskPing
	}
	return AskOther
}

// QuestionState is where a question is in its life.
type QuestionState int

// The states of a Question.
const (
	// Waiting for a person.
	Waiting QuestionState = iota
	// Answered with a result.
	Answered
	// Rejected with an error (or, for elicitation, declined or cancelled).
	Rejected
	// CancelledByServer: the server withdrew it.
	CancelledByServer
	// QuestionConnectionDied: the connection stopped first.
	QuestionConnectionDied
)

// String names the state.
func (s QuestionState) String() string {
	return [...]string{"waiting", "answered", "rejected", "cancelled by server", "connection died"}[s]
}

// Question is one entry of the pending-questions queue.
type Question struct {
	Key  string
	Kind QuestionKind
	// RequestID is the server's id for a server-to-client request; nil
	// for an input_required entry.
	RequestID json.RawMessage
	// InputKey is the input_required entry's key; "" for a server request.
	InputKey   string
	Method     string
	Params     json.RawMessage
	CallMethod string
	Round      int
	// CallKey is the Key of our request (the round) whose input_required
	// result asked it; "" for a server request or when unknown.
	CallKey  string
	Gen      int
	Arrived  time.Time
	State    QuestionState
	Resolved time.Time
	Answer   json.RawMessage
	Err      *RPCError
	// Auto is the answer policy that answered it without a person
	// ("roots=answer"); "" when a person did.
	Auto string
	// Note says why a policy that would have answered it asks instead.
	Note string
	// Summary is what a person needs to see to answer.
	Summary Summary
}

// QuestionRef identifies a question to the backend that parked it: the
// connection generation, and the server's request id or the input_required
// entry's key.
type QuestionRef struct {
	Gen       int
	RequestID json.RawMessage
	InputKey  string
}

// Ref is the question's identity for the backend.
func (q *Question) Ref() QuestionRef {
	return QuestionRef{Gen: q.Gen, RequestID: q.RequestID, InputKey: q.InputKey}
}

// Waited is how long the server has waited (or waited) at now.
func (q *Question) Waited(now time.Time) time.Duration {
	if q.State != Waiting {
		return q.Resolved.Sub(q.Arrived)
	}
	return now.Sub(q.Arrived)
}

// Summary is the gist of a question, per kind. Strings are raw from the
// server: escape them before drawing.
type Summary struct {
	// Sampling.
	LastUser     string
	SystemPrompt string
	MaxTokens    int
	ModelPrefs   string
	Messages     int
	// Tools are the names of the tools the model may call; ToolChoice is
	// the toolChoice mode ("auto", "required", "none"), if any.
	Tools      []string
	ToolChoice string
	// Elicitation.
	Message string
	URL     string
	Fields  []Field
	// Roots: what the prepared answer returns, or once the answer is
	// seen on the wire (RootsSent), what it returned: a host answering
	// through a tap, or a replay, sends its own.
	Roots     []Root
	RootsSent bool
}

// Field is one property of an elicitation's requested schema.
type Field struct {
	Name        string
	Type        string
	Title       string
	Description string
	Required    bool
	Enum        []string
	// Default is the schema's default, raw; nil when none.
	Default json.RawMessage
}

// Root is one root the client offers.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// Lines is the summary as label/value pairs, in display order.
func (s Summary) Lines(k QuestionKind) [][2]string {
	var out [][2]string
	add := func(label, value string) {
		if value != "" {
			out = append(out, [2]string{label, value})
		}
	}
	switch k {
	case AskSampling:
		add("user", s.LastUser)
		add("system", s.SystemPrompt)
		if s.MaxTokens > 0 {
			add("maxTokens", fmt.Sprint(s.MaxTokens))
		}
		add("model", s.ModelPrefs)
		if s.Messages > 1 {
			add("messages", fmt.Sprint(s.Messages))
		}
		if len(s.Tools) > 0 {
			t := strings.Join(s.Tools, ", ")
			if s.ToolChoice != "" {
				t += " (toolChoice " + s.ToolChoice + ")"
			}
			add("tools", t+"; e edits a tool_use reply")
		}
	case AskElicitForm, AskElicitURL:
		add("message", s.Message)
		add("url", s.URL)
		for _, f := range s.Fields {
			v := f.Type
			if f.Required {
				v += ", required"
			}
			if len(f.Enum) > 0 {
				v += fmt.Sprintf(", one of %q", f.Enum)
			}
			if f.Default != nil {
				v += ", default " + string(f.Default)
			}
			add("field "+f.Name, v)
		}
	case AskRoots:
		switch {
		case len(s.Roots) == 0 && s.RootsSent:
			add("roots", "(none)")
		case len(s.Roots) == 0:
			add("roots", "(none configured: --root)")
		}
		for _, r := range s.Roots {
			add("root", r.URI)
		}
	}
	return out
}
