package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/mcptui/mcptui/httpconn/oauth"
	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/drift"
	"github.com/mcptui/mcptui/internal/headless"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/snapshot"
	"github.com/mcptui/mcptui/internal/verify"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/themes"
)

// liveOptions are the connection options of the server cfg names, for the
// commands that capture its surface (answers from --answer, the HTTP
// client for a URL, stderr escaped to ours with --verbose).
func liveOptions(cfg *cli.Config, stderr io.Writer) (mcp.Options, error) {
	notes := io.Discard
	if cfg.Verbose {
		notes = stderr
	}
	answers, err := headless.RulesTo(cfg, notes)
	if err != nil {
		return mcp.Options{}, err
	}
	o := headless.MCPOptions(cfg, answers)
	o.Conn.Stderr = io.Discard
	if cfg.Verbose {
		o.Conn.Stderr = &escapedLines{w: stderr}
	}
	if mcp.IsURL(cfg.Command) {
		if o.HTTP.Client, err = cfg.HTTPClient(nil); err != nil {
			return mcp.Options{}, err
		}
	}
	return o, nil
}

// snapshotEras are the revisions --era asks for: nil for the negotiated
// one, every revision mcp speaks (oldest first) for all, or the one named.
func snapshotEras(era string) []string {
	switch era {
	case "":
		return nil
	case "all":
		eras := slices.Clone(mcp.DefaultVersions)
		slices.Reverse(eras)
		return eras
	}
	return []string{era}
}

// captureLive snapshots the server cfg names.
func captureLive(ctx context.Context, cfg *cli.Config, stderr io.Writer) (*snapshot.Document, error) {
	o, err := liveOptions(cfg, stderr)
	if err != nil {
		return nil, err
	}
	rec, err := headless.AttachRecorder(cfg, cfg.Command, cfg.Args, &o)
	if err != nil {
		return nil, err
	}
	doc, err := snapshot.Capture(ctx, cfg.Command, cfg.Args, o, snapshotEras(cfg.Check.Era))
	if rec != nil {
		if cerr := rec.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("recording: %w", cerr)
		}
	}
	return doc, err
}

// runSnapshot prints the server's surface (mcptui snapshot).
func runSnapshot(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	doc, err := captureLive(ctx, cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui snapshot: %s\n", inert.Line(err.Error()))
		return headless.ExitStart
	}
	b, err := snapshot.Marshal(doc)
	if err == nil {
		_, err = stdout.Write(b)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcptui snapshot: %s\n", inert.Line(err.Error()))
		return headless.ExitInternal
	}
	return headless.ExitOK
}

// runDiff compares two surfaces (mcptui diff): exit 0 when no change
// reaches --fail-on, 1 when one does.
func runDiff(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	if cfg.Drift.Eras != nil {
		return runDiffEras(ctx, cfg, stdout, stderr)
	}
	var docs [2]*snapshot.Document
	for i, side := range cfg.Drift.Sides {
		var err error
		if side == "" {
			docs[i], err = captureLive(ctx, cfg, stderr)
		} else {
			docs[i], err = snapshot.Load(side)
		}
		if err != nil {
			fmt.Fprintf(stderr, "mcptui diff: %s\n", inert.Line(err.Error()))
			if side == "" {
				return headless.ExitStart
			}
			return headless.ExitUsage
		}
	}
	return writeDiff(drift.Compare(docs[0], docs[1]), cfg, stdout, stderr)
}

// runDiffEras compares the live server's surfaces on the two revisions of
// --eras, what the specification explains apart (mcptui diff --eras).
func runDiffEras(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	o, err := liveOptions(cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui diff: %s\n", inert.Line(err.Error()))
		return headless.ExitUsage
	}
	var sides [2]*snapshot.Surface
	for i, era := range cfg.Drift.Eras {
		doc, err := snapshot.Capture(ctx, cfg.Command, cfg.Args, o, []string{era})
		if err != nil {
			fmt.Fprintf(stderr, "mcptui diff --eras: %s\n", inert.Line(err.Error()))
			return headless.ExitStart
		}
		sides[i] = &doc.Eras[0]
	}
	return writeDiff(drift.CompareEras(sides[0], sides[1]), cfg, stdout, stderr)
}

