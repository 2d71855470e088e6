package app

import (
	"context"
	"fmt"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/themes"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/mcptui/mcptui/internal/attach"
	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/headless"
	"github.com/mcptui/mcptui/internal/hostconfig"
	"github.com/mcptui/mcptui/internal/tap"
	"github.com/mcptui/mcptui/ui"
)

// runTap is mcptui tap: relay, or print the host config entries.
func runTap(cfg *cli.Config, stdout, stderr io.Writer) int {
	if cfg.Tap.PrintConfig {
		self, err := os.Executable()
		if err == nil {
			self, err = filepath.EvalSymlinks(self)
		}
		if err != nil {
			self = "mcptui"
		}
		if err := tap.PrintConfig(stdout, hostconfig.DefaultPlace(), cfg.Tap.Name, self, cfg.Command, cfg.Args); err != nil {
			fmt.Fprintf(stderr, "mcptui tap: %v\n", err)
			return 1
		}
		return 0
	}
	o := tap.Options{Command: cfg.Command, Args: cfg.Args, Name: cfg.Tap.Name, Record: cfg.Record,
		RecordSecrets: cfg.RecordSecrets, MaxLineBytes: cfg.MaxLineBytes, Mcptui: version()}
	tel, err := headless.StartTelemetry(context.Background(), cfg, cfg.Command, cfg.Args)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui tap: %v\n", err)
		return 1
	}
	if tel != nil {
		o.Observer, o.WrapStderr = tel.Observe, tel.Stderr
		defer closeTelemetry(tel, stderr)
	}
	return tap.Main(o)
}

// runAttach is mcptui attach: the list of taps, or the inspector on one.
func runAttach(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	if cfg.Tap.Name == "" {
		if err := attach.List(stdout, tap.RuntimeDirs(os.Getenv), time.Now()); err != nil {
			fmt.Fprintf(stderr, "mcptui attach: %v\n", err)
			return 1
		}
		return 0
	}
	keys, err := keymap.User()
	if err != nil {
		fmt.Fprintf(stderr, "mcptui attach: %v\n", err)
		return 2
	}
	err = attach.Run(ctx, "", cfg.Tap.Name, attach.Options{Theme: cfg.Theme, NoColor: themes.NoColor(os.Getenv), Linter: liveLint,
		HistoryBytes: cfg.HistoryBytes, HoldTimeout: cfg.Tap.HoldTimeout, Break: cfg.Tap.Break, Keys: &keys,
		FoldBudget: ui.DefaultFoldBudget})
	if err != nil {
		fmt.Fprintf(stderr, "mcptui attach: %v\n", err)
		return 1
	}
	return 0
}
