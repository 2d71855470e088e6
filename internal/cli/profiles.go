package cli

import (
	"flag"
	"strconv"
	"strings"

	"github.com/mcptui/mcptui/internal/hostprofile"
)

// ProfileConfig is what the host and model-API profiles were asked
// (internal/hostprofile): check --host/--model, tools --cost, doctor --as.
type ProfileConfig struct {
	// Hosts and Models are check --host NAME,… and --model NAME,….
	Hosts  []hostprofile.Host
	Models []hostprofile.Model
	// ServerName is --server-name: the server's name in the host's
	// config, which Claude Code puts into every tool name.
	ServerName string
	// Context is --context N: the context size the tools' cost is a share
	// of (0: toolcost's default).
	Context int
	// Budget is check --budget N: the most tokens the tool list may cost.
	Budget int
	// Cost is tools --cost: print what each tool costs in context.
	Cost bool
	// As is doctor --as HOST[:PLATFORM]: start the server as that host
	// would; AsOS the platform's launch to rehearse (a GOOS; "": this
	// one).
	As   *hostprofile.Host
	AsOS string
	// File is --profiles FILE: profiles that add to or replace the
	// built-in ones.
	File string
	// hosts, models and as are the flags' words, resolved once every
	// flag is read (--profiles may come after them).
	hosts, models []string
	as            string
}

// profileFlags are the flags of ProfileConfig.
var profileFlags = map[Mode][]string{
	ModeCheck:  {"host", "model", "server-name", "context", "budget", "profiles"},
	ModeTools:  {"cost", "context"},
	ModeDoctor: {"as", "profiles"},
}

// defineProfileFlags adds the profile flags to fs.
func defineProfileFlags(fs *flag.FlagSet, p *ProfileConfig) {
	fs.Func("host", "", func(v string) error {
		p.hosts = append(p.hosts, v)
		return nil
	})
	fs.Func("model", "", func(v string) error {
		p.models = append(p.models, v)
		return nil
	})
	fs.StringVar(&p.File, "profiles", "", "")
	fs.StringVar(&p.ServerName, "server-name", "", "")
	fs.Func("context", "", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return usageError("--context must be a number of tokens above 0 (got %q)", v)
		}
		p.Context = n
		return nil
	})
	fs.Func("budget", "", func(v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return usageError("--budget must be a number of tokens above 0 (got %q)", v)
		}
		p.Budget = n
		return nil
	})
	fs.BoolVar(&p.Cost, "cost", false, "")
	fs.StringVar(&p.as, "as", "", "")
}

// catalogMarkFlags are the inspector's flags of what the catalog marks:
// --baseline FILE (what changed since that snapshot), --host and --model
// (the tools that break their rules), with --server-name and --profiles
// as check takes them.
func catalogMarkFlags(fs *flag.FlagSet, cfg *Config) {
	fs.StringVar(&cfg.Drift.Baseline, "baseline", "", "")
	p := &cfg.Profiles
	fs.Func("host", "", func(v string) error {
		p.hosts = append(p.hosts, v)
		return nil
	})
	fs.Func("model", "", func(v string) error {
		p.models = append(p.models, v)
		return nil
	})
	fs.StringVar(&p.File, "profiles", "", "")
	fs.StringVar(&p.ServerName, "server-name", "", "")
}

// resolve turns the flags' names into profiles, from the built-in table
// with --profiles over it.
func (p *ProfileConfig) resolve() error {
	t := hostprofile.Builtin()
	if p.File != "" {
		var err error
		if t, err = t.WithFile(p.File); err != nil {
			return usageError("--profiles: %v", err)
		}
	}
	for _, v := range p.hosts {
		hs, err := t.ParseHosts(v)
		if err != nil {
			return usageError("--host: %v", err)
		}
		p.Hosts = append(p.Hosts, hs...)
	}
	for _, v := range p.models {
		ms, err := t.ParseModels(v)
		if err != nil {
			return usageError("--model: %v", err)
		}
		p.Models = append(p.Models, ms...)
	}
	if p.as == "" {
		return nil
	}
	name, platform, _ := strings.Cut(p.as, ":")
	h, ok := t.Host(name)
	if !ok {
		_, err := t.ParseHosts(name)
		return usageError("--as: %v", err)
	}
	if len(h.Platforms()) == 0 {
		return usageError("--as %s: how %s starts a server is not recorded (claude-desktop's is; a --profiles file can add a launch)", name, h.Title)
	}
	switch strings.ToLower(platform) {
	case "":
	case "macos", "darwin", "mac":
		p.AsOS = "darwin"
	case "windows", "linux":
		p.AsOS = strings.ToLower(platform)
	default:
		return usageError("--as %s: platform %q is none of macos, windows, linux", p.as, platform)
	}
	p.As = &h
	return nil
}
