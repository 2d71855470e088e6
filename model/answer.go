package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/mcptui/mcptui/internal/inert"
	"io"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/mcptui/mcptui/internal/protocol"
)

// HumanModel is the model name a hand-written sampling reply carries.
const HumanModel = "mcptui-human"

// SamplingAnswer is the result of sampling/createMessage for an assistant
// text reply a person typed.
func SamplingAnswer(text string) json.RawMessage {
	type content struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	b, _ := json.Marshal(struct {
		Role       string  `json:"role"`
		Content    content `json:"content"`
		Model      string  `json:"model"`
		StopReason string  `json:"stopReason"`
	}{"assistant", content{"text", text}, HumanModel, "endTurn"})
	return indent(b)
}

// ToolUseAnswer is the result of sampling/createMessage for a model that
// calls tool name with input (a JSON object; nil means {}), to edit
// before sending.
func ToolUseAnswer(name string, input json.RawMessage) json.RawMessage {
	if input == nil {
		input = json.RawMessage(`{}`)
	}
	type block struct {
		Type  string          `json:"type"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	b, _ := json.Marshal(struct {
		Role       string  `json:"role"`
		Content    []block `json:"content"`
		Model      string  `json:"model"`
		StopReason string  `json:"stopReason"`
	}{"assistant", []block{{"tool_use", "call_1", name, input}}, HumanModel, "toolUse"})
	return indent(b)
}

// ElicitAnswer is an elicitation result: action "accept" with content (nil
// content is left out), "decline" or "cancel".
func ElicitAnswer(action string, content json.RawMessage) json.RawMessage {
	if action != "accept" {
		content = nil
	}
	b, _ := json.Marshal(struct {
		Action  string          `json:"action"`
		Content json.RawMessage `json:"content,omitempty"`
	}{action, content})
	return indent(b)
}

// RootsAnswer is the result of roots/list offering roots.
func RootsAnswer(roots []Root) json.RawMessage {
	if roots == nil {
		roots = []Root{}
	}
	b, _ := json.Marshal(map[string]any{"roots": roots})
	return indent(b)
}

// Prepared is the default answer to a question, ready to approve or edit:
// sampling gets an assistant reply with text (what the person typed),
// elicitation accepts with the schema's defaults, roots returns roots, ping
// an empty object. Other methods get an empty object.
func Prepared(q *Question, text string, roots []Root) json.RawMessage {
	switch q.Kind {
	case AskSampling:
		return SamplingAnswer(text)
	case AskElicitForm:
		content := map[string]json.RawMessage{}
		for _, f := range q.Summary.Fields {
			if f.Default != nil {
				content[f.Name] = f.Default
			}
		}
		b, _ := json.Marshal(content)
		return ElicitAnswer("accept", b)
	case AskElicitURL:
		return ElicitAnswer("accept", nil)
	case AskRoots:
		return RootsAnswer(roots)
	}
	return json.RawMessage("{}")
}

// DefaultRejection is the JSON-RPC error a person's "reject" sends by
// default: -1 "User rejected sampling request" for sampling (as the MCP spec
// suggests), -32603 naming the method otherwise. Elicitation is rejected with
// a decline instead (see ElicitAnswer).
func DefaultRejection(q *Question) RPCError {
	if q.Kind == AskSampling {
		return RPCError{Code: -1, Message: "User rejected sampling request"}
	}
	return RPCError{Code: protocol.CodeInternal, Message: "Rejected by the user: " + inert.Line(q.Method)} // the method is the server's text: the reject dialog shows this message in an editor
}

// ValidateAnswer checks a result a person wrote for a question: JSON syntax
// first, then the shape of the method's result (and, for a form
// elicitation that accepts, the fields of the requested schema). The error
// says what is wrong and where.
func ValidateAnswer(q *Question, answer []byte) error {
	if err := checkSyntax(answer); err != nil {
		return err
	}
	if kind(answer) != '{' {
		return errors.New("the answer must be a JSON object")
	}
	switch q.Kind {
	case AskSampling:
		return validateSampling(answer)
	case AskElicitForm, AskElicitURL:
		return validateElicit(q, answer)
	case AskRoots:
		return validateRoots(answer)
	}
	return nil
}

// checkSyntax reports a JSON syntax error with its byte offset.
func checkSyntax(b []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(b))
	if _, err := dec.ReadValue(); err != nil {
		return fmt.Errorf("not valid JSON: %w", err)
	}
	if _, err := dec.ReadValue(); err == nil {
		return errors.New("not valid JSON: more than one value")
	} else if !isEOF(err) {
		return fmt.Errorf("not valid JSON: %w", err)
	}
	return nil
}

func isEOF(err error) bool { return errors.Is(err, io.EOF) }

func validateSampling(answer []byte) error {
	v, _ := members(answer, "role", "content", "model", "stopReason")
	role, ok := str(v[0])
	if !ok || (role != "assistant" && role != "user") {
		return errors.New(`"role" must be "assistant" or "user"`)
	}
	switch kind(v[1]) {
	case '{':
		if err := validateContent(v[1]); err != nil {
			return fmt.Errorf(`"content": %w`, err)
		}
	case '[':
		var blocks []json.RawMessage
		_ = json.Unmarshal(v[1], &blocks)
		for i, b := range blocks {
			if err := validateContent(b); err != nil {
				return fmt.Errorf(`"content"[%d]: %w`, i, err)
			}
		}
	default:
		return errors.New(`"content" must be a content object (or a list of them)`)
	}
	if m, ok := str(v[2]); !ok || m == "" {
		return errors.New(`"model" must be a non-empty string`)
	}
	if v[3] != nil && kind(v[3]) != '"' {
		return errors.New(`"stopReason" must be a string`)
	}
	return nil
}

func validateContent(block []byte) error {
	v, _ := members(block, "type", "text", "data", "mimeType")
	typ, _ := str(v[0])
	switch typ {
	case "text":
		if kind(v[1]) != '"' {
			return errors.New(`a text block needs a string "text"`)
		}
	case "image", "audio":
		if kind(v[2]) != '"' || kind(v[3]) != '"' {
			return fmt.Errorf(`an %s block needs string "data" and "mimeType"`, typ)
		}
	case "tool_use", "tool_result":
	case "":
		return errors.New(`a content block needs a "type"`)
	default:
		return fmt.Errorf("unknown content type %q", typ)
	}
	return nil
}

func validateElicit(q *Question, answer []byte) error {
	v, _ := members(answer, "action", "content")
	action, _ := str(v[0])
	if !slices.Contains([]string{"accept", "decline", "cancel"}, action) {
		return errors.New(`"action" must be "accept", "decline" or "cancel"`)
	}
	if v[1] == nil {
		if action == "accept" && q.Kind == AskElicitForm && hasRequired(q.Summary.Fields) {
			return errors.New(`"accept" needs "content" with the required fields`)
		}
		return nil
	}
	if action != "accept" {
		return fmt.Errorf(`"content" is only sent with "accept", not %q`, action)
	}
	if kind(v[1]) != '{' {
		return errors.New(`"content" must be an object`)
	}
	return validateFields(q.Summary.Fields, v[1])
}

func hasRequired(fields []Field) bool {
	return slices.ContainsFunc(fields, func(f Field) bool { return f.Required })
}

// validateFields checks elicitation content against the requested schema's
// flat properties: required present, types and enums respected.
func validateFields(fields []Field, content []byte) error {
	var errs []string
	for _, f := range fields {
		val := member(content, f.Name)
		if val == nil {
			if f.Required {
				errs = append(errs, fmt.Sprintf("%q is required", f.Name))
			}
			continue
		}
		if err := checkType(f, val); err != nil {
			errs = append(errs, fmt.Sprintf("%q: %v", f.Name, err))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	// One line, so that it fits a status line.
	return errors.New(strings.Join(errs, "; "))
}

func checkType(f Field, val []byte) error {
	k := kind(val)
	switch f.Type {
	case "string":
		if k != '"' {
			return errors.New("must be a string")
		}
		if s, _ := str(val); len(f.Enum) > 0 && !slices.Contains(f.Enum, s) {
			return fmt.Errorf("must be one of %q", f.Enum)
		}
	case "number":
		if k != '0' {
			return errors.New("must be a number")
		}
	case "integer":
		if n, ok := num(val); !ok || n != float64(int64(n)) {
			return errors.New("must be an integer")
		}
	case "boolean":
		if k != 't' && k != 'f' {
			return errors.New("must be true or false")
		}
	case "array":
		if k != '[' {
			return errors.New("must be an array")
		}
	}
	return nil
}

func validateRoots(answer []byte) error {
	roots := member(answer, "roots")
	if kind(roots) != '[' {
		return errors.New(`"roots" must be an array`)
	}
	var list []json.RawMessage
	_ = json.Unmarshal(roots, &list)
	for i, r := range list {
		uri, ok := str(member(r, "uri"))
		if !ok {
			return fmt.Errorf(`"roots"[%d] needs a string "uri"`, i)
		}
		if !strings.HasPrefix(uri, "file://") {
			return fmt.Errorf(`"roots"[%d]: the uri must start with file://`, i)
		}
	}
	return nil
}

// indent pretty-prints JSON for editing; invalid input comes back as is.
func indent(b []byte) json.RawMessage {
	v := jsontext.Value(b)
	if err := v.Indent(jsontext.WithIndent("  ")); err != nil {
		return b
	}
	return json.RawMessage(v)
}
