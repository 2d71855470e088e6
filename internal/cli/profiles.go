package cli

import (
	"flag"
	"strconv"

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
	// As is doctor --as HOST: start the server as that host would.
	As *hostprofile.Host
}

// profileFlags are the flags of ProfileConfig.
var profileFlags = map[Mode][]string{
	ModeCheck:  {"host", "model", "server-name", "context", "budget"},
	ModeTools:  {"cost", "context"},
	ModeDoctor: {"as"},
}

// defineProfileFlags adds the profile flags to fs.
func defineProfileFlags(fs *flag.FlagSet, p *ProfileConfig) {
	fs.Func("host", "", func(v string) error {
		hs, err := hostprofile.ParseHosts(v)
		p.Hosts = append(p.Hosts, hs...)
		return err
	})
	fs.Func("model", "", func(v string) error {
		ms, err := hostprofile.ParseModels(v)
		p.Models = append(p.Models, ms...)
		return err
	})
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
	fs.Func("as", "", func(v string) error {
		h, ok := hostprofile.HostNamed(v)
		if !ok {
			_, err := hostprofile.ParseHosts(v)
			return err
		}
		if h.Launch == nil {
			return usageError("--as %s: how %s starts a server is not recorded (only claude-desktop's is)", v, h.Title)
		}
		p.As = &h
		return nil
	})
}
