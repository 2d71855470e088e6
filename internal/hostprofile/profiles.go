// Package hostprofile is what mcptui knows of the hosts that start MCP
// servers (Claude Code, Claude Desktop, VS Code, Cursor, Gemini CLI,
// ChatGPT) and of the model APIs their tools reach (Anthropic, OpenAI and
// its strict mode, Gemini, Bedrock): the limits a server breaks without
// breaking the MCP specification. It is data: this file is the one place
// to change when a host changes, and each fact names its source (an issue
// thread where users hit it) beside it. A fact no source states is left
// out and listed in the profile's Unknown, so that a report can say what
// it could not judge instead of inventing a number.
package hostprofile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// Version dates the profiles below: limits drift, a report says which
// table it judged against.
const Version = "2026-12-03"

// Dialect is a model API's JSON Schema subset for a tool's inputSchema.
type Dialect string

// The dialects with rules (schema.go).
const (
	// DialectAny: no restriction recorded.
	DialectAny Dialect = ""
	// DialectGemini: Gemini's function-declaration subset.
	DialectGemini Dialect = "gemini"
	// DialectOpenAIStrict: OpenAI function calling with "strict": true.
	DialectOpenAIStrict Dialect = "openai-strict"
)

// Model is a model API that receives a host's tool definitions.
type Model struct {
	Name  string `json:"name"`
	Title string `json:"title,omitempty"`
	// NameLimit is the longest tool name the API accepts (0: not
	// recorded); NameSource says where that comes from.
	NameLimit  int    `json:"nameLimit,omitempty"`
	NameSource string `json:"nameSource,omitempty"`
	// Dialect is the schema subset (DialectAny: none recorded);
	// DialectSource where it comes from.
	Dialect       Dialect `json:"dialect,omitempty"`
	DialectSource string  `json:"dialectSource,omitempty"`
	// Unknown are the limits this profile does not record.
	Unknown []string `json:"unknown,omitempty"`
}

// Launch is how a host starts a stdio server on one platform.
type Launch struct {
	// OS is the platform the facts hold on, as Go names it ("darwin",
	// "windows", "linux"; "" for any); Platform its name for people.
	OS       string `json:"os,omitempty"`
	Platform string `json:"platform,omitempty"`
	// Config is where the host's config file is; ConfigSource where that
	// comes from.
	Config       string `json:"config,omitempty"`
	ConfigSource string `json:"configSource,omitempty"`
	// PATH is the search path the server gets ("" not recorded);
	// UserPATH says it is the user's own PATH, as the host got it from
	// the desktop session. PATHSource for either.
	PATH       string `json:"path,omitempty"`
	UserPATH   bool   `json:"userPath,omitempty"`
	PATHSource string `json:"pathSource,omitempty"`
	// Inherit are the only variables of the host's own environment the
	// server gets, beside the config's env entries (nil: not recorded, or
	// everything); InheritSource where that comes from.
	Inherit       []string `json:"inherit,omitempty"`
	InheritSource string   `json:"inheritSource,omitempty"`
	// Drops are variables the server is known not to get even though the
	// rest pass; DropsSource where that comes from.
	Drops       []string `json:"drops,omitempty"`
	DropsSource string   `json:"dropsSource,omitempty"`
	// Shell: the command goes through a shell. Expands: ~ and $VAR in the
	// command, args and env are expanded. ShellSource for both ("": not
	// recorded; the rehearsal starts the command with no shell then).
	Shell       bool   `json:"shell,omitempty"`
	Expands     bool   `json:"expands,omitempty"`
	ShellSource string `json:"shellSource,omitempty"`
	// BatchUnquoted (Windows): a command found as a .cmd or .bat file
	// (npx.cmd) is run as cmd.exe /C PATH ARGS, the path and the
	// arguments not quoted, so a space in either splits it;
	// BatchSource where that comes from.
	BatchUnquoted bool   `json:"batchUnquoted,omitempty"`
	BatchSource   string `json:"batchSource,omitempty"`
	// Unknown are the launch facts not recorded on this platform.
	Unknown []string `json:"unknown,omitempty"`
}

