package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/internal/hostconfig"
	"github.com/mcptui/mcptui/internal/inert"
	"github.com/mcptui/mcptui/keymap"
	"github.com/mcptui/mcptui/themes"
	"github.com/mcptui/mcptui/ui/picker"
)

// hostServers are the servers of --config FILE, or of every host config
// file that exists.
func hostServers(cfg *cli.Config) (hostconfig.Found, []hostconfig.Source, error) {
	place := hostconfig.DefaultPlace()
	if cfg.ConfigFile != "" {
		servers, err := place.Open(cfg.ConfigFile, os.LookupEnv)
		return hostconfig.Found{Servers: servers}, nil, err
	}
	return place.Discover(os.LookupEnv), place.Sources(), nil
}

// runServers prints the servers the user's hosts know (mcptui servers):
// names, hosts, transports and commands; environment and header names
// only, since their values are often secrets.
func runServers(cfg *cli.Config, stdout, stderr io.Writer) int {
	found, sources, err := hostServers(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui servers: %s\n", inert.Line(err.Error()))
		return 2
	}
	for _, err := range found.Broken {
		fmt.Fprintf(stderr, "mcptui servers: skipped %s\n", inert.Line(err.Error()))
	}
	if cfg.Format == "json" {
		type entry struct {
			Name      string   `json:"name"`
			Scope     string   `json:"scope,omitempty"`
			Host      string   `json:"host"`
			File      string   `json:"file"`
			Transport string   `json:"transport"`
			Command   []string `json:"command,omitempty"`
			URL       string   `json:"url,omitempty"`
			Dir       string   `json:"cwd,omitempty"`
			Env       []string `json:"env,omitempty"`
			Headers   []string `json:"headers,omitempty"`
			Disabled  bool     `json:"disabled,omitempty"`
			Problems  []string `json:"problems,omitempty"`
		}
		out := []entry{}
		for _, s := range found.Servers {
			e := entry{Name: s.Name, Scope: s.Scope, Host: s.Host.String(), File: s.File, Transport: string(s.Transport),
				URL: s.URL, Dir: s.Dir, Disabled: s.Disabled, Problems: s.Problems}
			if s.Transport == hostconfig.Stdio {
				e.Command = append([]string{s.Command}, s.Args...)
			}
			for _, v := range s.Env {
				e.Env = append(e.Env, v.Name)
			}
			for _, h := range s.Headers {
				e.Headers = append(e.Headers, h.Name)
			}
			out = append(out, e)
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "mcptui servers: %v\n", err)
			return 1
		}
		return 0
	}
	if len(found.Servers) == 0 {
		fmt.Fprintln(stdout, "no MCP servers found in the host config files; looked in:")
		for _, src := range sources {
			fmt.Fprintf(stdout, "  %s (%s)\n", inert.Line(src.Path), src.Host)
		}
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tHOST\tTRANSPORT\tCOMMAND OR URL\tFILE")
	for _, s := range found.Servers {
		name := s.Label()
		if s.Disabled {
			name += " (disabled)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", inert.Line(name), s.Host, s.Transport, inert.Line(s.Target()), inert.Line(s.File))
	}
	tw.Flush()
	fmt.Fprintln(stdout, "\nopen one with: mcptui --server NAME (or mcptui --config FILE NAME)")
	seen := map[string]hostconfig.Host{}
	for _, s := range found.Servers {
		if h, ok := seen[s.Label()]; ok && h != s.Host {
			fmt.Fprintf(stdout, "a name several hosts share: HOST:NAME, e.g. mcptui --server %s:%s\n", s.Host.Key(), inert.Line(s.Label()))
			break
		}
		seen[s.Label()] = s.Host
	}
	return 0
}

// runPick is mcptui with no arguments: on a terminal, the servers of the
// user's host configs to pick from; otherwise, or when there are none, the
// usage.
func runPick(ctx context.Context, cfg *cli.Config, stdout, stderr io.Writer) int {
	found, sources, _ := hostServers(cfg)
	if len(found.Servers) == 0 || !isTerminal(os.Stdin) || !isTerminal(os.Stdout) {
		fmt.Fprintf(stderr, "mcptui: no server command: put it after --, e.g. mcptui -- ./server --flag\n")
		if len(found.Servers) > 0 {
			fmt.Fprintf(stderr, "(or name one of the %d servers in your host configs: mcptui servers lists them)\n", len(found.Servers))
		} else {
			paths := make([]string, len(sources))
			for i, s := range sources {
				paths[i] = s.Path
			}
			fmt.Fprintf(stderr, "(no host config lists a server either; looked in %s)\n", inert.Line(strings.Join(paths, ", ")))
		}
		fmt.Fprintf(stderr, "\n%s", cli.Usage)
		return 2
	}
	st := themes.New(themes.Choose(cfg.Theme, true, themes.NoColor(os.Getenv)))
	keys, err := keymap.User()
	if err != nil {
		fmt.Fprintf(stderr, "mcptui: %v\n", err)
		return 2
	}
	s, ok, err := picker.Run(ctx, found.Servers, found.Broken, st, keys)
	if err != nil {
		fmt.Fprintf(stderr, "mcptui: %v\n", err)
		return 1
	}
	if !ok {
		return 0
	}
	if err := cfg.UseServer(s); err != nil {
		fmt.Fprintf(stderr, "mcptui: %s\n", inert.Line(err.Error()))
		return 2
	}
	cfg.Mode = cli.ModeInspect
	printWarnings(cfg, stderr)
	return runInspector(ctx, cfg, stderr)
}

// printWarnings says what a config entry held that could not be taken as
// written.
func printWarnings(cfg *cli.Config, stderr io.Writer) {
	for _, w := range cfg.Warnings {
		fmt.Fprintf(stderr, "mcptui: %s\n", inert.Line(w))
	}
}

func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
