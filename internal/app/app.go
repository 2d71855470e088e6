// Package app is the mcptui program behind main: it parses the command line
// and runs the inspector, a headless command, doctor, replay or the demo
// server.
package app

import (
	"context"
	"errors"
	"fmt"
	"github.com/mcptui/mcptui/internal/extdemo"
	"io"
	"os"
	"runtime/debug"

	"github.com/mcptui/mcptui/demo"
	"github.com/mcptui/mcptui/internal/cli"
)

// Run is mcptui with its arguments and output streams; it returns the exit
// status.
func Run(args []string, stdout, stderr io.Writer) int {
	if status, ok := runMeta(args, stdout, stderr); ok {
		return status
	}
	cfg, err := cli.Parse(args)
	if errors.Is(err, cli.ErrUsage) {
		// The error and where the rest is, not the whole usage: the error
		// would scroll away above it.
		fmt.Fprintf(stderr, "mcptui: %v\n%s\n", err, cli.HelpHint)
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcptui: %v\n", err)
		return 2
	}
	printWarnings(cfg, stderr)
	if cfg.Mode == cli.ModeTap {
		// The tap forwards signals to its server rather than stopping.
		return runTap(cfg, stdout, stderr)
	}
	ctx, stop := withSignals(context.Background())
	defer stop()
	status := run(ctx, cfg, stdout, stderr)
	if st, ok := signalStatus(ctx); ok {
		return st
	}
	return status
}

// run runs the mode cfg asks for and returns its exit status.
func run(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	switch {
	case cfg.Mode == cli.ModeHelp:
		fmt.Fprint(stdout, cli.Usage)
		return 0
	case cfg.Mode == cli.ModeVersion:
		info, ok := debug.ReadBuildInfo()
		fmt.Fprint(stdout, versionText(info, ok))
		return 0
	case cfg.Mode == cli.ModeDemoServer && cfg.Extensions:
		v, err := extdemo.ParseVariant(cfg.ExtensionsVariant)
		if err == nil {
			err = extdemo.Serve(ctx, v, os.Stdin, os.Stdout)
		}
		if err != nil {
			fmt.Fprintf(stderr, "mcptui demo-server: %v\n", err)
			return 1
		}
		return 0
	case cfg.Mode == cli.ModeDemoServer:
		if err := demo.Serve(ctx, os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintf(stderr, "mcptui demo-server: %v\n", err)
			var exit *demo.ExitError
			if errors.As(err, &exit) {
				return exit.Status
			}
			return 1
		}
		return 0
	case cfg.Mode == cli.ModeServers:
		return runServers(cfg, stdout, stderr)
	case cfg.Mode == cli.ModePick:
		return runPick(ctx, cfg, stdout, stderr)
	case cfg.Mode == cli.ModeAttach:
		return runAttach(ctx, cfg, stdout, stderr)
	case cfg.Mode == cli.ModeLogout:
		return runLogout(cfg, stdout, stderr)
	case headlessMode(cfg):
		return runHeadless(ctx, cfg, stdout, stderr)
	default:
		return runInspector(ctx, cfg, stderr)
	}
}

// version is the module version of the build, or "dev".
func version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}
