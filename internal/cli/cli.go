// Package cli turns mcptui's command line into a Config: the mode to run in,
// the server command and the options for the connection and the screen. It
// starts nothing; a bad command line is an error before any process runs.
package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/hostconfig"
	"github.com/mcptui/mcptui/internal/telemetry"
	"github.com/mcptui/mcptui/mcp"

	"github.com/mcptui/mcptui/internal/protocol"
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

	// ModeTools lists the server's tools (mcptui tools).
	ModeTools
	// ModeResources lists the server's resources (mcptui resources).
	ModeResources
	// ModeTemplates lists the server's resource templates (mcptui templates).
	ModeTemplates
	// ModePrompts lists the server's prompts (mcptui prompts).
	ModePrompts
	// ModeCall calls the tool named by Target (mcptui call).
	ModeCall
	// ModeRead reads the resource whose URI is Target (mcptui read).
	ModeRead
	// ModeGet gets the prompt named by Target (mcptui get).
	ModeGet
	// ModeComplete asks completion/complete for Complete (mcptui complete).
	ModeComplete
	// ModeRequest sends the request whose method is Target (mcptui request).
	ModeRequest
	// ModeRun runs the script at Target against the server (mcptui run).
	ModeRun
	// ModeReplay opens the inspector read-only on the recording at Target
	// (mcptui replay).
	ModeReplay
	// ModeReplayServe acts as the server recorded at Target, on stdio
	// (mcptui replay --serve).
	ModeReplayServe
	// ModeDoctor diagnoses the server's start (mcptui doctor).
	ModeDoctor
	// ModeServers lists the servers in the user's host config files, or in
	// --config FILE (mcptui servers).
	ModeServers
	// ModePick offers the servers of the user's host config files to pick
	// one from (mcptui with no arguments).
	ModePick
	// ModeCheck runs the specification's rules against the server
	// (mcptui check).
	ModeCheck
	// ModeTap relays between a host and the server, publishing the
	// session (mcptui tap).
	ModeTap
	// ModeAttach watches a running tap, or lists them (mcptui attach).
	ModeAttach
	// ModeLogout forgets the kept OAuth tokens of a server, or all
	// (mcptui logout).
	ModeLogout
	// ModeLoad puts the server under load and reports its throughput,
	// latency and errors (mcptui load).
	ModeLoad
	// ModeSnapshot prints the server's surface as a stable JSON document
	// (mcptui snapshot).
	ModeSnapshot
	// ModeDiff compares two surfaces and classifies every change
	// (mcptui diff).
	ModeDiff
	// ModeReplayVerify sends a recording's client side to a server and
	// compares the answers with the recorded ones (mcptui replay --verify).
	ModeReplayVerify
	// ModeExport writes a recording as OTLP spans, a HAR, JSON or a
	// Markdown post-mortem (mcptui export).
	ModeExport
	// ModeSkills lists the skills of a server declaring the Skills
	// extension, each file's digest checked (mcptui skills).
	ModeSkills
	// ModeSkill shows one skill, or one of its files, verified against its
	// digest (mcptui skill NAME [FILE]).
	ModeSkill
	// ModeApp calls a tool that declares an MCP App and serves the App on
	// 127.0.0.1 for a browser, relaying its calls (mcptui app TOOL).
	ModeApp
)

