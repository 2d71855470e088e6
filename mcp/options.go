package mcp

import (
	"encoding/json"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/mcptui/mcptui/conn"
	"github.com/mcptui/mcptui/httpconn"
)

// NoTimeout, as Options.RequestTimeout or a call's timeout, means the
// request has no timer.
const NoTimeout time.Duration = -1

// Defaults of Options.
const (
	DefaultProbeTimeout = 10 * time.Second
	// DefaultLauncherProbeTimeout is the probe's patience with a launcher
	// (npx, uvx, docker, ...), whose cold start downloads the server
	// first: measured, npx's cold start of a small server takes several
	// seconds on a fast network and far more on a slow one.
	DefaultLauncherProbeTimeout = 60 * time.Second
	DefaultMaxInputRounds       = 10
	DefaultMaxPages             = 1000
	// DefaultShutdownGrace is how long a process abandoned during
	// negotiation is given at each step of its shutdown.
	DefaultShutdownGrace = 2 * time.Second
)

// launchers are commands that fetch or build the server before running it.
var launchers = []string{"npx", "npm", "pnpx", "pnpm", "yarn", "bunx", "bun", "deno",
	"uvx", "uv", "pipx", "poetry", "docker", "podman", "nerdctl", "dotnet", "go", "cargo", "mvn", "gradle"}

// IsLauncher reports whether command (a path or a name) is a launcher that
// may spend a long time before the server itself starts.
func IsLauncher(command string) bool {
	return slices.Contains(launchers, strings.TrimSuffix(filepath.Base(command), ".exe"))
}

// ProbeTimeoutFor is the default probe timeout for command: longer for a
// launcher, whose first run downloads the server.
func ProbeTimeoutFor(command string) time.Duration {
	if IsLauncher(command) {
		return DefaultLauncherProbeTimeout
	}
	return DefaultProbeTimeout
}

// ClientName is the default clientInfo name.
const ClientName = "mcptui"

// ClientVersion is the default clientInfo version. Empty means the main
// module's version from the build info, or "dev" when there is none; a
// program may set it (for example with -ldflags "-X ...mcp.ClientVersion=1.2.3").
var ClientVersion = ""

// DefaultClientInfo is the identity sent when Options.ClientInfo is zero:
// name "mcptui" and ClientVersion (or the build's version, or "dev").
func DefaultClientInfo() Implementation {
	return Implementation{Name: ClientName, Version: clientVersion()}
}

