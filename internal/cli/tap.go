package cli

import (
	"flag"
	"io"
	"strings"
	"time"
)

// TapConfig is what mcptui tap and mcptui attach were asked.
type TapConfig struct {
	// Name is the tap's name (tap --name, or attach's word; "" = the
	// default name for tap, the list for attach).
	Name string
	// PrintConfig is set by tap --print-config NAME: print the host config
	// entries for a server called Name instead of running it.
	PrintConfig bool
	// HoldTimeout is how long attach's breakpoints hold a line (0 = the
	// tap's default).
	HoldTimeout time.Duration
	// Break is a breakpoint filter attach arms at once ("" = none).
	Break string
}

// parseTap parses mcptui tap and mcptui attach.
func parseTap(cfg *Config, word string, args []string) (*Config, error) {
	fs := flag.NewFlagSet("mcptui "+word, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var help, noBell bool
	fs.BoolVar(&help, "help", false, "")
	fs.BoolVar(&help, "h", false, "")
	var printConfig string
	switch word {
	case "tap":
		cfg.Mode = ModeTap
		fs.StringVar(&cfg.Tap.Name, "name", "", "")
		fs.StringVar(&cfg.Record, "record", "", "")
		fs.BoolVar(&cfg.RecordSecrets, "record-secrets", false, "")
		fs.Var(sizeFlag{&cfg.MaxLineBytes}, "max-line-bytes", "")
		fs.StringVar(&printConfig, "print-config", "", "")
		fs.StringVar(&cfg.OTLPEndpoint, "otlp-endpoint", "", "")
		fs.StringVar(&cfg.TraceParent, "traceparent", "", "")
	default:
		cfg.Mode = ModeAttach
		fs.StringVar(&cfg.Theme, "theme", cfg.Theme, "")
		fs.Var(sizeFlag{&cfg.HistoryBytes}, "history-bytes", "")
		fs.BoolVar(&noBell, "no-bell", false, "")
		fs.DurationVar(&cfg.Tap.HoldTimeout, "hold-timeout", 0, "")
		fs.StringVar(&cfg.Tap.Break, "break", "", "")
	}
	words, server, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, usageError("%s: %v", word, flagError(fs, args, err, nil))
	}
	if help {
		cfg.Mode = ModeHelp
		return cfg, nil
	}
	cfg.Bell = !noBell
	if word == "tap" {
		if len(words) > 0 {
			return nil, usageError("tap: unexpected %q: put the server command after --, e.g. mcptui tap -- ./server", words[0])
		}
		if len(server) == 0 || server[0] == "" {
			return nil, usageError("tap: no server command: put it after --, e.g. mcptui tap --name mine -- ./server --flag")
		}
		cfg.Command, cfg.Args = server[0], server[1:]
		if printConfig != "" {
			cfg.Tap.PrintConfig, cfg.Tap.Name = true, printConfig
		}
		if strings.ContainsAny(cfg.Tap.Name, "/\x00") {
			return nil, usageError("tap: --name %q: a name cannot hold / (it names a socket)", cfg.Tap.Name)
		}
	} else {
		if server != nil {
			return nil, usageError("attach starts no server; remove -- %s", strings.Join(server, " "))
		}
		if len(words) > 1 {
			return nil, usageError("attach takes one tap name (got %q)", words)
		}
		if len(words) == 1 {
			cfg.Tap.Name = words[0]
		}
		if cfg.Tap.HoldTimeout < 0 {
			return nil, usageError("--hold-timeout must not be negative")
		}
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return cfg, nil
}
