package headless

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/cli"
)

// Script is a parsed run script: steps, each with the expectations that
// follow it.
//
// The language, one step per line ("#" starts a comment line):
//
//	tools | resources | templates | prompts     list (all pages)
//	call NAME [{JSON} | KEY=VALUE... | KEY:=JSON...]
//	read URI
//	get NAME [{JSON} | KEY=VALUE...]
//	complete REF ARG[=VALUE] [KEY=VALUE...]     REF: prompt:NAME or resource:URI-TEMPLATE
//	request METHOD [{JSON params}]
//	listen [{JSON filter}]                      open a subscription; the result is
//	                                            {"id": ..., "accepted": {...}}
//	next [METHOD] [within DURATION]             wait for the next event of the newest
//	                                            subscription (of METHOD); the result is
//	                                            {"method": ..., "params": {...}}
//	expect ok                                   the step succeeded
//	expect error [CODE]                         the step failed (with that JSON-RPC code);
//	                                            later expects look at {"code","message","data"}
//	expect isError                              the tool returned isError: true
//	expect PATH OP [VALUE]                      a check on the result
//
// PATH is "." (the whole result) or a chain of .name, ."any key", [N] and
// .length (of an array, string or object); OP is ==, !=, <, <=, >, >=,
// contains, matches (a regular expression), exists or absent; VALUE is JSON,
// or else a bare string. A VALUE with spaces is written as a JSON string.
// KEY=VALUE values are strings; KEY="..." is a JSON string; KEY:=JSON is any
// JSON (tool arguments only).
//
// A step fails when its request fails and no "expect error" follows, when a
// tool returns isError and no "expect isError" follows, or when an
// expectation does not hold.
type Script struct {
	Name  string
	Steps []*ScriptStep
}

// ScriptStep is one step of a script.
type ScriptStep struct {
	// Line is the step's line number; Text the line as written.
	Line int
	Text string
	// Verb is the step's first word.
	Verb string
	// Send is what to send, for the request steps.
	Send step
	// Filter is listen's filter (nil: all that the server offers).
	Filter json.RawMessage
	// Method and Within are next's method (empty: any) and time limit (0:
	// the --timeout).
	Method string
	Within time.Duration
	// Expects follow the step.
	Expects []*Expect
}

// Expect is one expectation.
type Expect struct {
	Line int
	Text string
	// Kind is "ok", "error", "isError" or "path".
	Kind string
	// Code is the error code expected, for "error" (nil: any).
	Code *int
	// Path, Op and Value are the check of a "path" expectation.
	Path  []pathElem
	Op    string
	Value json.RawMessage
	re    *regexp.Regexp
}

type pathElem struct {
	key   string
	index int
	isIdx bool
}

var verbs = map[string]cli.Mode{
	"tools": cli.ModeTools, "resources": cli.ModeResources, "templates": cli.ModeTemplates, "prompts": cli.ModePrompts,
	"call": cli.ModeCall, "read": cli.ModeRead, "get": cli.ModeGet, "complete": cli.ModeComplete, "request": cli.ModeRequest,
}

// ParseScript parses a script; name is used in errors and reports.
func ParseScript(name string, src []byte) (*Script, error) {
	sc := &Script{Name: name}
	for i, line := range strings.Split(string(src), "\n") {
		n := i + 1
		text := strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		verb, rest, _ := strings.Cut(text, " ")
		rest = strings.TrimSpace(rest)
		errorf := func(format string, a ...any) error {
			return fmt.Errorf("%s:%d: %s", name, n, fmt.Sprintf(format, a...))
		}
		if verb == "expect" {
			if len(sc.Steps) == 0 {
				return nil, errorf("expect before any step")
			}
			e, err := parseExpect(rest)
			if err != nil {
				return nil, errorf("%v", err)
			}
			e.Line, e.Text = n, text
			last := sc.Steps[len(sc.Steps)-1]
			last.Expects = append(last.Expects, e)
			continue
		}
		st := &ScriptStep{Line: n, Text: text, Verb: verb}
		var err error
		switch verb {
		case "listen":
			if rest != "" {
				st.Filter, err = jsonObject(rest)
			}
		case "next":
			st.Method, st.Within, err = parseNext(rest)
		default:
			mode, ok := verbs[verb]
			if !ok {
				return nil, errorf("unknown step %q: tools, resources, templates, prompts, call, read, get, complete, request, listen, next or expect", verb)
			}
			st.Send, err = parseSend(mode, rest)
		}
		if err != nil {
			return nil, errorf("%v", err)
		}
		sc.Steps = append(sc.Steps, st)
	}
	if len(sc.Steps) == 0 {
		return nil, fmt.Errorf("%s: no steps", name)
	}
	return sc, nil
}