// Host is an MCP client application.
type Host struct {
	Name  string `json:"name"`
	Title string `json:"title,omitempty"`
	// ToolName is how the host names a tool to the model, with {server}
	// (the server's name in the host's config) and {tool}; "" when not
	// recorded (the bare tool name is judged then, a lower bound).
	ToolName       string `json:"toolName,omitempty"`
	ToolNameSource string `json:"toolNameSource,omitempty"`
	// Models are the model APIs the host's tools reach (Model.Name);
	// ModelProfiles are those profiles, filled in by the Table the host
	// comes from.
	Models        []string `json:"models,omitempty"`
	ModelProfiles []Model  `json:"-"`
	// NameLimit, when set, is the host's own limit on the tool name
	// (beside its models'); NameSource where it comes from.
	NameLimit  int    `json:"nameLimit,omitempty"`
	NameSource string `json:"nameSource,omitempty"`
	// ResultTokens is the largest tool result the host accepts, in
	// tokens (0: none recorded); ResultEnv the variable that changes it;
	// ResultMetaKey the tool _meta key that sets a size in characters;
	// ResultSource where these come from.
	ResultTokens  int    `json:"resultTokens,omitempty"`
	ResultEnv     string `json:"resultEnv,omitempty"`
	ResultMetaKey string `json:"resultMetaKey,omitempty"`
	ResultSource  string `json:"resultSource,omitempty"`
	// ConnectTimeout is how long the host waits for a server to start (0:
	// not recorded).
	ConnectTimeout       time.Duration `json:"-"`
	ConnectTimeoutSource string        `json:"-"`
	// LegacyInitialize: the host still opens with initialize only (no
	// server/discover); LegacySource where that comes from.
	LegacyInitialize bool   `json:"legacyInitialize,omitempty"`
	LegacySource     string `json:"legacySource,omitempty"`
	// Launch is how it starts a stdio server on every platform, or on
	// the one its OS names (nil: not recorded); Launches are its launches
	// per platform, which come first (LaunchOn).
	Launch   *Launch  `json:"launch,omitempty"`
	Launches []Launch `json:"launches,omitempty"`
	// Unknown are the limits this profile does not record.
	Unknown []string `json:"unknown,omitempty"`
}

// tsSDKEnv is the TypeScript SDK's DEFAULT_INHERITED_ENV_VARS on POSIX
// (modelcontextprotocol/typescript-sdk src/client/stdio.ts,
// getDefaultEnvironment; values starting with "()" are dropped too): what
// a host built on it passes when the config gives an env.
var tsSDKEnv = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}

