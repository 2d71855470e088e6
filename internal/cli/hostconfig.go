package cli

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/mcptui/mcptui/httpconn"
	"github.com/mcptui/mcptui/internal/hostconfig"
	"github.com/mcptui/mcptui/mcp"
)

// fromConfig fills the server command from --config FILE and the server's
// name (--server NAME, or the word given in its place). Without --config the
// name is looked up in every config file the user's hosts keep. The
// entry's environment comes first, so -e and --unset on the command line
// still win, and so does --cwd.
func (cfg *Config) fromConfig(name string) error {
	place := hostconfig.DefaultPlace()
	var servers []hostconfig.Server
	if cfg.ConfigFile != "" {
		var err error
		if servers, err = place.Open(cfg.ConfigFile, os.LookupEnv); err != nil {
			return usageError("--config: %v", err)
		}
	} else {
		servers = place.Discover(os.LookupEnv).Servers
	}
	if name == "" {
		if len(servers) != 1 {
			return usageError("--config %s lists %d servers: name one with --server NAME (%s)",
				cfg.ConfigFile, len(servers), labels(servers))
		}
		name = servers[0].Label()
	}
	s, err := hostconfig.Find(servers, name)
	if err != nil {
		if cfg.ConfigFile == "" {
			return usageError("--server: %v (looked in every host's config file: mcptui servers lists them)", err)
		}
		return usageError("--server: %v", err)
	}
	return cfg.UseServer(s)
}

// UseServer makes s the server to start: its command, environment (before
// the command line's) and directory (unless --cwd gave one).
func (cfg *Config) UseServer(s hostconfig.Server) error {
	if err := cfg.answerPrompts(&s); err != nil {
		return err
	}
	if s.Transport == hostconfig.HTTP || s.Transport == hostconfig.SSE {
		return cfg.useHTTPServer(s)
	}
	if s.Command == "" {
		return fmt.Errorf("%s in %s has no command: %s", s.Label(), s.File, strings.Join(s.Problems, "; "))
	}
	cfg.Command, cfg.Args = s.Command, s.Args
	env := make([]EnvChange, 0, len(s.Env)+len(cfg.Env))
	for _, v := range s.Env {
		env = append(env, EnvChange{Name: v.Name, Value: &v.Value})
	}
	cfg.Env = append(env, cfg.Env...)
	if cfg.Dir == "" {
		cfg.Dir = s.Dir
	}
	cfg.Server = &s
	for _, p := range s.Problems {
		cfg.Warnings = append(cfg.Warnings, fmt.Sprintf("%s (%s): %s", s.Label(), s.File, p))
	}
	if s.Disabled {
		cfg.Warnings = append(cfg.Warnings, fmt.Sprintf("%s is disabled in %s; opening it anyway", s.Label(), s.File))
	}
	return nil
}

// useOAuthBlock applies an entry's oauth block as the flags it stands for
// (--client-id, --redirect-port, --scope), each unless the command line
// gave that flag: the command line wins, as -e wins over env.
func (cfg *Config) useOAuthBlock(o *hostconfig.OAuth) {
	if o == nil {
		return
	}
	a := &cfg.Auth
	if a.ClientID == "" {
		a.ClientID = o.ClientID
	}
	if a.RedirectPort == 0 {
		a.RedirectPort = o.CallbackPort
	}
	if len(a.Scopes) == 0 {
		a.Scopes = o.Scopes
	}
}

func labels(servers []hostconfig.Server) string {
	if len(servers) == 0 {
		return "none"
	}
	out := make([]string, len(servers))
	for i, s := range servers {
		out[i] = s.Label()
	}
	return strings.Join(out, ", ")
}

// useHTTPServer makes the HTTP entry s the server: its URL and headers
// (before the command line's).
func (cfg *Config) useHTTPServer(s hostconfig.Server) error {
	if !mcp.IsURL(s.URL) {
		return fmt.Errorf("%s in %s has no http(s) URL: %q", s.Label(), s.File, s.URL)
	}
	cfg.Command, cfg.Args = s.URL, nil
	if s.Transport == hostconfig.SSE && cfg.Transport == httpconn.Auto {
		cfg.Transport = httpconn.SSE // the entry says so; --transport still wins
	}
	headers := make([]Header, 0, len(s.Headers)+len(cfg.Headers))
	for _, h := range s.Headers {
		headers = append(headers, Header{Name: h.Name, Value: h.Value})
	}
	cfg.Headers = append(headers, cfg.Headers...)
	cfg.useOAuthBlock(s.OAuth)
	cfg.Server = &s
	for _, p := range s.Problems {
		cfg.Warnings = append(cfg.Warnings, fmt.Sprintf("%s (%s): %s", s.Label(), s.File, p))
	}
	if s.Disabled {
		cfg.Warnings = append(cfg.Warnings, fmt.Sprintf("%s is disabled in %s; opening it anyway", s.Label(), s.File))
	}
	return nil
}

// answerPrompts refuses an entry holding a value its editor would ask the
// user for (${input:…}) unless the command line gives it: -e NAME=VALUE
// for a variable, --header 'Name: value' for a header (the entry's header
// is then dropped). Given values are no longer problems.
func (cfg *Config) answerPrompts(s *hostconfig.Server) error {
	var missing []string
	for _, p := range s.Prompts {
		msg := p.Problem(s.Host)
		switch {
		case p.Field == "env" && slices.ContainsFunc(cfg.Env, func(e EnvChange) bool { return e.Name == p.Key }):
		case p.Field == "header" && slices.ContainsFunc(cfg.Headers, func(h Header) bool { return strings.EqualFold(h.Name, p.Key) }):
			s.Headers = slices.DeleteFunc(slices.Clone(s.Headers), func(h hostconfig.Header) bool { return strings.EqualFold(h.Name, p.Key) })
		default:
			missing = append(missing, msg)
			continue
		}
		s.Problems = slices.DeleteFunc(slices.Clone(s.Problems), func(q string) bool { return q == msg })
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s (%s) cannot start as written: %s", s.Label(), s.File, strings.Join(missing, "; "))
	}
	return nil
}