// Config is a parsed command line.
type Config struct {
	Mode Mode
	// Extensions runs the extensions demo server (demo-server
	// --extensions[=VARIANT]).
	Extensions        bool
	ExtensionsVariant string
	// RequireDigests makes skills and skill fail on a file with no
	// digest listed (--require-digests).
	RequireDigests bool
	// File is skill's optional second word: the file to show.
	File string
	// NoOpen prints the App's URL without opening a browser (--no-open).
	NoOpen bool
	// Command and Args are the server to start (ModeInspect).
	Command string
	Args    []string

	Env []EnvChange
	Dir string
	// ShutdownGrace is how long the server gets after stdin's EOF, and
	// again after SIGTERM, before the next step of a shutdown.
	ShutdownGrace time.Duration
	// Headers are sent on every request to an HTTP server (--header, and
	// a host config entry's headers before them). Their values are secret:
	// never recorded, never shown.
	Headers   []Header
	badHeader string // the start of a malformed --header
	// Transport is the HTTP transport (--transport, or a host config
	// entry's type): Auto tries Streamable HTTP and falls back to the
	// 2024-11-05 HTTP+SSE transport.
	Transport httpconn.Mode
	// Insecure skips TLS certificate verification (--insecure).
	Insecure          bool
	Timeout           time.Duration
	ResetOnProgress   bool
	MaxTotalTimeout   time.Duration
	MaxLineBytes      int
	MaxServerRequests int
	Protocols         []string
	// ProbeTimeout is how long the server/discover probe waits for a first
	// answer before the server is taken for silent and started again; 0
	// means the default, which is longer for a launcher (npx, uvx, docker).
	ProbeTimeout time.Duration
	Roots        []string
	Theme        string
	HistoryBytes int
	Bell         bool

	// Record is the file --record writes the session to ("" = none);
	// RecordSecrets keeps the values of environment variables and of
	// secret-looking arguments in it.
	Record        string
	RecordSecrets bool

	// Target is what a headless command acts on: the tool (call), the
	// resource URI (read), the prompt (get), the method (request), the
	// script (run) or the recording (replay).
	Target string
	// Input is the JSON object a headless command sends: the tool's
	// arguments (call), the prompt's arguments (get), the request's params
	// (request) or the context arguments (complete); nil when none were
	// given.
	Input json.RawMessage
	// Complete is what mcptui complete asks about.
	Complete Completion
	// Format is how results are printed: "json" or "text". Parse fills in
	// the command's default (json for the one-shot commands, text for run
	// and doctor).
	Format string
	// Answers are the --answer rules, at most one per kind.
	Answers []AnswerRule
	// JUnit is the file mcptui run writes a JUnit XML report to.
	JUnit string
	// ConfigFile is the host config file --config names; ServerName the
	// entry --server picks. Server is the entry the command came from, and
	// Warnings what it could not take as written.
	ConfigFile string
	ServerName string
	Server     *hostconfig.Server
	Warnings   []string

	// Check is what mcptui check was asked for.
	Check CheckConfig
	// Drift is what snapshot, diff and replay --verify were asked for.
	Drift DriftConfig
	// Verbose copies the server's stderr and log messages, escaped, to
	// mcptui's stderr (headless commands).
	Verbose bool
	// Tap is what mcptui tap and attach were asked.
	Tap TapConfig
	// Auth is how mcptui authorizes itself at an HTTP server.
	Auth AuthConfig
	// Load is what mcptui load was asked.
	Load LoadConfig
	// Profiles is what the host and model-API profiles were asked.
	Profiles ProfileConfig
	// OTLPEndpoint is --otlp-endpoint: send the session's spans there
	// (OTLP/HTTP); TraceParent is --traceparent, the caller's span the
	// session continues (W3C traceparent).
	OTLPEndpoint string
	TraceParent  string
	// Export is what mcptui export was asked.
	Export ExportConfig
}

// ExportConfig is mcptui export's own flags.
type ExportConfig struct {
	// Call is --call: the request id whose post-mortem --format markdown
	// writes ("" = the session).
	Call string
	// Output is --output (-o): the file written ("" = stdout).
	Output string
}

// CheckConfig is mcptui check's own flags.
type CheckConfig struct {
	// Era is --era: "" (negotiated), "all", or one revision.
	Era string
	// Level is --level: "must" (default) or "should", the weakest level
	// whose failure fails the check.
	Level string
	// CallTools is --call-tools: call every tool, not only read-only ones.
	CallTools bool
	// SARIF is --sarif FILE: also write a SARIF report there.
	SARIF string
	// Rules is --rule ID|GROUP (repeatable, or comma-separated): check only
	// those rules (nil: every rule).
	Rules []string
	// Recording is --recording FILE: judge that recording's tool lists
	// and results against --host/--model instead of starting a server.
	Recording string
}