func clientVersion() string {
	if ClientVersion != "" {
		return ClientVersion
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// Options configure Connect. The zero value is usable: all three versions,
// a 10 s probe, no answerers (so no client capabilities).
type Options struct {
	// Conn is passed to conn.Dial (environment, directory, stderr, the
	// Observer that sees every line, limits). Its OnServerRequest receives
	// only the server requests this package does not answer itself (ping,
	// sampling, elicitation and roots are answered here); its
	// OnNotification is called after Options.OnNotification for every
	// notification nothing else claimed.
	Conn conn.Options
	// HTTP configures a connection to a URL (headers, the HTTP client,
	// the exchange observer). Its message-level fields (limits, Observer,
	// handlers) are taken from Conn and this package's hooks.
	HTTP httpconn.Options
	// Versions are the protocol versions allowed, most preferred first;
	// nil means DefaultVersions. A single version is pinned: no probe.
	Versions []string
	// ProbeTimeout bounds the server/discover probe; 0 means
	// ProbeTimeoutFor(command): 10 s, 60 s for a launcher.
	ProbeTimeout time.Duration
	// RequestTimeout is every request's timeout unless a call says
	// otherwise; 0 keeps conn's default (30 s), NoTimeout (or any value
	// < 0) means none.
	RequestTimeout time.Duration
	// ClientInfo identifies the client; empty fields take
	// DefaultClientInfo's values.
	ClientInfo Implementation
	// Capabilities (a JSON object) is merged, member by member, over the
	// client capabilities that follow from the answerers set below.
	Capabilities json.RawMessage
	// Sampling answers sampling/createMessage; setting it declares the
	// sampling capability.
	Sampling Answerer
	// SamplingTools declares sampling.tools (2025-11-25 and later: the
	// Sampling answerer can take a request that offers tools).
	SamplingTools bool
	// ElicitForm answers form-mode elicitation/create; setting it declares
	// elicitation (form).
	ElicitForm Answerer
	// ElicitURL answers URL-mode elicitation/create; setting it declares
	// elicitation.url (not on 2025-06-18, which has no URL mode).
	ElicitURL Answerer
	// Roots answers roots/list; setting it declares the roots capability.
	Roots Answerer
	// RootsListChanged declares roots.listChanged: set it only when the
	// program really sends notifications/roots/list_changed.
	RootsListChanged bool
	// MaxInputRounds is how many input_required results one request may
	// answer before failing with -32000; 0 means 10.
	MaxInputRounds int
	// MaxPages is how many pages a list helper follows before failing
	// with -32000; 0 means 1000.
	MaxPages int
	// ExtraResultTypes are resultType values, beside "complete" and
	// "input_required", that a request returns as its result (for
	// extensions, such as the tasks extension's "task").
	ExtraResultTypes []string
	// OnNotification receives, in arrival order and with their raw
	// params, the server notifications no request or subscription claimed:
	// log messages, list changes, resource updates, task status. It runs
	// on the connection's reading goroutine and must not block.
	OnNotification func(Notification)
	// RequestMeta, when set, is called for each request the client sends
	// (not the negotiation's) and the members of the JSON object it
	// returns are merged into params._meta, under the request's own
	// WithMeta: the W3C trace context (traceparent) of --traceparent and
	// --otlp-endpoint travels so (SEP-414). nil or an empty result adds
	// nothing.
	RequestMeta func(method string) json.RawMessage
	// ShutdownGrace is how long a process abandoned during negotiation (a
	// silent probe), or left over by a Connect that failed, gets at each
	// step of its shutdown; 0 means 2 s.
	ShutdownGrace time.Duration
}

// normalized returns a copy with defaults filled in, or a -32602 error.
func (o Options) normalized() (Options, error) {
	if o.Versions == nil {
		o.Versions = DefaultVersions
	}
	o.Versions = slices.Clone(o.Versions)
	if err := validateVersions(o.Versions); err != nil {
		return o, err
	}
	for i, v := range o.Versions {
		o.Versions[i] = CanonicalVersion(v)
	}
	switch {
	case o.ProbeTimeout == 0:
		o.ProbeTimeout = DefaultProbeTimeout
	case o.ProbeTimeout < 0:
		return o, errorf(CodeInvalidParams, "ProbeTimeout must not be negative")
	}
	switch {
	case o.MaxInputRounds == 0:
		o.MaxInputRounds = DefaultMaxInputRounds
	case o.MaxInputRounds < 0:
		return o, errorf(CodeInvalidParams, "MaxInputRounds must not be negative")
	}
	switch {
	case o.MaxPages == 0:
		o.MaxPages = DefaultMaxPages
	case o.MaxPages < 0:
		return o, errorf(CodeInvalidParams, "MaxPages must not be negative")
	}
	if o.ShutdownGrace <= 0 {
		o.ShutdownGrace = DefaultShutdownGrace
	}
	def := DefaultClientInfo()
	if o.ClientInfo.Name == "" {
		o.ClientInfo.Name = def.Name
	}
	if o.ClientInfo.Version == "" {
		o.ClientInfo.Version = def.Version
	}
	if len(o.Capabilities) > 0 && !isObject(o.Capabilities) {
		return o, errorf(CodeInvalidParams, "Capabilities must be a JSON object")
	}
	return o, nil
}

// clientCapabilities is the capability object declared on version: the
// answerers' implied capabilities, each only in the revisions that define
// it, with Options.Capabilities merged over.
//
//   - sampling: every revision; sampling.tools from 2025-11-25.
//   - elicitation: from 2025-06-18 ({} there; form and url sub-capabilities
//     from 2025-11-25, which added URL mode).
//   - roots: every revision; listChanged only when RootsListChanged.
func (o *Options) clientCapabilities(version string) json.RawMessage {
	var caps object
	empty := json.RawMessage(`{}`)
	if o.Sampling != nil {
		if o.SamplingTools && !Before(version, Version20251125) {
			caps = caps.set("sampling", json.RawMessage(`{"tools":{}}`))
		} else {
			caps = caps.set("sampling", empty)
		}
	}
	switch {
	case Before(version, Version20250618):
		// No elicitation before 2025-06-18.
	case version == Version20250618:
		if o.ElicitForm != nil {
			caps = caps.set("elicitation", empty)
		}
	case o.ElicitForm != nil || o.ElicitURL != nil:
		var el object
		if o.ElicitForm != nil {
			el = el.set("form", empty)
		}
		if o.ElicitURL != nil {
			el = el.set("url", empty)
		}
		caps = caps.set("elicitation", el.encode())
	}
	if o.Roots != nil {
		if o.RootsListChanged {
			caps = caps.set("roots", json.RawMessage(`{"listChanged":true}`))
		} else {
			caps = caps.set("roots", empty)
		}
	}
	out, err := mergeDeep(caps.encode(), o.Capabilities)
	if err != nil {
		// Capabilities was checked to be an object; parse errors cannot occur.
		return caps.encode()
	}
	return out
}

// clientInfo is the clientInfo object.
func (o *Options) clientInfo() json.RawMessage {
	return mustMarshal(o.ClientInfo)
}
