// Package cli turns mcptui's command line into a Config: the mode to run in,
// the server command and the options for the connection and the screen. It
// starts nothing; a bad command line is an error before any process runs.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Mode is what mcptui was asked to do.
type Mode int

// The modes.
const (
	// ModeInspect opens the inspector on the server after "--".
	ModeInspect Mode = iota + 1
	// ModeDemo opens the inspector on the built-in demo server.
	ModeDemo
	// ModeDemoServer runs the demo server alone on stdio.
	ModeDemoServer
	// ModeVersion prints the version.
	ModeVersion
	// ModeHelp prints the usage.
	ModeHelp
)

// Protocol versions mcptui speaks, newest first.
var knownProtocols = []string{"2026-07-28", "2025-11-25", "2025-06-18"}

// Config is a parsed command line.
type Config struct {
	Mode Mode
	// Command and Args are the server to start (ModeInspect).
	Command string
	Args    []string

	Env               []EnvChange
	Dir               string
	Timeout           time.Duration
	ResetOnProgress   bool
	MaxTotalTimeout   time.Duration
	MaxLineBytes      int
	MaxServerRequests int
	Protocols         []string
	Roots             []string
	Theme             string
	HistoryBytes      int
	Bell              bool
}

// EnvChange sets (Value non-nil) or unsets one variable for the server.
type EnvChange struct {
	Name  string
	Value *string
}

// Defaults.
const (
	DefaultTimeout         = 30 * time.Second
	DefaultMaxTotalTimeout = 10 * time.Minute
	DefaultHistoryBytes    = 64 << 20
)

// ErrUsage marks command-line mistakes; the caller prints the message and
// the usage and exits with status 2.
var ErrUsage = errors.New("usage")