// writeDiff prints rep as --format asks and returns diff's exit status.
func writeDiff(rep *drift.Report, cfg *cli.Config, stdout, stderr io.Writer) int {
	var err error
	switch cfg.Format {
	case "json":
		err = rep.WriteJSON(stdout)
	case "markdown":
		err = rep.WriteMarkdown(stdout)
	default:
		err = rep.WriteText(stdout, colourful(stdout))
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcptui diff: %s\n", inert.Line(err.Error()))
		return headless.ExitInternal
	}
	if rep.Fails(cfg.Drift.FailOn) {
		return ExitDrift
	}
	return headless.ExitOK
}

// ExitDrift is diff's and replay --verify's exit status when a change
// reaches --fail-on.
const ExitDrift = 1

// colourful reports whether w is a terminal that takes colour.
func colourful(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || themes.NoColor(os.Getenv) {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// baseline is the snapshot check --baseline names (nil when none).
func baseline(cfg *cli.Config) (*snapshot.Document, error) {
	if cfg.Drift.Baseline == "" {
		return nil, nil
	}
	doc, err := snapshot.Load(cfg.Drift.Baseline)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", err)
	}
	return doc, nil
}

// runVerify sends a recording's client side to the server and compares
// the answers (mcptui replay --verify): exit 0 when nothing reaches
// --fail-on, 1 when something does.
func runVerify(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	rec, err := record.OpenLimited(cfg.Target, cfg.MaxLineBytes)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui replay --verify: %s\n", inert.Line(err.Error()))
		return headless.ExitUsage
	}
	o := verify.Options{Command: cfg.Command, Args: cfg.Args, Dir: cfg.Dir, Timeout: cfg.Timeout, Ignore: cfg.Drift.Ignore, MaxLineBytes: cfg.MaxLineBytes}
	if mcp.IsURL(cfg.Command) {
		o.HTTP = cfg.MCPOptions().HTTP
		if o.HTTP.Client, err = cfg.HTTPClient(func(st oauth.Step) {
			for _, l := range st.Lines() {
				fmt.Fprintf(stderr, "mcptui replay --verify: oauth: %s\n", inert.Line(l))
			}
		}); err != nil {
			fmt.Fprintf(stderr, "mcptui replay --verify: %s\n", inert.Line(err.Error()))
			return headless.ExitUsage
		}
		if err := oauth.Preflight(ctx, o.HTTP.Client); err != nil {
			fmt.Fprintf(stderr, "mcptui replay --verify: %s\n", inert.Line(err.Error()))
			if ctx.Err() != nil {
				return headless.ExitInterrupted
			}
			return headless.ExitConnection
		}
	}
	if o.Timeout == 0 {
		o.Timeout = 24 * time.Hour // --timeout 0: none
	}
	for _, e := range cfg.Env {
		if e.Value == nil {
			o.Unset = append(o.Unset, e.Name)
		} else {
			o.Env = append(o.Env, e.Name+"="+*e.Value)
		}
	}
	if cfg.Verbose {
		o.Stderr = &escapedLines{w: stderr}
	}
	rep, err := verify.Run(ctx, rec, o)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui replay --verify: %s\n", inert.Line(err.Error()))
		return headless.ExitStart
	}
	rep.Recording = cfg.Target
	switch cfg.Format {
	case "json":
		err = rep.WriteJSON(stdout)
	case "markdown":
		err = rep.WriteMarkdown(stdout)
	default:
		err = rep.WriteText(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcptui replay --verify: %s\n", inert.Line(err.Error()))
		return headless.ExitInternal
	}
	if rep.Fails(cfg.Drift.FailOn) {
		return ExitDrift
	}
	return headless.ExitOK
}