const (
	srcNameClaudeCode = "anthropics/claude-code#20643, #21050 (names over 64 characters once prefixed break the session)"
	srcNameVSCode     = "microsoft/vscode#243602; microsoft/mcp#842 (Copilot CLI: tools longer than 64 characters don't run)"
	srcGemini         = "github/copilot-cli#4623, google-gemini/gemini-cli#23382, backstage/backstage#34038 (400 INVALID_ARGUMENT)"
	srcOpenAIStrict   = "OpenAI function calling, strict mode (issue 27 and field research §4 name it; the rules are OpenAI's Structured Outputs subset)"
	srcResultCap      = "GuDaStudio/codexmcp#4, rollbar/rollbar-mcp-server#28, caiowilson/MCP-memento#21 (MAX_MCP_OUTPUT_TOKENS, 25,000 by default)"
	srcDesktopPATH    = "imdinu/apple-mail-mcp#70 (Desktop's log shows its PATH); mark3labs/mcp-filesystem-server#6, pathintegral-institute/mcpm.sh#229 (spawn ENOENT)"
	srcLegacyInit     = "laravel/mcp#338 (claude.ai, Claude Desktop and ChatGPT still send legacy initialize)"

	srcDesktopWinConfig = "modelcontextprotocol/docs#42 (the file goes in %APPDATA%\\Claude; create it), askdba/mysql-mcp-server#32; a Microsoft Store (MSIX) install keeps it under %LOCALAPPDATA%\\Packages\\Claude_pzs8sxrjxfjjc\\LocalCache\\Roaming\\Claude (exchangepedia.com, 2026-04, ClaudeTools)"
	srcDesktopWinPATH   = "anthropics/claude-ai-mcp#832 (2026-08: Desktop's log line \"Using MCP server command … with path\" shows the user's complete PATH, and the server gets no PATHEXT)"
	srcDesktopWinBatch  = "modelcontextprotocol/servers#40 (Desktop 0.7.5 launches npx), aaronsb/obsidian-mcp-plugin#31 and modelcontextprotocol/servers#4487 (2026-07: npx resolved to C:\\Program Files\\nodejs\\npx.cmd and run through cmd.exe /C unquoted: 'C:\\Program' is not recognized), anthropics/claude-ai-mcp#891 (2026-08: an argument with a space is split)"
	srcDesktopLinux     = "there is no official Linux build; community builds repackage it (aaddrick/claude-desktop-debian): config at ~/.config/Claude (aaddrick/claude-desktop-debian#1, #216)"
	srcDesktopLinuxPATH = "aaddrick/claude-desktop-debian#247 (2026-02: the PATH in the server's log lacks the nvm directory .bashrc adds; \"not a bug\"), #216 (npx not found by the app, found by the shell)"
)

// models are the model APIs.
var models = []Model{
	{Name: "anthropic", Title: "Anthropic Messages API",
		NameLimit: 64, NameSource: srcNameClaudeCode,
		Unknown: []string{"schema subset: none recorded"}},
	{Name: "openai", Title: "OpenAI function calling",
		NameLimit: 64, NameSource: "microsoft/mcp#842, microsoft/vscode#243602 (the 64-character limit of the model APIs Copilot calls)",
		Unknown: []string{"schema subset outside strict mode: none recorded"}},
	{Name: "openai-strict", Title: "OpenAI function calling, strict: true",
		NameLimit: 64, NameSource: "microsoft/mcp#842, microsoft/vscode#243602 (the 64-character limit of the model APIs Copilot calls)",
		Dialect: DialectOpenAIStrict, DialectSource: srcOpenAIStrict},
	{Name: "gemini", Title: "Gemini function declarations",
		Dialect: DialectGemini, DialectSource: srcGemini,
		Unknown: []string{"tool-name length limit: not stated in the sources read"}},
	{Name: "bedrock", Title: "Amazon Bedrock Converse toolSpec",
		Unknown: []string{"tool-name length limit and schema subset: the sources read name Bedrock's toolSpec without its limits; nothing is judged"}},
}