// parseSend reads the words of a request step.
func parseSend(mode cli.Mode, rest string) (step, error) {
	st := step{Mode: mode}
	words, err := splitWords(rest)
	if err != nil {
		return st, err
	}
	switch mode {
	case cli.ModeTools, cli.ModeResources, cli.ModeTemplates, cli.ModePrompts:
		if len(words) > 0 {
			return st, fmt.Errorf("%s takes nothing", mode)
		}
		return st, nil
	case cli.ModeRead:
		if len(words) != 1 {
			return st, fmt.Errorf("read takes one URI")
		}
		st.Target = words[0]
		return st, nil
	case cli.ModeRequest:
		if len(words) == 0 {
			return st, fmt.Errorf("request needs a method")
		}
		st.Target = words[0]
		if p := strings.TrimSpace(strings.TrimPrefix(rest, words[0])); p != "" {
			st.Input, err = jsonObject(p)
		}
		return st, err
	case cli.ModeComplete:
		if len(words) < 2 {
			return st, fmt.Errorf("complete needs a reference and an argument: complete prompt:NAME ARG=VALUE")
		}
		st.Complete, err = completion(words[0], words[1])
		if err != nil {
			return st, err
		}
		st.Input, err = keyValues(cli.ModeComplete, words[2:])
		return st, err
	}
	// call and get: a name, then a JSON object or KEY=VALUE words.
	if len(words) == 0 {
		return st, fmt.Errorf("%s needs a name", mode)
	}
	st.Target = words[0]
	if p := strings.TrimSpace(strings.TrimPrefix(rest, words[0])); strings.HasPrefix(p, "{") {
		st.Input, err = jsonObject(p)
		if err == nil && mode == cli.ModeGet {
			_, err = stringMap(st.Input)
		}
		return st, err
	}
	st.Input, err = keyValues(mode, words[1:])
	return st, err
}

func completion(ref, arg string) (cli.Completion, error) {
	c, err := cli.ParseCompletion(ref, arg)
	if err != nil {
		return c, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), cli.ErrUsage.Error()+": "))
	}
	return c, nil
}

