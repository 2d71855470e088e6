package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/mcptui/mcptui/internal/check/rules"
	"github.com/mcptui/mcptui/mcp"

	"github.com/mcptui/mcptui/internal/protocol"
)

// command describes one subcommand: its mode, how many words it takes
// before "--", whether a server command must follow "--", and the flags it
// accepts beyond the shared ones.
type command struct {
	name    string
	mode    Mode
	words   []string // names of the positional words, for messages
	server  bool     // a server command after -- is required
	flags   []string // extra flags accepted
	answers bool     // --answer is accepted
	format  string   // the default --format
}

// Flags every command that starts a server accepts: the inspector's.
var serverFlags = []string{
	"e", "env", "unset", "header", "H", "transport", "insecure", "cwd", "shutdown-grace", "timeout", "reset-timeout-on-progress", "max-total-timeout",
	"max-line-bytes", "max-server-requests", "protocol", "probe-timeout", "root", "record", "record-secrets", "otlp-endpoint", "traceparent",
	"theme", "history-bytes", "no-bell", "verbose", "v", "format", "config", "server",
	"client-id", "client-secret", "client-metadata-url", "scope", "bearer", "keep-token", "browser", "redirect-port", "no-oauth", "login-timeout", "client-credentials",
}

// commands are the subcommands, by the word that selects them.
var commands = map[string]command{
	"tools":     {name: "tools", mode: ModeTools, server: true, answers: true, format: "json"},
	"resources": {name: "resources", mode: ModeResources, server: true, answers: true, format: "json"},
	"templates": {name: "templates", mode: ModeTemplates, server: true, answers: true, format: "json"},
	"prompts":   {name: "prompts", mode: ModePrompts, server: true, answers: true, format: "json"},
	"call":      {name: "call", mode: ModeCall, words: []string{"a tool name"}, server: true, flags: []string{"args", "arg"}, answers: true, format: "json"},
	"read":      {name: "read", mode: ModeRead, words: []string{"a resource URI"}, server: true, answers: true, format: "json"},
	"get":       {name: "get", mode: ModeGet, words: []string{"a prompt name"}, server: true, flags: []string{"args", "arg"}, answers: true, format: "json"},
	"complete":  {name: "complete", mode: ModeComplete, words: []string{"a reference (prompt:NAME or resource:URI-TEMPLATE)", "an argument (NAME or NAME=VALUE)"}, server: true, flags: []string{"arg"}, answers: true, format: "json"},
	"request":   {name: "request", mode: ModeRequest, words: []string{"a method"}, server: true, flags: []string{"params"}, answers: true, format: "json"},
	"run":       {name: "run", mode: ModeRun, words: []string{"a script file"}, server: true, flags: []string{"junit"}, answers: true, format: "text"},
	"doctor":    {name: "doctor", mode: ModeDoctor, server: true, format: "text"},
	"servers":   {name: "servers", mode: ModeServers, flags: []string{"config", "format"}, format: "text"},
	"check":     {name: "check", mode: ModeCheck, server: true, flags: []string{"era", "level", "call-tools", "junit", "sarif", "rule", "baseline", "recording"}, answers: true, format: "text"},
	"snapshot":  {name: "snapshot", mode: ModeSnapshot, server: true, flags: []string{"era"}, answers: true, format: "json"},
	"diff":      {name: "diff", mode: ModeDiff, words: []string{"a snapshot, recording or server URL", "another (or -- a server command)"}, server: true, flags: []string{"fail-on", "eras"}, answers: true, format: "text"},
	"logout":    {name: "logout", mode: ModeLogout, words: []string{"a server URL, or all"}},
	"export":    {name: "export", mode: ModeExport, words: []string{"a recording file"}, flags: []string{"format", "call", "output", "o", "otlp-endpoint", "traceparent", "max-line-bytes"}, format: "json"},
	"replay":    {name: "replay", mode: ModeReplay, words: []string{"a recording file"}, flags: []string{"serve", "verify", "theme", "history-bytes", "no-bell", "max-line-bytes"}},
	"skills":    {name: "skills", mode: ModeSkills, server: true, flags: []string{"require-digests"}, answers: true, format: "text"},
	"skill":     {name: "skill", mode: ModeSkill, words: []string{"a skill name (or its SKILL.md URI)", "a file of it"}, server: true, flags: []string{"require-digests"}, answers: true, format: "text"},
	"app":       {name: "app", mode: ModeApp, words: []string{"a tool name"}, server: true, flags: []string{"args", "arg", "no-open"}, answers: true, format: "text"},
	"load":      {name: "load", mode: ModeLoad, words: []string{"what to send (call NAME or request METHOD)", "its name"}, server: true, flags: loadFlags, answers: true, format: "text"},
}