// hosts are the MCP hosts.
var hosts = []Host{
	{Name: "claude-code", Title: "Claude Code",
		ToolName: "mcp__{server}__{tool}", ToolNameSource: srcNameClaudeCode,
		Models:       []string{"anthropic"},
		ResultTokens: 25000, ResultEnv: "MAX_MCP_OUTPUT_TOKENS", ResultMetaKey: "anthropic/maxResultSizeChars", ResultSource: srcResultCap,
		ConnectTimeout: 5 * time.Second, ConnectTimeoutSource: "anthropics/claude-code#72 (5000 ms then; it may have changed)",
		Unknown: []string{"launch environment (PATH, variables): not recorded", "how its tokenizer counts a result: figures here are o200k_base estimates"}},
	{Name: "claude-desktop", Title: "Claude Desktop",
		Models:           []string{"anthropic"},
		LegacyInitialize: true, LegacySource: srcLegacyInit,
		Launches: []Launch{
			{OS: "darwin", Platform: "macOS",
				Config: "~/Library/Application Support/Claude/claude_desktop_config.json", ConfigSource: "askdba/mysql-mcp-server#32, pab1it0/chess-mcp#13",
				PATH: "/usr/local/bin:/opt/homebrew/bin:/usr/bin:/bin:/usr/sbin:/sbin", PATHSource: srcDesktopPATH,
				Inherit: tsSDKEnv, InheritSource: "issue 27 (the TypeScript SDK passes only a short list); the list is the SDK's DEFAULT_INHERITED_ENV_VARS",
				ShellSource: "issue 27, field research §4 (no shell, no ~ or ${VAR} expansion)"},
			{OS: "windows", Platform: "Windows",
				Config: `%APPDATA%\Claude\claude_desktop_config.json`, ConfigSource: srcDesktopWinConfig,
				UserPATH: true, PATHSource: srcDesktopWinPATH,
				Drops: []string{"PATHEXT"}, DropsSource: srcDesktopWinPATH,
				BatchUnquoted: true, BatchSource: srcDesktopWinBatch,
				Unknown: []string{
					"which other variables pass: the sources read name PATHEXT as dropped; APPDATA was reported missing for entries with an \"env\" in 2025 (anthropics/claude-code#1254, modelcontextprotocol/servers#1039), not since",
					"shell and expansion of %VAR%: not recorded beyond the cmd.exe /C of a batch file"}},
			{OS: "linux", Platform: "Linux (community builds)",
				Config: "~/.config/Claude/claude_desktop_config.json", ConfigSource: srcDesktopLinux,
				UserPATH: true, PATHSource: srcDesktopLinuxPATH,
				Unknown: []string{
					"the PATH itself: the desktop session's, which lacks what shell start-up files add (nvm, mise, ~/.local/bin when only .bashrc adds it); the rehearsal uses this terminal's PATH and warns of such directories",
					"environment filter, shell and expansion: not recorded for Linux"}},
		},
		Unknown: []string{"how it prefixes tool names: the bare name is judged (a lower bound)", "result cap: not recorded", "connect timeout: not recorded"}},
	{Name: "vscode", Title: "VS Code / GitHub Copilot",
		NameLimit: 64, NameSource: srcNameVSCode,
		Unknown: []string{"how it prefixes tool names: the bare name is judged (a lower bound)", "result cap, launch environment: not recorded"}},
	{Name: "cursor", Title: "Cursor",
		Unknown: []string{"no limit recorded: the sources read hold no Cursor thread; nothing is judged"}},
	{Name: "gemini-cli", Title: "Gemini CLI",
		Models:  []string{"gemini"},
		Unknown: []string{"how it prefixes tool names, result cap, launch environment: not recorded"}},
	{Name: "chatgpt", Title: "ChatGPT connectors",
		LegacyInitialize: true, LegacySource: srcLegacyInit,
		Unknown: []string{"tool-name, schema and result limits: not recorded"}},
}

// All is every host name and every model name, for `all`.
const All = "all"

// Table is a set of profiles: the built-in one (Builtin), or it with a
// user's file over it (WithFile).
type Table struct {
	Hosts  []Host  `json:"hosts,omitempty"`
	Models []Model `json:"models,omitempty"`
}

// Builtin is the table of this file.
func Builtin() Table {
	return Table{Hosts: slices.Clone(hosts), Models: slices.Clone(models)}.resolved()
}

// resolved fills in each host's ModelProfiles from the table's models.
func (t Table) resolved() Table {
	for i, h := range t.Hosts {
		h.ModelProfiles = nil
		for _, mn := range h.Models {
			if m, ok := t.Model(mn); ok {
				h.ModelProfiles = append(h.ModelProfiles, m)
			}
		}
		t.Hosts[i] = h
	}
	return t
}