// keyValues builds a JSON object from KEY=VALUE and KEY:=JSON words.
func keyValues(mode cli.Mode, words []string) (json.RawMessage, error) {
	if len(words) == 0 {
		return nil, nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	seen := map[string]bool{}
	for i, w := range words {
		eq := strings.Index(w, "=")
		if eq <= 0 {
			return nil, fmt.Errorf("want KEY=VALUE, got %q", w)
		}
		k, v := w[:eq], w[eq+1:]
		var val json.RawMessage
		if kk, ok := strings.CutSuffix(k, ":"); ok && kk != "" {
			if mode != cli.ModeCall {
				return nil, fmt.Errorf("KEY:=JSON is for tool arguments; %s takes strings", mode)
			}
			if !json.Valid([]byte(v)) {
				return nil, fmt.Errorf("%s:= wants JSON, got %q", kk, v)
			}
			k, val = kk, json.RawMessage(v)
		} else {
			s := v
			if strings.HasPrefix(v, `"`) {
				if err := json.Unmarshal([]byte(v), &s); err != nil {
					return nil, fmt.Errorf("%s: a bad JSON string: %v", k, err)
				}
			}
			val, _ = json.Marshal(s)
		}
		if seen[k] {
			return nil, fmt.Errorf("%q given twice", k)
		}
		seen[k] = true
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// splitWords splits on spaces outside double quotes (a quoted part is a
// JSON string and keeps its quotes).
func splitWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	in, esc, started := false, false, false
	for _, r := range s {
		switch {
		case esc:
			esc = false
		case in && r == '\\':
			esc = true
		case r == '"':
			in = !in
		case !in && (r == ' ' || r == '\t'):
			if started {
				words = append(words, cur.String())
				cur.Reset()
				started = false
			}
			continue
		}
		cur.WriteRune(r)
		started = true
	}
	if in {
		return nil, fmt.Errorf("an unclosed quote")
	}
	if started {
		words = append(words, cur.String())
	}
	return words, nil
}

func jsonObject(s string) (json.RawMessage, error) {
	b := bytes.TrimSpace([]byte(s))
	if !json.Valid(b) || len(b) == 0 || b[0] != '{' {
		return nil, fmt.Errorf("want a JSON object on one line, got %s", clipQ(s))
	}
	return b, nil
}

func parseNext(rest string) (string, time.Duration, error) {
	words := strings.Fields(rest)
	var method string
	var within time.Duration
	for i := 0; i < len(words); i++ {
		switch {
		case words[i] == "within" && i+1 < len(words):
			d, err := time.ParseDuration(words[i+1])
			if err != nil || d <= 0 {
				return "", 0, fmt.Errorf("within wants a duration such as 5s, got %q", words[i+1])
			}
			within = d
			i++
		case method == "" && words[i] != "within":
			method = words[i]
		default:
			return "", 0, fmt.Errorf("next [METHOD] [within DURATION], got %q", rest)
		}
	}
	return method, within, nil
}

var ops = []string{"==", "!=", "<=", ">=", "<", ">", "contains", "matches", "exists", "absent"}

func parseExpect(rest string) (*Expect, error) {
	words := strings.Fields(rest)
	if len(words) == 0 {
		return nil, fmt.Errorf("expect what? ok, error [CODE], isError or PATH OP VALUE")
	}
	e := &Expect{}
	switch words[0] {
	case "ok", "isError":
		if len(words) > 1 {
			return nil, fmt.Errorf("expect %s takes nothing more", words[0])
		}
		e.Kind = words[0]
		return e, nil
	case "error":
		e.Kind = "error"
		if len(words) == 2 {
			c, err := strconv.Atoi(words[1])
			if err != nil {
				return nil, fmt.Errorf("expect error wants a JSON-RPC code, got %q", words[1])
			}
			e.Code = &c
		} else if len(words) > 2 {
			return nil, fmt.Errorf("expect error [CODE]")
		}
		return e, nil
	}
	e.Kind = "path"
	path, after, err := parsePath(rest)
	if err != nil {
		return nil, err
	}
	e.Path = path
	after = strings.TrimSpace(after)
	for _, op := range ops {
		if strings.HasPrefix(after, op) {
			e.Op = op
			break
		}
	}
	if e.Op == "" {
		return nil, fmt.Errorf("want an operator after the path (%s), got %s", strings.Join(ops, " "), clipQ(after))
	}
	value := strings.TrimSpace(strings.TrimPrefix(after, e.Op))
	switch e.Op {
	case "exists", "absent":
		if value != "" {
			return nil, fmt.Errorf("%s takes no value", e.Op)
		}
		return e, nil
	}
	if value == "" {
		return nil, fmt.Errorf("%s needs a value", e.Op)
	}
	if json.Valid([]byte(value)) {
		e.Value = json.RawMessage(value)
	} else {
		e.Value, _ = json.Marshal(value)
	}
	switch e.Op {
	case "matches":
		var pat string
		if !jsonString(e.Value, &pat) {
			return nil, fmt.Errorf("matches wants a regular expression")
		}
		if e.re, err = regexp.Compile(pat); err != nil {
			return nil, fmt.Errorf("matches: %v", err)
		}
	case "<", "<=", ">", ">=":
		var f float64
		if json.Unmarshal(e.Value, &f) != nil {
			return nil, fmt.Errorf("%s wants a number, got %s", e.Op, value)
		}
	}
	return e, nil
}

// parsePath reads a path at the start of s and returns the rest.
func parsePath(s string) ([]pathElem, string, error) {
	if !strings.HasPrefix(s, ".") {
		return nil, "", fmt.Errorf("a path starts with \".\", got %s", clipQ(s))
	}
	var path []pathElem
	i := 0
	for i < len(s) {
		switch {
		case s[i] == '.' && i+1 < len(s) && s[i+1] == '"':
			var key string
			end, err := jsonStringAt(s, i+1, &key)
			if err != nil {
				return nil, "", err
			}
			path = append(path, pathElem{key: key})
			i = end
		case s[i] == '.':
			j := i + 1
			for j < len(s) && s[j] != '.' && s[j] != '[' && s[j] != ' ' && s[j] != '\t' {
				j++
			}
			if j > i+1 {
				path = append(path, pathElem{key: s[i+1 : j]})
			}
			i = j
		case s[i] == '[':
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				return nil, "", fmt.Errorf("an unclosed [ in the path")
			}
			inner := s[i+1 : i+end]
			if n, err := strconv.Atoi(inner); err == nil {
				path = append(path, pathElem{index: n, isIdx: true})
			} else {
				var key string
				if !jsonString(json.RawMessage(inner), &key) {
					return nil, "", fmt.Errorf("[%s]: want a number or a JSON string", inner)
				}
				path = append(path, pathElem{key: key})
			}
			i += end + 1
		default:
			return path, s[i:], nil
		}
	}
	return path, "", nil
}

// jsonStringAt decodes the JSON string starting at s[i] and returns the
// index after it.
func jsonStringAt(s string, i int, out *string) (int, error) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			if err := json.Unmarshal([]byte(s[i:j+1]), out); err != nil {
				return 0, fmt.Errorf("a bad quoted key: %v", err)
			}
			return j + 1, nil
		}
	}
	return 0, fmt.Errorf("an unclosed quoted key")
}

func clipQ(s string) string {
	if len(s) > 40 {
		return fmt.Sprintf("%q…", s[:40])
	}
	return fmt.Sprintf("%q", s)
}