// parseCommand parses the arguments after a subcommand's word: flags and
// words in any order, then "--" and the server command.
func parseCommand(cfg *Config, c command, args []string) (*Config, error) {
	cfg.Mode = c.mode
	fs := flagSet(cfg)
	var help, noBell, serve bool
	fs.BoolVar(&help, "help", false, "")
	fs.BoolVar(&help, "h", false, "")
	fs.BoolVar(&noBell, "no-bell", false, "")
	fs.BoolVar(&serve, "serve", false, "")
	fs.BoolVar(&cfg.Verbose, "verbose", false, "")
	fs.BoolVar(&cfg.Verbose, "v", false, "")
	fs.StringVar(&cfg.Format, "format", "", "")
	fs.StringVar(&cfg.JUnit, "junit", "", "")
	fs.BoolVar(&cfg.RequireDigests, "require-digests", false, "")
	fs.BoolVar(&cfg.NoOpen, "no-open", false, "")
	cc := &cfg.Check
	fs.StringVar(&cc.Era, "era", "", "")
	fs.StringVar(&cc.Level, "level", "must", "")
	fs.BoolVar(&cc.CallTools, "call-tools", false, "")
	fs.StringVar(&cc.Recording, "recording", "", "")
	fs.StringVar(&cc.SARIF, "sarif", "", "")
	fs.StringVar(&cfg.Export.Call, "call", "", "")
	fs.StringVar(&cfg.Export.Output, "output", "", "")
	fs.StringVar(&cfg.Export.Output, "o", "", "")
	fs.Func("rule", "", func(v string) error {
		for _, r := range strings.Split(v, ",") {
			if r = strings.TrimSpace(r); r != "" {
				cc.Rules = append(cc.Rules, r)
			}
		}
		return nil
	})
	in := &inputFlags{mode: c.mode}
	fs.Func("args", "", in.setArgs)
	fs.Func("arg", "", in.setArg)
	fs.Func("params", "", in.setArgs)
	ans := &answerFlags{cfg: cfg}
	fs.Func("answer", "", ans.set)
	ld := &cfg.Load
	ld.Sessions, ld.MaxInFlight, ld.MaxErrorRate = 1, DefaultMaxInFlight, -1
	fs.StringVar(&ld.Script, "script", "", "")
	fs.Float64Var(&ld.Rate, "rate", 0, "")
	fs.IntVar(&ld.Concurrency, "concurrency", 0, "")
	fs.DurationVar(&ld.Duration, "duration", 0, "")
	fs.DurationVar(&ld.Warmup, "warmup", 0, "")
	fs.IntVar(&ld.Sessions, "sessions", 1, "")
	fs.IntVar(&ld.MaxInFlight, "max-in-flight", DefaultMaxInFlight, "")
	fs.Int64Var(&ld.MaxRequests, "max-requests", 0, "")
	fs.DurationVar(&ld.MaxP50, "max-p50", 0, "")
	fs.DurationVar(&ld.MaxP99, "max-p99", 0, "")
	fs.Var(errorRateFlag{&ld.MaxErrorRate}, "max-error-rate", "")
	fs.Var(rampFlag{ld}, "ramp", "")
	fs.IntVar(&ld.RampSteps, "ramp-steps", DefaultRampSteps, "")
	verify := driftFlags(fs, cfg)
	defineProfileFlags(fs, &cfg.Profiles)
	c.flags = slices.Concat(c.flags, profileFlags[c.mode])

	words, server, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, usageError("%s: %v", c.name, flagError(fs, args, err, c.accepted()))
	}
	if help {
		cfg.Mode = ModeHelp
		return cfg, nil
	}
	cfg.Bell = !noBell
	c = verifyCommand(c, cfg, *verify)
	if err := checkFlags(fs, c); err != nil {
		return nil, err
	}
	if err := cfg.Profiles.resolve(); err != nil {
		return nil, err
	}
	if c.mode == ModeDiff {
		if server, err = cfg.diffSides(words, server); err != nil {
			return nil, err
		}
		words, c.words, c.server = nil, nil, server != nil
	}
	// nw is how many of the words are the command's own (load's vary).
	nw := len(c.words)
	if c.mode == ModeLoad {
		nw = loadWordCount(words)
	}
	if c.mode == ModeSkill && len(words) == 1 {
		nw = 1 // the file is optional
	}
	if c.server && server == nil && len(words) == nw+1 && mcp.IsURL(words[len(words)-1]) {
		// mcptui tools https://host/mcp: the URL stands where -- and the
		// command would.
		server, words = words[len(words)-1:], words[:len(words)-1]
	}
	fromConfig := cfg.ConfigFile != "" || cfg.ServerName != ""
	if c.mode == ModeCheck && cfg.Check.Recording != "" {
		// check --recording judges a recording: no server is started.
		switch {
		case server != nil || fromConfig || len(words) > nw:
			return nil, usageError("check --recording judges the recording alone: give no server (remove -- …, --config, --server)")
		case len(cfg.Profiles.Hosts)+len(cfg.Profiles.Models) == 0 && cfg.Profiles.Budget == 0:
			return nil, usageError("check --recording judges host and model limits: add --host NAME (e.g. --host claude-code), --model NAME or --budget N")
		case cfg.Drift.Baseline != "" || cfg.Check.CallTools:
			return nil, usageError("check --recording calls nothing: --baseline and --call-tools need a server")
		}
		c.server = false
	}
	if c.server && server == nil && fromConfig && cfg.ServerName == "" && len(words) > nw {
		// mcptui tools --config .mcp.json memory: the word after the
		// command's own names the server, as --server would.
		cfg.ServerName, words = words[nw], append(words[:nw:nw], words[nw+1:]...)
	}
	if fromConfig && len(words) > nw {
		return nil, usageError("%s: unexpected %q: give one server name of the config file", c.name, words[nw])
	}
	if c.mode == ModeLoad && len(words) == 1 && nw == 2 {
		return nil, usageError("load: %s needs a name after it, e.g. mcptui load call echo --rate 50 --duration 10s -- ./server", words[0])
	}
	if len(words) != nw && c.mode != ModeLoad {
		return nil, wordsError(c, words)
	}
	switch {
	case c.server && server == nil && fromConfig:
		if err := cfg.fromConfig(cfg.ServerName); err != nil {
			return nil, err
		}
	case c.server && server != nil && fromConfig:
		return nil, usageError("%s: --config and --server pick the server from a config file: remove -- %s, or the flags", c.name, strings.Join(server, " "))
	case c.server && server == nil:
		return nil, usageError("%s: no server command: put it after --, e.g. mcptui %s -- ./server --flag", c.name, example(c))
	case c.server && len(server) == 0:
		return nil, usageError("%s: the server command after -- is empty", c.name)
	case c.server && server[0] == "":
		return nil, usageError("%s: the server command after -- is empty", c.name)
	case !c.server && server != nil:
		return nil, usageError("%s starts no server; remove -- %s", c.name, strings.Join(server, " "))
	}
	if c.server && server != nil {
		cfg.Command, cfg.Args = server[0], server[1:]
	}
	if c.mode == ModeSkill && len(words) == 2 {
		cfg.File = words[1]
	}
	if len(words) > 0 && c.mode != ModeLoad {
		cfg.Target = words[0]
		if cfg.Target == "" {
			return nil, usageError("%s: %s must not be empty", c.name, c.words[0])
		}
	}
	if c.mode == ModeLogout {
		if err := cfg.checkLogout(); err != nil {
			return nil, err
		}
	}
	if c.mode == ModeReplay && serve {
		cfg.Mode = ModeReplayServe
	}
	if c.mode == ModeComplete {
		comp, err := ParseCompletion(words[0], words[1])
		if err != nil {
			return nil, err
		}
		cfg.Complete, cfg.Target = comp, ""
	}
	if cfg.Input, err = in.object(); err != nil {
		return nil, err
	}
	if c.mode == ModeLoad {
		if err := cfg.parseLoad(words); err != nil {
			return nil, err
		}
	}
	switch cfg.Format {
	case "":
		cfg.Format = c.format
	case "otlp", "har":
		if c.mode != ModeExport {
			return nil, usageError("--format must be json or text (got %q)", cfg.Format)
		}
	case "markdown", "md":
		if c.mode != ModeExport && c.mode != ModeDiff && c.mode != ModeReplayVerify {
			return nil, usageError("--format must be json or text (got %q)", cfg.Format)
		}
		cfg.Format = "markdown"
	case "text":
		if c.mode == ModeExport {
			return nil, usageError("export: --format must be otlp, har, json or markdown (got %q)", cfg.Format)
		}
	case "json":
	case "junit", "sarif":
		if c.mode != ModeCheck {
			return nil, usageError("--format must be json or text (got %q)", cfg.Format)
		}
	default:
		return nil, usageError("--format must be json or text (got %q)", cfg.Format)
	}
	if c.mode == ModeExport && cfg.Export.Call != "" && cfg.Format != "markdown" {
		return nil, usageError("export: --call picks the call of --format markdown's post-mortem (got --format %s)", cfg.Format)
	}
	if c.mode == ModeCheck {
		if err := cfg.Check.validate(); err != nil {
			return nil, err
		}
	}
	if err := cfg.validateDrift(c.mode); err != nil {
		return nil, err
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// validate checks mcptui check's flags.
func (c *CheckConfig) validate() error {
	if c.Level != "must" && c.Level != "should" {
		return usageError("check: --level must be must or should (got %q)", c.Level)
	}
	if c.Era != "" && c.Era != "all" && !slices.Contains(protocol.Revisions(), c.Era) {
		return usageError("check: --era must be all or one of %s (got %q)", strings.Join(protocol.NewestFirst(), ", "), c.Era)
	}
	for _, r := range c.Rules {
		if _, ok := rules.Get(r); !ok && !slices.ContainsFunc(append(rules.All(), rules.Drift...), func(x rules.Rule) bool { return x.Group == r || x.ID == r }) {
			return usageError("check: --rule %q is neither a rule id (e.g. tools.names) nor a group (e.g. tools)", r)
		}
	}
	return nil
}

// parseInterleaved parses flags and positional words in any order up to
// "--"; server is what follows "--" (nil when there is no "--").
func parseInterleaved(fs *flag.FlagSet, args []string) (words, server []string, err error) {
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return nil, nil, err
		}
		left := fs.Args()
		if dashDashBefore(rest, len(left)) {
			return words, append([]string{}, left...), nil
		}
		if len(left) == 0 {
			return words, nil, nil
		}
		words = append(words, left[0])
		rest = left[1:]
	}
}