// Completion is the question of mcptui complete: which argument of which
// prompt or resource template, and the value typed so far.
type Completion struct {
	// RefType is "ref/prompt" or "ref/resource".
	RefType string
	// Ref is the prompt's name or the resource template's URI template.
	Ref string
	// Argument is the argument to complete; Value what is typed so far.
	Argument string
	Value    string
}

// Header is one HTTP header for the server's requests.
type Header struct {
	Name, Value string
}

// IsURL reports whether the server is an HTTP endpoint (Command is its
// URL).
func (c *Config) IsURL() bool { return mcp.IsURL(c.Command) }

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
	// MinMaxLineBytes is the smallest --max-line-bytes accepted: an
	// initialize result or a tools/list page does not fit in less.
	MinMaxLineBytes = 1 << 10
	// DefaultShutdownGrace: servers that honour EOF exit within 40 ms of
	// it once settled and within 270 ms right after their start (the
	// everything server under node and npx, measured); the same server
	// ignores EOF altogether once the client declares roots, so the grace
	// is what every quit costs with it before SIGTERM ends it.
	DefaultShutdownGrace = 500 * time.Millisecond
)

// ErrUsage marks command-line mistakes; the caller prints the message and
// the usage and exits with status 2.
var ErrUsage = errors.New("usage")

