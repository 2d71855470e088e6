package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcptui/mcptui/apps"
	"github.com/mcptui/mcptui/httpconn/oauth"
	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/headless"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/internal/record"
	"github.com/mcptui/mcptui/internal/session"
	"github.com/mcptui/mcptui/internal/session/inbox"
	"github.com/mcptui/mcptui/internal/snapshot"
	"github.com/mcptui/mcptui/internal/telemetry"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/model"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui"
	"github.com/mcptui/mcptui/ui/catalog/marks"
	"github.com/mcptui/mcptui/ui/kit"
)

// runInspector opens the inspector on the configured server (or the demo
// server) and returns the exit status once the person quits.
func runInspector(ctx context.Context, cfg *cli.Config, stderr io.Writer) (code int) {
	command, args := cfg.Command, cfg.Args
	if cfg.Mode == cli.ModeDemo {
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintf(stderr, "mcptui: cannot find my own executable to run the demo server: %v\n", err)
			return 1
		}
		command, args = exe, []string{"demo-server"}
	}
	// The user's key file, read before any process starts: a bad one is
	// an error that names it, and nothing runs.
	keys, err := keymap.User()
	if err != nil {
		fmt.Fprintf(stderr, "mcptui: %v\n", err)
		return 2
	}
	// The baseline too: one that does not load is an error that names it.
	catalogMarks, err := catalogMarks(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui: %v\n", err)
		return 2
	}
	paceCollector(cfg.HistoryBytes)
	in := inbox.New(inbox.LimitsFor(cfg.HistoryBytes))
	opts := inspectorOptions(cfg)
	// A server that wants OAuth is authorized before the screen opens: the
	// steps and the URL to open are printed here, where they can be
	// copied, and the wait for the browser is not a request's timeout.
	// Later steps (a refresh, more scopes) join the HTTP exchanges in
	// pane 5.
	httpClient, err := cfg.HTTPClient(func(st oauth.Step) {
		for _, l := range st.Lines() {
			fmt.Fprintf(stderr, "mcptui: oauth: %s\n", inert.Line(l))
		}
	})
	if err != nil {
		fmt.Fprintf(stderr, "mcptui: %v\n", err)
		return 2
	}
	if httpClient != nil {
		if err := oauth.Preflight(ctx, httpClient); err != nil {
			fmt.Fprintf(stderr, "mcptui: %s\n", inert.Line(err.Error()))
			return 1
		}
		httpClient.Transport.(*oauth.Transport).SetOnStep(nil)
	}
	opts.HTTP.Client = httpClient
	rec, err := headless.AttachRecorder(cfg, command, args, &opts)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui: %v\n", err)
		return 1
	}
	if rec != nil {
		// conn reports each exit to its Observer before Shutdown returns,
		// so the recording is complete once the session has shut down.
		defer func() {
			if err := rec.Close(); err != nil {
				// The session is gone unrecorded: that is a failure.
				fmt.Fprintf(stderr, "mcptui: the recording %s: %v\n", cfg.Record, err)
				code = max(code, 1)
			}
		}()
	}
	tel, err := headless.StartTelemetry(ctx, cfg, command, args)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui: %v\n", err)
		return 1
	}
	if tel != nil {
		tel.Attach(&opts)
		defer closeTelemetry(tel, stderr)
	}
	var onFailure func(error, bool)
	if rec != nil {
		// A start that fails is in the recording, as in a headless one's.
		onFailure = rec.Failed
	}
	// The session outlives ctx: a signal ends the program, and the server
	// is then shut down like at a quit, not cut off.
	sess, err := session.Start(context.WithoutCancel(ctx), session.Config{
		OnFailure:       onFailure,
		Command:         command,
		Args:            args,
		MCP:             opts,
		ResetOnProgress: cfg.ResetOnProgress,
		MaxTotalTimeout: cfg.MaxTotalTimeout,
		Inbox:           in,
		ShutdownGrace:   cfg.ShutdownGrace,
		// The server's log shows from the start, every level of it.
		LogLevel: "debug",
		Policies: cfg.Policies(),
		Roots:    roots(cfg.Roots),
		// The live lint, with the output schemas' validator, judges each
		// batch before the UI takes it.
		Linter: liveLint,
	})
	if err != nil {
		fmt.Fprintf(stderr, "mcptui: %v\n", err)
		return 1
	}
	defer func() {
		// A panic here (the UI's own are caught by Bubble Tea) still
		// stops the server before it goes on.
		if r := recover(); r != nil {
			_ = sess.Shutdown(context.Background())
			panic(r)
		}
	}()
	state := model.New(model.Config{
		HistoryBytes: cfg.HistoryBytes,
		MaxLineBytes: cfg.MaxLineBytes,
		Roots:        roots(cfg.Roots),
		// --timeout 0 is none: the model's (and the labels') -1.
		Timeout:         opts.RequestTimeout,
		ResetOnProgress: cfg.ResetOnProgress,
		MaxTotal:        cfg.MaxTotalTimeout,
		ProbeTimeout:    probeTimeout(cfg, command),
		Linter:          liveLint,
	})
	title := windowTitle(cfg.Mode, command, args)
	program := tea.NewProgram(ui.New(ui.Options{
		Keys:    &keys,
		Backend: sess,
		Session: state,
		Theme:   cfg.Theme,
		NoColor: themes.NoColor(os.Getenv),
		NoBell:  !cfg.Bell,
		Title:   title,
		// The catalog goes through the session like everything else: its
		// calls are ordinary requests in pane 1, and the server's
		// notifications reach it through the model.
		Catalog:  sess.Catalog(serverKey(cfg, command, args)),
		ArgStore: openArgStore(),
		// What the catalog marks: --baseline, --host, --model.
		CatalogMarks: catalogMarks,
		FrameGap:     ui.DefaultFrameGap,
		// A key is handled before the tail of a flood's batch.
		FoldBudget: ui.DefaultFoldBudget,
	}), tea.WithContext(ctx), tea.WithFPS(ui.RendererFPS), kit.DetectedColors())
	if rec != nil {
		stopWatch := make(chan struct{})
		defer close(stopWatch)
		go func() {
			select {
			case <-rec.WriteFailed():
				program.Send(ui.AlertMsg{Text: fmt.Sprintf("the recording %s cannot be written (%v): this session is not being recorded", cfg.Record, rec.Err())})
			case <-stopWatch:
			}
		}()
	}
	_, runErr := program.Run()
	shutdownErr := sess.Shutdown(context.Background())
	in.Close()
	if runErr != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "mcptui: %v\n", runErr)
		return 1
	}
	if shutdownErr != nil {
		fmt.Fprintf(stderr, "mcptui: the server did not stop cleanly: %v\n", shutdownErr)
	}
	return 0
}