// accepted lists the flags c takes.
func (c command) accepted() []string {
	out := append([]string{"help", "h"}, c.flags...)
	if c.server {
		out = append(out, serverFlags...)
	}
	if c.answers {
		out = append(out, "answer")
	}
	return out
}

// checkFlags rejects flags the command does not take.
func checkFlags(fs *flag.FlagSet, c command) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil || slices.Contains(c.flags, f.Name) || f.Name == "help" || f.Name == "h" {
			return
		}
		if c.server && slices.Contains(serverFlags, f.Name) {
			return
		}
		if c.answers && f.Name == "answer" {
			return
		}
		err = usageError("%s does not take --%s", c.name, f.Name)
	})
	return err
}

func wordsError(c command, words []string) error {
	switch {
	case len(c.words) == 0:
		return usageError("%s takes no arguments before -- (got %q); the server command goes after --", c.name, words[0])
	case len(words) < len(c.words):
		return usageError("%s needs %s, e.g. mcptui %s", c.name, c.words[len(words)], example(c))
	default:
		return usageError("%s: unexpected %q; flags and %s go before --, the server command after it",
			c.name, words[len(c.words)], strings.Join(c.words, " and "))
	}
}

// example is a command line for c, for messages.
func example(c command) string {
	switch c.mode {
	case ModeCall:
		return "call echo --arg text=hi"
	case ModeRead:
		return "read file:///tmp/x"
	case ModeGet:
		return "get greet --arg name=Ada"
	case ModeComplete:
		return "complete prompt:greet name=A"
	case ModeRequest:
		return "request ping"
	case ModeRun:
		return "run checks.mcpt"
	case ModeLoad:
		return "load call echo --rate 50 --duration 10s"
	case ModeCheck:
		return "check --era all"
	case ModeReplay:
		return "replay session.jsonl"
	case ModeExport:
		return "export --format har session.jsonl"
	case ModeSkill:
		return "skill git-workflow SKILL.md"
	case ModeApp:
		return "app counter --arg start:=1"
	}
	return c.name
}

