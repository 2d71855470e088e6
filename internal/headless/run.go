package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/mcp"
)

// Run runs the headless command cfg asks for (a list, a one-shot request
// or a script), printing results on stdout and failures on stderr, and
// returns the exit code.
func Run(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	if cfg.Mode == cli.ModeRun {
		return RunScript(ctx, cfg, stdout, stderr)
	}
	if !isOneShot(cfg.Mode) {
		f := fail(KindUsage, "%s is not a headless command", cfg.Mode)
		report(stderr, f)
		return f.Exit
	}
	rec, err := OpenRecorder(cfg)
	if err != nil {
		f := fail(KindInternal, "%v", err)
		report(stderr, f)
		return f.Exit
	}
	s, f := connect(ctx, cfg, ConnectOptions{Recorder: rec, Stderr: stderr})
	defer s.closeOnPanic()
	if f == nil {
		f = s.oneShot(ctx, stdout)
	}
	if err := s.close(); err != nil && f == nil {
		f = fail(KindInternal, "%v", err)
	}
	f = s.unfitAnswer(f)
	if f != nil {
		report(stderr, f)
		return f.Exit
	}
	return ExitOK
}

func isOneShot(m cli.Mode) bool {
	switch m {
	case cli.ModeTools, cli.ModeResources, cli.ModeTemplates, cli.ModePrompts,
		cli.ModeCall, cli.ModeRead, cli.ModeGet, cli.ModeComplete, cli.ModeRequest:
		return true
	}
	return false
}

// result is what a one-shot command got: the JSON to print, and whether
// it was a tool's error.
type result struct {
	raw     json.RawMessage
	isError bool
	// text renders raw for --format text.
	text func(w io.Writer, raw json.RawMessage) error
}

// oneShot sends the command's one request and prints its result.
func (s *session) oneShot(ctx context.Context, stdout io.Writer) *Failure {
	res, err := s.do(ctx, step{Mode: s.cfg.Mode, Target: s.cfg.Target, Input: s.cfg.Input, Complete: s.cfg.Complete})
	s.prog.done()
	if err != nil {
		return s.failure(ctx, err)
	}
	if err := printResult(stdout, s.cfg.Format, res); err != nil {
		return fail(KindInternal, "writing the result: %v", err)
	}
	if res.isError {
		text := toolErrorText(res.raw)
		return s.explainEra(fail(KindTool, "the tool %q returned isError: %s", s.cfg.Target, text), text)
	}
	return nil
}

// step is one thing to send: what a one-shot command or a script line asks.
type step struct {
	Mode     cli.Mode
	Target   string
	Input    json.RawMessage
	Complete cli.Completion
}

// label names a step in progress lines and notes.
func (st step) label() string {
	switch st.Mode {
	case cli.ModeComplete:
		return "complete " + st.Complete.Ref
	case cli.ModeTools, cli.ModeResources, cli.ModeTemplates, cli.ModePrompts:
		return st.Mode.String()
	}
	return st.Mode.String() + " " + st.Target
}

// do sends one step and returns its result.
func (s *session) do(ctx context.Context, st step) (*result, error) {
	c := s.client
	opts := s.requestOptions(safeLabel(st.label()))
	switch st.Mode {
	case cli.ModeTools:
		l, err := c.ListTools(ctx, opts...)
		if err != nil {
			return nil, err
		}
		for _, r := range l.Rejected {
			s.notes.printf("left out tool %s: %s", inert.Line(r.Name), inert.Line(r.Reason))
		}
		if s.cfg.Mode == cli.ModeTools && s.cfg.Profiles.Cost {
			return toolsCost(l.Items, s.cfg.Profiles.Context)
		}
		return &result{raw: listJSON("tools", l.Items, func(t mcp.Tool) json.RawMessage { return t.Raw }), text: textTools}, nil
	case cli.ModeResources:
		l, err := c.ListResources(ctx, opts...)
		if err != nil {
			return nil, err
		}
		return &result{raw: listJSON("resources", l.Items, func(r mcp.Resource) json.RawMessage { return r.Raw }), text: textResources}, nil
	case cli.ModeTemplates:
		l, err := c.ListResourceTemplates(ctx, opts...)
		if err != nil {
			return nil, err
		}
		return &result{raw: listJSON("resourceTemplates", l.Items, func(r mcp.ResourceTemplate) json.RawMessage { return r.Raw }), text: textTemplates}, nil
	case cli.ModePrompts:
		l, err := c.ListPrompts(ctx, opts...)
		if err != nil {
			return nil, err
		}
		return &result{raw: listJSON("prompts", l.Items, func(p mcp.Prompt) json.RawMessage { return p.Raw }), text: textPrompts}, nil
	case cli.ModeCall:
		var args any
		if st.Input != nil {
			args = st.Input
		}
		r, err := c.CallTool(ctx, st.Target, args, opts...)
		if err != nil {
			return nil, err
		}
		return &result{raw: r.Raw, isError: r.IsError, text: textCall}, nil
	case cli.ModeRead:
		r, err := c.ReadResource(ctx, st.Target, opts...)
		if err != nil {
			return nil, err
		}
		return &result{raw: r.Raw, text: textRead}, nil
	case cli.ModeGet:
		args, err := stringMap(st.Input)
		if err != nil {
			return nil, err
		}
		r, err := c.GetPrompt(ctx, st.Target, args, opts...)
		if err != nil {
			return nil, err
		}
		return &result{raw: r.Raw, text: textGet}, nil
	case cli.ModeComplete:
		args, err := stringMap(st.Input)
		if err != nil {
			return nil, err
		}
		ref := mcp.PromptRef(st.Complete.Ref)
		if st.Complete.RefType == "ref/resource" {
			ref = mcp.ResourceRef(st.Complete.Ref)
		}
		r, err := c.Complete(ctx, ref, st.Complete.Argument, st.Complete.Value, args, opts...)
		if err != nil {
			return nil, err
		}
		return &result{raw: r.Raw, text: textComplete}, nil
	case cli.ModeRequest:
		var params any
		if st.Input != nil {
			params = st.Input
		}
		raw, err := c.Request(ctx, st.Target, params, opts...)
		if err != nil {
			return nil, err
		}
		return &result{raw: raw}, nil
	}
	return nil, fmt.Errorf("headless: %s sends nothing", st.Mode)
}

// listJSON is {"name": [items...]}, each item as received.
func listJSON[T any](name string, items []T, raw func(T) json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{%q:[`, name)
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(raw(it))
	}
	b.WriteString("]}")
	return b.Bytes()
}

// stringMap decodes a JSON object of strings (nil for none).
func stringMap(in json.RawMessage) (map[string]string, error) {
	if in == nil {
		return nil, nil
	}
	var m map[string]string
	if err := json.Unmarshal(in, &m); err != nil {
		return nil, &mcp.Error{Code: mcp.CodeInvalidParams, Message: "arguments must be strings: " + err.Error()}
	}
	return m, nil
}

// printResult prints a result as JSON or text.
func printResult(w io.Writer, format string, res *result) error {
	if format == "text" && res.text != nil {
		return res.text(w, res.raw)
	}
	return inert.WriteJSON(w, res.raw, true)
}

// jsonString decodes raw as a JSON string into s.
func jsonString(raw json.RawMessage, s *string) bool {
	return len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, s) == nil
}