// probeTimeout is the probe's patience the model shows: the flag's, or
// mcp's default for the command.
func probeTimeout(cfg *cli.Config, command string) time.Duration {
	if cfg.ProbeTimeout > 0 {
		return cfg.ProbeTimeout
	}
	return mcp.ProbeTimeoutFor(command)
}

func roots(uris []string) []model.Root {
	out := make([]model.Root, len(uris))
	for i, u := range uris {
		out[i] = model.Root{URI: u}
	}
	return out
}

// windowTitle is the terminal window's title: the server's command line,
// its secrets redacted (a title shows in task bars, tab lists and
// screen shares).
func windowTitle(mode cli.Mode, command string, args []string) string {
	if mode == cli.ModeDemo {
		return "mcptui — demo server"
	}
	return "mcptui — " + strings.Join(record.RedactArgs(append([]string{command}, args...), false), " ")
}

// closeTelemetry sends the last spans, within a bound; a collector that
// cannot be reached is said, not waited for.
func closeTelemetry(tel *telemetry.Live, stderr io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := tel.Close(ctx); err != nil {
		fmt.Fprintf(stderr, "mcptui: %s\n", inert.Line(err.Error()))
	}
}

// inspectorOptions are the inspector's protocol options: the command
// line's, and the MCP Apps extension (io.modelcontextprotocol/ui) declared
// under capabilities.extensions with the one MIME type it renders. The
// extension has clients that support Apps say so in initialize (and a
// server may list its UI tools only to them); the inspector renders an
// App through its bridge in the user's browser, so it says so.
func inspectorOptions(cfg *cli.Config) mcp.Options {
	opts := cfg.MCPOptions()
	opts.Capabilities = apps.ClientCapabilities
	return opts
}

// catalogMarks is what the catalog marks, from --baseline, --host and
// --model (nil: none given).
func catalogMarks(cfg *cli.Config) (*marks.Config, error) {
	p := cfg.Profiles
	if cfg.Drift.Baseline == "" && len(p.Hosts)+len(p.Models) == 0 {
		return nil, nil
	}
	mc := &marks.Config{Hosts: p.Hosts, Models: p.Models, ServerName: p.ServerName, Context: p.Context}
	if cfg.Drift.Baseline != "" {
		doc, err := snapshot.Load(cfg.Drift.Baseline)
		if err != nil {
			return nil, fmt.Errorf("--baseline: %w", err)
		}
		mc.Baseline, mc.BaselineName = doc, filepath.Base(cfg.Drift.Baseline)
	}
	return mc, nil
}

// paceCollector gives the collector the inspector's memory limit and pace
// (unless GOMEMLIMIT or GOGC say otherwise): the live inspector's, and a
// replay's, which holds what the live one would (the history, not the
// recording).
func paceCollector(historyBytes int) {
	if os.Getenv("GOMEMLIMIT") == "" {
		// Collect harder near the budget rather than let a flood's garbage
		// double the heap.
		debug.SetMemoryLimit(model.MemoryBudget(historyBytes))
	}
	if os.Getenv("GOGC") == "" {
		// Collect before the heap doubles: the history is most of it.
		debug.SetGCPercent(model.GCPercent)
	}
}