// ParseCompletion reads mcptui complete's two words: the reference
// (prompt:NAME, resource:URI-TEMPLATE, a bare URI template containing "://",
// or a bare prompt name) and the argument (NAME or NAME=VALUE).
func ParseCompletion(ref, arg string) (Completion, error) {
	var c Completion
	switch {
	case strings.HasPrefix(ref, "prompt:"):
		c.RefType, c.Ref = "ref/prompt", strings.TrimPrefix(ref, "prompt:")
	case strings.HasPrefix(ref, "resource:"):
		c.RefType, c.Ref = "ref/resource", strings.TrimPrefix(ref, "resource:")
	case strings.Contains(ref, "://"):
		c.RefType, c.Ref = "ref/resource", ref
	default:
		c.RefType, c.Ref = "ref/prompt", ref
	}
	if c.Ref == "" {
		return c, usageError("complete: the reference %q names nothing; use prompt:NAME or resource:URI-TEMPLATE", ref)
	}
	c.Argument, c.Value, _ = strings.Cut(arg, "=")
	if c.Argument == "" {
		return c, usageError("complete: the argument %q has no name; use NAME or NAME=VALUE", arg)
	}
	return c, nil
}

// inputFlags collects --args/--params (one JSON object) or --arg pairs.
type inputFlags struct {
	mode    Mode
	raw     json.RawMessage
	names   []string
	values  []json.RawMessage
	fromArg bool
}