// Parse reads args (without the program name).
func Parse(args []string) (*Config, error) {
	cfg := &Config{
		Mode:            ModeInspect,
		Timeout:         DefaultTimeout,
		ResetOnProgress: true,
		MaxTotalTimeout: DefaultMaxTotalTimeout,
		Theme:           "auto",
		HistoryBytes:    DefaultHistoryBytes,
		Bell:            true,
	}
	if len(args) > 0 && args[0] == "demo-server" {
		if len(args) > 1 {
			return nil, usageError("demo-server takes no arguments (got %q)", args[1:])
		}
		cfg.Mode = ModeDemoServer
		return cfg, nil
	}
	fs := flagSet(cfg)
	var demo, version, help, noBell bool
	fs.BoolVar(&demo, "demo", false, "")
	fs.BoolVar(&version, "version", false, "")
	fs.BoolVar(&help, "help", false, "")
	fs.BoolVar(&help, "h", false, "")
	fs.BoolVar(&noBell, "no-bell", false, "")
	if err := fs.Parse(args); err != nil {
		return nil, usageError("%v", err)
	}
	rest := fs.Args()
	cfg.Bell = !noBell
	switch {
	case help:
		cfg.Mode = ModeHelp
		return cfg, nil
	case version:
		cfg.Mode = ModeVersion
		return cfg, nil
	case demo:
		if len(rest) > 0 {
			return nil, usageError("--demo starts its own server; remove %q", strings.Join(rest, " "))
		}
		cfg.Mode = ModeDemo
	default:
		if len(rest) == 0 {
			return nil, usageError("no server command: put it after --, e.g. mcptui -- ./server --flag")
		}
		if !dashDashBefore(args, len(rest)) {
			return nil, usageError("unknown argument %q: put the server command after --", rest[0])
		}
		if rest[0] == "" {
			return nil, usageError("the server command after -- is empty")
		}
		cfg.Command, cfg.Args = rest[0], rest[1:]
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// dashDashBefore reports whether the n trailing arguments came after "--".
func dashDashBefore(args []string, n int) bool {
	i := len(args) - n - 1
	return i >= 0 && args[i] == "--"
}

func (cfg *Config) check() error {
	switch cfg.Theme {
	case "auto", "dark", "light", "high-contrast":
	default:
		return usageError("--theme must be auto, dark, light or high-contrast (got %q)", cfg.Theme)
	}
	for _, p := range cfg.Protocols {
		if !known(p) {
			return usageError("--protocol %q is not one mcptui speaks (%s)", p, strings.Join(knownProtocols, ", "))
		}
	}
	switch {
	case cfg.Timeout < 0:
		return usageError("--timeout must not be negative (0 means none)")
	case cfg.MaxTotalTimeout < 0:
		return usageError("--max-total-timeout must not be negative")
	case cfg.MaxLineBytes < 0:
		return usageError("--max-line-bytes must not be negative")
	case cfg.MaxServerRequests < 0:
		return usageError("--max-server-requests must not be negative")
	case cfg.HistoryBytes <= 0:
		return usageError("--history-bytes must be positive")
	}
	return nil
}

func known(p string) bool {
	for _, k := range knownProtocols {
		if k == p {
			return true
		}
	}
	return false
}

func usageError(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrUsage, fmt.Sprintf(format, a...))
}

// flagSet binds the connection and screen flags to cfg.
func flagSet(cfg *Config) *flag.FlagSet {
	fs := flag.NewFlagSet("mcptui", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	env := envFlag{cfg}
	fs.Var(env, "e", "")
	fs.Var(env, "env", "")
	fs.Var(unsetFlag{cfg}, "unset", "")
	fs.StringVar(&cfg.Dir, "cwd", "", "")
	fs.DurationVar(&cfg.Timeout, "timeout", cfg.Timeout, "")
	fs.BoolVar(&cfg.ResetOnProgress, "reset-timeout-on-progress", cfg.ResetOnProgress, "")
	fs.DurationVar(&cfg.MaxTotalTimeout, "max-total-timeout", cfg.MaxTotalTimeout, "")
	fs.Var(sizeFlag{&cfg.MaxLineBytes}, "max-line-bytes", "")
	fs.IntVar(&cfg.MaxServerRequests, "max-server-requests", 0, "")
	fs.Var(listFlag{&cfg.Protocols}, "protocol", "")
	fs.Var(listFlag{&cfg.Roots}, "root", "")
	fs.StringVar(&cfg.Theme, "theme", cfg.Theme, "")
	fs.Var(sizeFlag{&cfg.HistoryBytes}, "history-bytes", "")
	return fs
}

type envFlag struct{ cfg *Config }

func (f envFlag) String() string { return "" }
func (f envFlag) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("want KEY=VALUE, got %q", s)
	}
	f.cfg.Env = append(f.cfg.Env, EnvChange{Name: name, Value: &value})
	return nil
}

type unsetFlag struct{ cfg *Config }

func (f unsetFlag) String() string { return "" }
func (f unsetFlag) Set(s string) error {
	if s == "" || strings.Contains(s, "=") {
		return fmt.Errorf("want a variable name, got %q", s)
	}
	f.cfg.Env = append(f.cfg.Env, EnvChange{Name: s})
	return nil
}

type listFlag struct{ list *[]string }

func (f listFlag) String() string { return "" }
func (f listFlag) Set(s string) error {
	*f.list = append(*f.list, s)
	return nil
}

// sizeFlag takes a byte count with an optional KiB/MiB/GiB (or K/M/G) suffix.
type sizeFlag struct{ n *int }

func (f sizeFlag) String() string { return "" }
func (f sizeFlag) Set(s string) error {
	n, err := ParseSize(s)
	if err != nil {
		return err
	}
	*f.n = n
	return nil
}

// ParseSize reads a byte count such as 1048576, 512KiB, 16MiB or 1G.
func ParseSize(s string) (int, error) {
	num, mult := strings.TrimSpace(s), 1
	for _, u := range []struct {
		suffix string
		mult   int
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}} {
		if strings.HasSuffix(num, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(num, u.suffix)), u.mult
			break
		}
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("want a byte count such as 1048576 or 16MiB, got %q", s)
	}
	return n * mult, nil
}