// WithFile is t with the profiles of a JSON file ({"hosts": [...],
// "models": [...]}, the fields as this package's JSON names them) over it:
// an entry with a known name replaces that profile whole, a new name is
// added. Every limit an entry states needs its source beside it.
func (t Table) WithFile(path string) (Table, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return t, fmt.Errorf("profiles: %w", err)
	}
	var f Table
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return t, fmt.Errorf("profiles %s: %w", path, err)
	}
	out := Table{Hosts: slices.Clone(t.Hosts), Models: slices.Clone(t.Models)}
	for _, m := range f.Models {
		if err := m.check(); err != nil {
			return t, fmt.Errorf("profiles %s: %w", path, err)
		}
		if i := slices.IndexFunc(out.Models, func(x Model) bool { return x.Name == m.Name }); i >= 0 {
			out.Models[i] = m
		} else {
			out.Models = append(out.Models, m)
		}
	}
	for _, h := range f.Hosts {
		if err := h.check(); err != nil {
			return t, fmt.Errorf("profiles %s: %w", path, err)
		}
		if i := slices.IndexFunc(out.Hosts, func(x Host) bool { return x.Name == h.Name }); i >= 0 {
			out.Hosts[i] = h
		} else {
			out.Hosts = append(out.Hosts, h)
		}
	}
	out = out.resolved()
	for _, h := range out.Hosts {
		for _, mn := range h.Models {
			if _, ok := out.Model(mn); !ok {
				return t, fmt.Errorf("profiles %s: host %s names an unknown model %q", path, h.Name, mn)
			}
		}
	}
	return out, nil
}

// check reports a fact stated without its source.
func (m Model) check() error {
	switch {
	case m.Name == "" || m.Name == All:
		return fmt.Errorf("a model needs a name (not %q)", m.Name)
	case (m.NameLimit != 0) != (m.NameSource != ""):
		return fmt.Errorf("model %s: nameLimit needs its nameSource", m.Name)
	case (m.Dialect != DialectAny) != (m.DialectSource != ""):
		return fmt.Errorf("model %s: dialect needs its dialectSource", m.Name)
	case m.Dialect != DialectAny && m.Dialect != DialectGemini && m.Dialect != DialectOpenAIStrict:
		return fmt.Errorf("model %s: dialect %q is none of %q, %q", m.Name, m.Dialect, DialectGemini, DialectOpenAIStrict)
	}
	return nil
}

// check reports a fact stated without its source.
func (h Host) check() error {
	switch {
	case h.Name == "" || h.Name == All:
		return fmt.Errorf("a host needs a name (not %q)", h.Name)
	case (h.ToolName != "") != (h.ToolNameSource != ""):
		return fmt.Errorf("host %s: toolName needs its toolNameSource", h.Name)
	case (h.NameLimit != 0) != (h.NameSource != ""):
		return fmt.Errorf("host %s: nameLimit needs its nameSource", h.Name)
	case (h.ResultTokens != 0) != (h.ResultSource != ""):
		return fmt.Errorf("host %s: resultTokens needs its resultSource", h.Name)
	case h.LegacyInitialize != (h.LegacySource != ""):
		return fmt.Errorf("host %s: legacyInitialize needs its legacySource", h.Name)
	}
	ls := slices.Clone(h.Launches)
	if h.Launch != nil {
		ls = append(ls, *h.Launch)
	}
	for _, l := range ls {
		if err := l.check(); err != nil {
			return fmt.Errorf("host %s: launch %s: %w", h.Name, l.Platform, err)
		}
	}
	return nil
}

// check reports a launch fact stated without its source.
func (l Launch) check() error {
	switch {
	case (l.PATH != "" || l.UserPATH) != (l.PATHSource != ""):
		return fmt.Errorf("path (or userPath) needs its pathSource")
	case l.PATH != "" && l.UserPATH:
		return fmt.Errorf("path and userPath both set")
	case (l.Inherit != nil) != (l.InheritSource != ""):
		return fmt.Errorf("inherit needs its inheritSource")
	case (l.Drops != nil) != (l.DropsSource != ""):
		return fmt.Errorf("drops needs its dropsSource")
	case (l.Shell || l.Expands) && l.ShellSource == "":
		return fmt.Errorf("shell and expands need their shellSource")
	case l.BatchUnquoted != (l.BatchSource != ""):
		return fmt.Errorf("batchUnquoted needs its batchSource")
	case (l.Config != "") != (l.ConfigSource != ""):
		return fmt.Errorf("config needs its configSource")
	}
	return nil
}