// setArgs takes --args or --params: a JSON object, or @FILE holding one.
func (in *inputFlags) setArgs(s string) error {
	if in.raw != nil {
		return fmt.Errorf("given twice")
	}
	b := []byte(s)
	if file, ok := strings.CutPrefix(s, "@"); ok {
		var err error
		if b, err = os.ReadFile(file); err != nil {
			return fmt.Errorf("reading %s: %w", file, err)
		}
	}
	b = bytes.TrimSpace(b)
	if !json.Valid(b) || len(b) == 0 || b[0] != '{' {
		return fmt.Errorf("want a JSON object (or @FILE holding one), got %s", clip(b))
	}
	if err := strictJSON(b); err != nil {
		return err
	}
	if in.mode == ModeGet {
		var m map[string]string
		if err := json.Unmarshal(b, &m); err != nil {
			return fmt.Errorf("prompt arguments are strings: %v", err)
		}
	}
	in.raw = json.RawMessage(b)
	return nil
}

// strictJSON rejects what a JSON object may not hold for a server: a
// member name given twice (anywhere in it) or invalid UTF-8.
func strictJSON(b []byte) error {
	if _, err := jsontext.NewDecoder(bytes.NewReader(b)).ReadValue(); err != nil {
		var se *jsontext.SyntacticError
		if errors.As(err, &se) {
			return fmt.Errorf("not one JSON object: %v", se.Err)
		}
		return fmt.Errorf("not one JSON object: %w", err)
	}
	return nil
}

