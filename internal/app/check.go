package app

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/mcptui/mcptui/httpconn/oauth"
	"github.com/mcptui/mcptui/internal/check"
	"github.com/mcptui/mcptui/internal/check/rules"
	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/headless"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/mcp"
)

// runCheck runs mcptui check and prints its report.
func runCheck(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	notes := io.Discard
	if cfg.Verbose {
		notes = stderr
	}
	answers, err := headless.RulesTo(cfg, notes)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui check: %s\n", inert.Line(err.Error()))
		return headless.ExitUsage
	}
	if cfg.Check.Recording != "" {
		return checkRecording(cfg, stdout, stderr)
	}
	o := headless.MCPOptions(cfg, answers)
	co := check.Options{
		Command: cfg.Command, Args: cfg.Args, Conn: o.Conn, Era: cfg.Check.Era, Versions: cfg.Protocols,
		CallTools: cfg.Check.CallTools, Timeout: cfg.Timeout, Rules: cfg.Check.Rules,
		Sampling: o.Sampling, ElicitForm: o.ElicitForm, ElicitURL: o.ElicitURL, Roots: o.Roots,
		Hosts: cfg.Profiles.Hosts, Models: cfg.Profiles.Models, ServerName: cfg.Profiles.ServerName, ContextTokens: cfg.Profiles.Context,
		ContextBudget: cfg.Profiles.Budget,
	}
	if mcp.IsURL(cfg.Command) {
		co.HTTP = o.HTTP
		// The OAuth steps, the URL to open among them, are said on
		// stderr as the other commands say them; the person's login is
		// done before the checks start, bounded by --login-timeout, not
		// inside a checked request's --timeout.
		if co.HTTP.Client, err = cfg.HTTPClient(func(st oauth.Step) {
			for _, l := range st.Lines() {
				fmt.Fprintf(stderr, "mcptui check: oauth: %s\n", inert.Line(l))
			}
		}); err != nil {
			fmt.Fprintf(stderr, "mcptui check: %s\n", inert.Line(err.Error()))
			return headless.ExitUsage
		}
		if err := oauth.Preflight(ctx, co.HTTP.Client); err != nil {
			fmt.Fprintf(stderr, "mcptui check: %s\n", inert.Line(err.Error()))
			if ctx.Err() != nil {
				return headless.ExitInterrupted
			}
			return headless.ExitConnection
		}
	}
	if cfg.Verbose {
		co.Stderr = &escapedLines{w: stderr}
	}
	// --record: every connection the check opens, one after the other
	// (and at times side by side), in one recording.
	rec, err := headless.OpenRecorder(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui check: %s\n", inert.Line(err.Error()))
		return headless.ExitUsage
	}
	base, err := baseline(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui check: %s\n", inert.Line(err.Error()))
		return headless.ExitUsage
	}
	if rec != nil {
		rec.Note("mcptui check: every connection the check opens is recorded here, the probes' extra processes too")
		co.Observer = rec.Observer(nil)
		co.Stderr = rec.Stderr(co.Stderr)
	}
	tel, err := headless.StartTelemetry(ctx, cfg, cfg.Command, cfg.Args)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui check: %s\n", inert.Line(err.Error()))
		return headless.ExitUsage
	}
	if tel != nil {
		co.Trace = func() check.Tracing {
			c := tel.Connection()
			return check.Tracing{Observe: c.Observe, Stderr: c.Stderr, RequestMeta: c.RequestMeta, OnExchange: c.Exchange}
		}
	}
	rep := check.Run(ctx, co)
	if tel != nil {
		closeTelemetry(tel, stderr)
	}
	if base != nil {
		check.AddDrift(ctx, rep, co, base)
	}
	if rec != nil {
		if err := rec.Close(); err != nil {
			fmt.Fprintf(stderr, "mcptui check: the recording %s: %s\n", inert.Line(cfg.Record), inert.Line(err.Error()))
		}
	}
	level := rules.Must
	if cfg.Check.Level == "should" {
		level = rules.Should
	}
	if err := writeCheck(rep, cfg.Format, level, cfg.Verbose, stdout); err != nil {
		fmt.Fprintf(stderr, "mcptui check: %s\n", inert.Line(err.Error()))
		return headless.ExitInternal
	}
	for _, side := range []struct{ path, format string }{{cfg.JUnit, "junit"}, {cfg.Check.SARIF, "sarif"}} {
		if side.path == "" {
			continue
		}
		if err := writeCheckFile(rep, side.path, side.format, level); err != nil {
			fmt.Fprintf(stderr, "mcptui check: %s\n", inert.Line(err.Error()))
			return headless.ExitInternal
		}
	}
	return check.ExitCode(rep, level)
}

func writeCheck(rep *check.Report, format string, level rules.Level, verbose bool, w io.Writer) error {
	switch format {
	case "json":
		return rep.WriteJSON(w)
	case "junit":
		return rep.WriteJUnit(w, level)
	case "sarif":
		return rep.WriteSARIF(w)
	}
	return rep.WriteText(w, level, verbose)
}

func writeCheckFile(rep *check.Report, path, format string, level rules.Level) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("%s report: %w", format, err)
	}
	if err := writeCheck(rep, format, level, false, f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// escapedLines copies the server's stderr to w, escaped (--verbose).
type escapedLines struct{ w io.Writer }

func (e *escapedLines) Write(p []byte) (int, error) {
	fmt.Fprintf(e.w, "server stderr: %s\n", inert.Line(string(p)))
	return len(p), nil
}

// checkRecording is check --recording: the host rules judged on what a
// recording holds, nothing started or called.
func checkRecording(cfg *cli.Config, stdout, stderr io.Writer) int {
	rec, err := record.OpenLimited(cfg.Check.Recording, cfg.MaxLineBytes)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui check: %s\n", inert.Line(err.Error()))
		return headless.ExitUsage
	}
	rep := check.FromRecording(rec, cfg.Check.Recording, check.Options{
		Hosts: cfg.Profiles.Hosts, Models: cfg.Profiles.Models, ServerName: cfg.Profiles.ServerName,
		ContextTokens: cfg.Profiles.Context, ContextBudget: cfg.Profiles.Budget,
	})
	level := rules.Must
	if err := writeCheck(rep, cfg.Format, level, cfg.Verbose, stdout); err != nil {
		fmt.Fprintf(stderr, "mcptui check: %s\n", inert.Line(err.Error()))
		return headless.ExitInternal
	}
	for _, side := range []struct{ path, format string }{{cfg.JUnit, "junit"}, {cfg.Check.SARIF, "sarif"}} {
		if side.path == "" {
			continue
		}
		if err := writeCheckFile(rep, side.path, side.format, level); err != nil {
			fmt.Fprintf(stderr, "mcptui check: %s\n", inert.Line(err.Error()))
			return headless.ExitInternal
		}
	}
	return check.ExitCode(rep, level)
}