// Parse reads args (without the program name).
func Parse(args []string) (*Config, error) {
	cfg := &Config{
		Mode:            ModeInspect,
		Timeout:         DefaultTimeout,
		ShutdownGrace:   DefaultShutdownGrace,
		ResetOnProgress: true,
		MaxTotalTimeout: DefaultMaxTotalTimeout,
		Theme:           "auto",
		HistoryBytes:    DefaultHistoryBytes,
		Bell:            true,
	}
	if len(args) > 0 && args[0] == "demo-server" {
		cfg.Mode = ModeDemoServer
		if len(args) == 2 {
			if v, ok := strings.CutPrefix(args[1], "--extensions"); ok && (v == "" || v[0] == '=') {
				// The server of the Skills and MCP Apps extensions:
				// --extensions, or --extensions=tampered|dynamic.
				cfg.Extensions, cfg.ExtensionsVariant = true, strings.TrimPrefix(v, "=")
				return cfg, nil
			}
		}
		if len(args) > 1 {
			return nil, usageError("demo-server takes no arguments but --extensions (got %q)", args[1:])
		}
		return cfg, nil
	}
	if len(args) == 0 {
		cfg.Mode = ModePick
		return cfg, nil
	}
	if args[0] == "tap" || args[0] == "attach" {
		return parseTap(cfg, args[0], args[1:])
	}
	if args[0] == "explain" {
		// mcptui explain ID FILE: the post-mortem of one call, which is
		// mcptui export --format markdown --call ID FILE.
		if len(args) < 2 || strings.HasPrefix(args[1], "-") {
			return nil, usageError("explain needs a request id and a recording: mcptui explain ID FILE")
		}
		return parseCommand(cfg, commands["export"], append([]string{"--format", "markdown", "--call", args[1]}, args[2:]...))
	}
	if c, ok := commands[args[0]]; ok {
		return parseCommand(cfg, c, args[1:])
	}
	fs := flagSet(cfg)
	var demo, version, help, noBell bool
	fs.BoolVar(&demo, "demo", false, "")
	fs.BoolVar(&version, "version", false, "")
	fs.BoolVar(&help, "help", false, "")
	fs.BoolVar(&help, "h", false, "")
	fs.BoolVar(&noBell, "no-bell", false, "")
	// The inspector's answer policies: the headless commands' --answer,
	// parsed by the same code.
	fs.Func("answer", "", (&answerFlags{cfg: cfg}).set)
	catalogMarkFlags(fs, cfg)
	if err := fs.Parse(args); err != nil {
		return nil, usageError("%v", flagError(fs, args, err, nil))
	}
	if err := cfg.Profiles.resolve(); err != nil {
		return nil, err
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
	case cfg.ConfigFile != "" || cfg.ServerName != "":
		if err := cfg.inspectFromConfig(args, rest); err != nil {
			return nil, err
		}
	default:
		if len(rest) == 0 {
			return nil, usageError("no server command: put it after --, e.g. mcptui -- ./server --flag")
		}
		if !dashDashBefore(args, len(rest)) && !mcp.IsURL(rest[0]) {
			return nil, usageError("unknown argument %q: put the server command after --, or give an http(s) URL", rest[0])
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

// inspectFromConfig takes the server from a host config file: the words
// after the flags may name it, as --server does.
func (cfg *Config) inspectFromConfig(args, rest []string) error {
	if len(rest) > 0 && dashDashBefore(args, len(rest)) {
		return usageError("--config and --server pick the server from a config file: remove -- %s, or the flags", strings.Join(rest, " "))
	}
	name := cfg.ServerName
	switch {
	case len(rest) > 1:
		return usageError("unexpected %q: give one server name", rest[1])
	case len(rest) == 1 && name != "" && rest[0] != name:
		return usageError("two server names: --server %s and %s", name, rest[0])
	case len(rest) == 1:
		name = rest[0]
	}
	return cfg.fromConfig(name)
}

// dashDashBefore reports whether the n trailing arguments came after "--".
func dashDashBefore(args []string, n int) bool {
	i := len(args) - n - 1
	return i >= 0 && args[i] == "--"
}

func (cfg *Config) check() error {
	if cfg.badHeader != "" {
		return usageError("--header: want 'Name: value', got %q", cfg.badHeader)
	}
	if err := cfg.checkURL(); err != nil {
		return err
	}
	if err := cfg.checkAuth(); err != nil {
		return err
	}
	if err := cfg.checkDir(); err != nil {
		return err
	}
	if err := cfg.checkTelemetry(); err != nil {
		return err
	}
	switch cfg.Theme {
	case "auto", "dark", "light", "high-contrast":
	default:
		return usageError("--theme must be auto, dark, light or high-contrast (got %q)", cfg.Theme)
	}
	for _, p := range cfg.Protocols {
		if !known(p) {
			return usageError("--protocol %q is not one mcptui speaks (%s)", p, strings.Join(protocol.NewestFirst(), ", "))
		}
	}
	switch {
	case cfg.Timeout < 0:
		return usageError("--timeout must not be negative (0 means none)")
	case cfg.ProbeTimeout < 0:
		return usageError("--probe-timeout must not be negative (0 means the default)")
	case cfg.ShutdownGrace < 0:
		return usageError("--shutdown-grace must not be negative (0 sends SIGTERM at once)")
	case cfg.MaxTotalTimeout < 0:
		return usageError("--max-total-timeout must not be negative")
	case cfg.MaxLineBytes < 0:
		return usageError("--max-line-bytes must not be negative")
	case cfg.MaxLineBytes > 0 && cfg.MaxLineBytes < MinMaxLineBytes:
		return usageError("--max-line-bytes %d cannot hold an MCP message (the smallest is %d bytes, 1KiB; 0 is the 16MiB default)", cfg.MaxLineBytes, MinMaxLineBytes)
	case cfg.MaxServerRequests < 0:
		return usageError("--max-server-requests must not be negative")
	case cfg.HistoryBytes <= 0:
		return usageError("--history-bytes must be positive")
	case cfg.RecordSecrets && cfg.Record == "":
		return usageError("--record-secrets needs --record FILE")
	}
	for _, r := range cfg.Roots {
		if err := checkRoot(r); err != nil {
			return err
		}
	}
	if cfg.JUnit != "" {
		if err := checkWritable(cfg.JUnit); err != nil {
			return usageError("--junit %s: %v", cfg.JUnit, err)
		}
	}
	return nil
}

// known reports whether mcptui speaks protocol version p (2024-10-07, the
// pre-release, is accepted too and spoken as 2024-11-05).
func known(p string) bool { return protocol.Known(p) }

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
	fs.Var(headerFlag{cfg}, "header", "")
	fs.Var(headerFlag{cfg}, "H", "")
	fs.Var(transportFlag{&cfg.Transport}, "transport", "")
	fs.BoolVar(&cfg.Insecure, "insecure", false, "")
	fs.StringVar(&cfg.Dir, "cwd", "", "")
	fs.StringVar(&cfg.ConfigFile, "config", "", "")
	fs.StringVar(&cfg.ServerName, "server", "", "")
	fs.DurationVar(&cfg.Timeout, "timeout", cfg.Timeout, "")
	fs.DurationVar(&cfg.ShutdownGrace, "shutdown-grace", cfg.ShutdownGrace, "")
	fs.BoolVar(&cfg.ResetOnProgress, "reset-timeout-on-progress", cfg.ResetOnProgress, "")
	fs.DurationVar(&cfg.MaxTotalTimeout, "max-total-timeout", cfg.MaxTotalTimeout, "")
	fs.Var(sizeFlag{&cfg.MaxLineBytes}, "max-line-bytes", "")
	fs.IntVar(&cfg.MaxServerRequests, "max-server-requests", 0, "")
	fs.Var(listFlag{list: &cfg.Protocols, unique: true}, "protocol", "")
	fs.DurationVar(&cfg.ProbeTimeout, "probe-timeout", 0, "")
	fs.Var(listFlag{list: &cfg.Roots, unique: true}, "root", "")
	fs.StringVar(&cfg.Theme, "theme", cfg.Theme, "")
	fs.Var(sizeFlag{&cfg.HistoryBytes}, "history-bytes", "")
	fs.StringVar(&cfg.Record, "record", "", "")
	fs.BoolVar(&cfg.RecordSecrets, "record-secrets", false, "")
	fs.StringVar(&cfg.OTLPEndpoint, "otlp-endpoint", "", "")
	fs.StringVar(&cfg.TraceParent, "traceparent", "", "")
	authFlags(fs, cfg)
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

type headerFlag struct{ cfg *Config }

func (f headerFlag) String() string { return "" }
func (f headerFlag) Set(s string) error {
	name, value, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") || strings.ContainsAny(value, "\r\n") {
		// Not an error here: the flag package would echo the value, which
		// may be a secret. check reports it.
		if f.cfg.badHeader == "" {
			f.cfg.badHeader = redactHeaderArg(s)
		}
		return nil
	}
	f.cfg.Headers = append(f.cfg.Headers, Header{Name: name, Value: strings.TrimSpace(value)})
	return nil
}

// redactHeaderArg keeps a malformed --header's name for the message, not
// what may be a secret after it.
func redactHeaderArg(s string) string {
	if len(s) > 12 {
		return s[:12] + "…"
	}
	return s
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

// listFlag collects a repeatable flag; with unique set a value given twice
// is an error.
type listFlag struct {
	list   *[]string
	unique bool
}

func (f listFlag) String() string { return "" }
func (f listFlag) Set(s string) error {
	if f.unique && slices.Contains(*f.list, s) {
		return fmt.Errorf("%q given twice", s)
	}
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

// checkTelemetry checks --otlp-endpoint and --traceparent.
func (cfg *Config) checkTelemetry() error {
	if cfg.OTLPEndpoint != "" {
		if _, err := telemetry.TracesURL(cfg.OTLPEndpoint); err != nil {
			return usageError("%v", err)
		}
	}
	if cfg.TraceParent != "" {
		if _, err := telemetry.ParseTraceParent(cfg.TraceParent); err != nil {
			return usageError("--traceparent: %v", err)
		}
	}
	return nil
}