// setArg takes --arg KEY=VALUE (a string) or, for call, KEY:=JSON.
func (in *inputFlags) setArg(s string) error {
	in.fromArg = true
	eq := strings.Index(s, "=")
	if eq <= 0 {
		return fmt.Errorf("want KEY=VALUE, got %q", s)
	}
	name, value := s[:eq], s[eq+1:]
	var v json.RawMessage
	if n, ok := strings.CutSuffix(name, ":"); ok && n != "" {
		if in.mode != ModeCall && in.mode != ModeLoad && in.mode != ModeApp {
			return fmt.Errorf("KEY:=JSON is for tool arguments; %q must be a string: use %s=VALUE", n, n)
		}
		if !json.Valid([]byte(value)) {
			return fmt.Errorf("%s:= wants JSON, got %s", n, clip([]byte(value)))
		}
		name, v = n, json.RawMessage(bytes.TrimSpace([]byte(value)))
	} else {
		v, _ = json.Marshal(value)
	}
	if slices.Contains(in.names, name) {
		return fmt.Errorf("%q given twice", name)
	}
	in.names, in.values = append(in.names, name), append(in.values, v)
	return nil
}

// object is the collected JSON object, members in the order given.
func (in *inputFlags) object() (json.RawMessage, error) {
	if in.raw != nil && in.fromArg {
		return nil, usageError("use --args JSON or --arg KEY=VALUE, not both")
	}
	if in.raw != nil {
		return in.raw, nil
	}
	if len(in.names) == 0 {
		return nil, nil
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, n := range in.names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(n)
		b.Write(k)
		b.WriteByte(':')
		b.Write(in.values[i])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// clip shortens b for an error message.
func clip(b []byte) string {
	const n = 40
	if len(b) > n {
		return fmt.Sprintf("%q…", b[:n])
	}
	return fmt.Sprintf("%q", b)
}

// Headless reports whether m is one of the subcommands (everything but the
// inspector, the demo, help and version).
func (m Mode) Headless() bool {
	return m >= ModeTools && m <= ModeDoctor || m == ModeCheck || m == ModeLoad || m >= ModeSnapshot && m <= ModeApp
}

// String is the subcommand's word ("call", "replay-serve", ...), or the
// mode's name.
func (m Mode) String() string {
	switch m {
	case ModeInspect:
		return "inspect"
	case ModeDemo:
		return "demo"
	case ModeDemoServer:
		return "demo-server"
	case ModeVersion:
		return "version"
	case ModeHelp:
		return "help"
	case ModeReplayServe:
		return "replay-serve"
	case ModePick:
		return "pick"
	case ModeTap:
		return "tap"
	case ModeAttach:
		return "attach"
	case ModeLogout:
		return "logout"
	case ModeReplayVerify:
		return "replay-verify"
	}
	for w, c := range commands {
		if c.mode == m {
			return w
		}
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}
