package headless

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/mcp"
)

// StepReport is how one step of a script went.
type StepReport struct {
	Line int    `json:"line"`
	Step string `json:"step"`
	OK   bool   `json:"ok"`
	// Failures say what went wrong: the request's error, each failed
	// expectation.
	Failures []string      `json:"failures,omitempty"`
	Duration time.Duration `json:"-"`
	Ms       float64       `json:"ms"`
}

// ScriptReport is how a script went.
type ScriptReport struct {
	Script   string        `json:"script"`
	Server   string        `json:"server"`
	Protocol string        `json:"protocol,omitempty"`
	Steps    []StepReport  `json:"steps"`
	Passed   int           `json:"passed"`
	Failed   int           `json:"failed"`
	Started  time.Time     `json:"started"`
	Duration time.Duration `json:"-"`
	Ms       float64       `json:"ms"`
	// Connect is the failure to connect, if the script never ran.
	Connect *Failure `json:"connect,omitempty"`
}

// RunScript runs the script cfg.Target against the server: every step in
// order on one connection, then the report on stdout (text or JSON) and,
// with --junit, a JUnit XML file. It returns the exit code: 0 when every
// step passed, ExitCheck when one failed.
func RunScript(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	src, err := os.ReadFile(cfg.Target)
	if err != nil {
		f := fail(KindUsage, "reading the script: %v", err)
		report(stderr, f)
		return f.Exit
	}
	sc, err := ParseScript(filepath.Base(cfg.Target), src)
	if err != nil {
		f := fail(KindUsage, "%v", err)
		report(stderr, f)
		return f.Exit
	}
	rec, err := OpenRecorder(cfg)
	if err != nil {
		f := fail(KindInternal, "%v", err)
		report(stderr, f)
		return f.Exit
	}
	rep := &ScriptReport{Script: sc.Name, Server: strings.Join(append([]string{cfg.Command}, cfg.Args...), " "), Started: time.Now()}
	s, f := connect(ctx, cfg, ConnectOptions{Recorder: rec, Stderr: stderr})
	defer s.closeOnPanic()
	if f == nil {
		rep.Protocol = s.client.Version()
		s.runSteps(ctx, sc, rep)
	} else {
		rep.Connect = f
	}
	rep.Duration = time.Since(rep.Started)
	rep.Ms = ms(rep.Duration)
	if err := s.close(); err != nil && f == nil {
		f = fail(KindInternal, "%v", err)
	}
	if err := writeReport(stdout, cfg.Format, rep); err != nil && f == nil {
		f = fail(KindInternal, "writing the report: %v", err)
	}
	if cfg.JUnit != "" {
		if err := writeJUnitFile(cfg.JUnit, rep); err != nil && f == nil {
			f = fail(KindInternal, "%v", err)
		}
	}
	if f == nil && rep.Failed > 0 {
		f = fail(KindCheck, "%d of %d steps failed", rep.Failed, len(rep.Steps))
	}
	f = s.unfitAnswer(f)
	if f != nil {
		report(stderr, f)
		return f.Exit
	}
	return ExitOK
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// runSteps runs every step and fills the report.
func (s *session) runSteps(ctx context.Context, sc *Script, rep *ScriptReport) {
	var subs []*mcp.Subscription
	defer func() {
		for _, sub := range subs {
			_ = sub.Close()
		}
	}()
	for _, st := range sc.Steps {
		if ctx.Err() != nil {
			break
		}
		if s.rec != nil {
			s.rec.Note(fmt.Sprintf("%s:%d: %s", sc.Name, st.Line, st.Text))
		}
		start := time.Now()
		o := s.runStep(ctx, st, &subs)
		s.prog.done()
		sr := StepReport{Line: st.Line, Step: st.Text, Duration: time.Since(start)}
		sr.Ms = ms(sr.Duration)
		sr.Failures = judge(st, o)
		if len(sr.Failures) > 0 {
			sr.Failures = append(sr.Failures, s.eraHints(o)...)
		}
		sr.OK = len(sr.Failures) == 0
		if sr.OK {
			rep.Passed++
		} else {
			rep.Failed++
		}
		rep.Steps = append(rep.Steps, sr)
	}
}

// runStep performs one step.
func (s *session) runStep(ctx context.Context, st *ScriptStep, subs *[]*mcp.Subscription) *outcome {
	var raw json.RawMessage
	var isError bool
	var err error
	switch st.Verb {
	case "listen":
		raw, err = s.listen(ctx, st, subs)
	case "next":
		raw, err = s.next(ctx, st, *subs)
	default:
		var res *result
		res, err = s.do(ctx, st.Send)
		if res != nil {
			raw, isError = res.raw, res.isError
		}
	}
	o := &outcome{raw: raw, err: err, isError: isError}
	if err != nil {
		var e *mcp.Error
		if errors.As(err, &e) {
			o.rpc = &RPCError{Code: e.Code, Message: e.Message, Data: e.Data}
			b, _ := json.Marshal(o.rpc)
			o.value, _ = decode(b)
		}
		return o
	}
	o.value, _ = decode(raw)
	return o
}

// judge lists why a step failed: an unexpected error or isError, and every
// expectation that does not hold.
func judge(st *ScriptStep, o *outcome) []string {
	var out []string
	wantsError, wantsIsError := false, false
	for _, e := range st.Expects {
		wantsError = wantsError || e.Kind == "error"
		wantsIsError = wantsIsError || e.Kind == "isError"
	}
	if o.err != nil && !wantsError {
		out = append(out, fmt.Sprintf("failed: %v", o.err))
		return out
	}
	if o.isError && !wantsIsError {
		out = append(out, "the tool returned isError: "+toolErrorText(o.raw))
	}
	for _, e := range st.Expects {
		if why := e.check(o); why != "" {
			out = append(out, fmt.Sprintf("line %d: %s: %s", e.Line, e.Text, why))
		}
	}
	return out
}

// listen opens a subscription with the step's filter.
func (s *session) listen(ctx context.Context, st *ScriptStep, subs *[]*mcp.Subscription) (json.RawMessage, error) {
	f, err := filterOf(st.Filter)
	if err != nil {
		return nil, err
	}
	sub, err := s.client.Listen(ctx, f)
	if err != nil {
		return nil, err
	}
	*subs = append(*subs, sub)
	out := map[string]json.RawMessage{"accepted": sub.Accepted()}
	if id := sub.ID(); id != nil {
		out["id"] = id
	}
	if out["accepted"] == nil {
		out["accepted"] = json.RawMessage("null")
	}
	return json.Marshal(out)
}

// filterOf decodes a listen filter; members mcp.Filter does not name are
// kept as Extra.
func filterOf(raw json.RawMessage) (mcp.Filter, error) {
	var f mcp.Filter
	if raw == nil {
		return mcp.Filter{ToolsListChanged: true, PromptsListChanged: true, ResourcesListChanged: true}, nil
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		return f, &mcp.Error{Code: mcp.CodeInvalidParams, Message: "a bad listen filter: " + err.Error()}
	}
	var all map[string]json.RawMessage
	_ = json.Unmarshal(raw, &all)
	for _, k := range []string{"toolsListChanged", "promptsListChanged", "resourcesListChanged", "resourceSubscriptions"} {
		delete(all, k)
	}
	if len(all) > 0 {
		f.Extra, _ = json.Marshal(all)
	}
	return f, nil
}

// next waits for the next event (of the step's method) of the newest
// subscription.
func (s *session) next(ctx context.Context, st *ScriptStep, subs []*mcp.Subscription) (json.RawMessage, error) {
	if len(subs) == 0 {
		return nil, &mcp.Error{Code: mcp.CodeInvalidParams, Message: "next: no subscription is open (use listen first)"}
	}
	within := st.Within
	if within == 0 {
		within = s.cfg.Timeout
	}
	wctx, cancel := ctx, context.CancelFunc(func() {})
	if within > 0 {
		wctx, cancel = context.WithTimeout(ctx, within)
	}
	defer cancel()
	sub := subs[len(subs)-1]
	for {
		n, err := sub.Next(wctx)
		if err != nil {
			if ctx.Err() == nil && wctx.Err() != nil {
				return nil, &mcp.Error{Code: mcp.CodeTimeout, Message: fmt.Sprintf("no %s event within %v", orAny(st.Method), within)}
			}
			return nil, err
		}
		if st.Method == "" || n.Method == st.Method {
			params := n.Params
			if params == nil {
				params = json.RawMessage("null")
			}
			return json.Marshal(map[string]json.RawMessage{"method": mustJSON(n.Method), "params": params})
		}
	}
}

func orAny(m string) string {
	if m == "" {
		return "subscription"
	}
	return m
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// writeReport prints the report: a line per step, or JSON.
func writeReport(w io.Writer, format string, rep *ScriptReport) error {
	if format == "json" {
		b, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		return inert.WriteJSON(w, b, true)
	}
	if rep.Connect != nil {
		_, err := fmt.Fprintf(w, "%s: could not connect: %s\n", inert.Line(rep.Script), inert.Line(rep.Connect.Message))
		return err
	}
	for _, st := range rep.Steps {
		mark := "ok  "
		if !st.OK {
			mark = "FAIL"
		}
		fmt.Fprintf(w, "%s %s:%d  %s  (%s)\n", mark, inert.Line(rep.Script), st.Line, inert.Line(st.Step), st.Duration.Round(time.Millisecond))
		for _, f := range st.Failures {
			fmt.Fprintf(w, "       %s\n", inert.Line(f))
		}
	}
	_, err := fmt.Fprintf(w, "%d passed, %d failed, %d steps in %s (%s)\n", rep.Passed, rep.Failed, len(rep.Steps),
		rep.Duration.Round(time.Millisecond), inert.Line(rep.Protocol))
	return err
}

// eraHints is why a failed step's error came, when it is a server's SDK
// refusing to ask its question the pre-2026 way (session.explainEra).
func (s *session) eraHints(o *outcome) []string {
	text := ""
	switch {
	case o.rpc != nil:
		text = o.rpc.Message
	case o.isError:
		text = toolErrorText(o.raw)
	}
	f := &Failure{}
	if _ = s.explainEra(f, text); f.Message == "" {
		return nil
	}
	return []string{strings.TrimPrefix(f.Message, "\n")}
}
