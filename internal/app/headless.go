package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/mcptui/mcptui/httpconn/oauth"
	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/doctor"
	"github.com/mcptui/mcptui/internal/headless"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/load"
	"github.com/mcptui/mcptui/internal/replay"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui"
	"github.com/mcptui/mcptui/ui/timeline"
)

// headlessMode reports whether cfg asks for a subcommand rather than the
// inspector: the headless commands, doctor and replay.
func headlessMode(cfg *cli.Config) bool { return cfg.Mode.Headless() }

// runHeadless runs a subcommand and returns its exit status.
func runHeadless(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	switch cfg.Mode {
	case cli.ModeDoctor:
		return runDoctor(ctx, cfg, stdout, stderr)
	case cli.ModeCheck:
		return runCheck(ctx, cfg, stdout, stderr)
	case cli.ModeLoad:
		return load.Run(ctx, cfg, stdout, stderr)
	case cli.ModeSnapshot:
		return runSnapshot(ctx, cfg, stdout, stderr)
	case cli.ModeDiff:
		return runDiff(ctx, cfg, stdout, stderr)
	case cli.ModeReplayVerify:
		return runVerify(ctx, cfg, stdout, stderr)
	case cli.ModeExport:
		return runExport(ctx, cfg, stdout, stderr)
	case cli.ModeSkills, cli.ModeSkill:
		return headless.RunSkills(ctx, cfg, stdout, stderr)
	case cli.ModeApp:
		return headless.RunApp(ctx, cfg, stdout, stderr)
	case cli.ModeReplay:
		keys, err := keymap.User()
		if err != nil {
			fmt.Fprintf(stderr, "mcptui replay: %v\n", err)
			return headless.ExitUsage
		}
		paceCollector(cfg.HistoryBytes)
		if os.Getenv("GOMEMLIMIT") == "" {
			// The checkpoints a step back resumes from come on top of
			// what the live inspector would hold.
			debug.SetMemoryLimit(model.MemoryBudget(cfg.HistoryBytes) + int64(timeline.CheckpointBudget(cfg.HistoryBytes)))
		}
		if err := timeline.Inspect(ctx, cfg.Target, timeline.Options{Theme: cfg.Theme, NoColor: themes.NoColor(os.Getenv), Linter: liveLint, HistoryBytes: cfg.HistoryBytes, MaxLineBytes: cfg.MaxLineBytes, Keys: &keys,
			FoldBudget: ui.DefaultFoldBudget}); err != nil {
			fmt.Fprintf(stderr, "mcptui replay: %s\n", inert.Line(err.Error()))
			return headless.ExitInternal
		}
		return headless.ExitOK
	case cli.ModeReplayServe:
		if err := replay.ServeFile(ctx, cfg.Target, cfg.MaxLineBytes, os.Stdin, stdout, stderr); err != nil {
			fmt.Fprintf(stderr, "mcptui replay --serve: %s\n", inert.Line(err.Error()))
			return headless.ExitInternal
		}
		return headless.ExitOK
	}
	return headless.Run(ctx, cfg, stdout, stderr)
}

// runDoctor examines the server and prints the report.
func runDoctor(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	rec, err := headless.OpenRecorder(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui doctor: %s\n", inert.Line(err.Error()))
		return headless.ExitInternal
	}
	rules, err := headless.DoctorRules(cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui doctor: %s\n", inert.Line(err.Error()))
		return headless.ExitUsage
	}
	httpClient, err := cfg.HTTPClient(func(st oauth.Step) {
		for _, l := range st.Lines() {
			fmt.Fprintf(stderr, "mcptui doctor: oauth: %s\n", inert.Line(l))
		}
	})
	if err != nil {
		fmt.Fprintf(stderr, "mcptui doctor: %s\n", inert.Line(err.Error()))
		return headless.ExitUsage
	}
	rep := doctor.Run(ctx, doctor.Options{
		Command: cfg.Command, Args: cfg.Args, Env: cfg.ConnEnv(), Dir: cfg.Dir, Header: cfg.HTTPHeader(), HTTPClient: httpClient,
		Transport: cfg.Transport, Insecure: cfg.Insecure,
		Versions: cfg.Protocols, Timeout: cfg.Timeout, MaxLineBytes: cfg.MaxLineBytes, Recorder: rec,
		ProbeTimeout: cfg.ProbeTimeout, Declare: rules.Declare, As: cfg.Profiles.As, AsOS: cfg.Profiles.AsOS,
	})
	if rec != nil {
		if err := rec.Close(); err != nil {
			fmt.Fprintf(stderr, "mcptui doctor: %s\n", inert.Line(err.Error()))
		}
	}
	if cfg.Format == "json" {
		err = rep.WriteJSON(stdout)
	} else {
		err = rep.WriteText(stdout)
	}
	if err != nil {
		return headless.ExitInternal
	}
	return rep.ExitCode()
}