// LaunchOn is how the host starts a server on goos (a GOOS: "darwin",
// "windows", "linux"): its launch for that platform, else its launch for
// any platform; false when neither is recorded.
func (h Host) LaunchOn(goos string) (*Launch, bool) {
	for i := range h.Launches {
		if h.Launches[i].OS == goos {
			l := h.Launches[i]
			return &l, true
		}
	}
	if h.Launch != nil && (h.Launch.OS == "" || h.Launch.OS == goos) {
		l := *h.Launch
		return &l, true
	}
	return nil, false
}

// Platforms are the GOOS names the host's launches are recorded for
// ("" for any).
func (h Host) Platforms() []string {
	var out []string
	for _, l := range h.Launches {
		out = append(out, l.OS)
	}
	if h.Launch != nil {
		out = append(out, h.Launch.OS)
	}
	return out
}

// Host returns the host called name.
func (t Table) Host(name string) (Host, bool) {
	i := slices.IndexFunc(t.Hosts, func(h Host) bool { return h.Name == name })
	if i < 0 {
		return Host{}, false
	}
	return t.Hosts[i], true
}

// Model returns the model API called name.
func (t Table) Model(name string) (Model, bool) {
	i := slices.IndexFunc(t.Models, func(m Model) bool { return m.Name == name })
	if i < 0 {
		return Model{}, false
	}
	return t.Models[i], true
}

// ParseHosts resolves a comma-separated --host value ("all" for every
// host).
func (t Table) ParseHosts(v string) ([]Host, error) {
	var out []Host
	for _, n := range splitList(v) {
		if n == All {
			return slices.Clone(t.Hosts), nil
		}
		h, ok := t.Host(n)
		if !ok {
			return nil, fmt.Errorf("unknown host %q (known: %s, or all)", n, strings.Join(names(t.Hosts, func(h Host) string { return h.Name }), ", "))
		}
		out = append(out, h)
	}
	return out, nil
}

// ParseModels resolves a comma-separated --model value ("all" for every
// model API).
func (t Table) ParseModels(v string) ([]Model, error) {
	var out []Model
	for _, n := range splitList(v) {
		if n == All {
			return slices.Clone(t.Models), nil
		}
		m, ok := t.Model(n)
		if !ok {
			return nil, fmt.Errorf("unknown model %q (known: %s, or all)", n, strings.Join(names(t.Models, func(m Model) string { return m.Name }), ", "))
		}
		out = append(out, m)
	}
	return out, nil
}

// Hosts returns the built-in host profiles, in table order.
func Hosts() []Host { return Builtin().Hosts }

// Models returns the built-in model profiles, in table order.
func Models() []Model { return Builtin().Models }

// HostNamed returns the built-in host called name.
func HostNamed(name string) (Host, bool) { return Builtin().Host(name) }

// ModelNamed returns the built-in model API called name.
func ModelNamed(name string) (Model, bool) { return Builtin().Model(name) }

// ParseHosts resolves a --host value against the built-in table.
func ParseHosts(v string) ([]Host, error) { return Builtin().ParseHosts(v) }

// ParseModels resolves a --model value against the built-in table.
func ParseModels(v string) ([]Model, error) { return Builtin().ParseModels(v) }

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func names[T any](xs []T, f func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// FinalName is the name the host gives tool of server, and whether the
// host's naming is recorded (false: the bare tool name).
func (h Host) FinalName(server, tool string) (string, bool) {
	if h.ToolName == "" {
		return tool, false
	}
	return strings.NewReplacer("{server}", server, "{tool}", tool).Replace(h.ToolName), true
}

// NameRule is the tool-name limit that applies to a host: its own, or the
// strictest of its models'; 0 when none is recorded.
func (h Host) NameRule() (limit int, source string) {
	limit, source = h.NameLimit, h.NameSource
	for _, m := range h.ModelProfiles {
		if m.NameLimit > 0 && (limit == 0 || m.NameLimit < limit) {
			limit, source = m.NameLimit, m.NameSource
		}
	}
	return limit, source
}
