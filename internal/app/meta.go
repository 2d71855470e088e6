package app

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/mcptui/mcptui/internal/cli"
)

// runMeta runs the commands about mcptui itself rather than a server:
// completion, man and the hidden server-name lister the completion scripts
// call. handled is false for every other command line.
func runMeta(args []string, stdout, stderr io.Writer) (status int, handled bool) {
	if len(args) == 0 {
		return 0, false
	}
	switch args[0] {
	case "completion":
		if len(args) != 2 {
			fmt.Fprintf(stderr, "mcptui: completion takes one shell: %s\n", strings.Join(cli.Shells, ", "))
			return 2, true
		}
		script, err := cli.CompletionScript(args[1])
		if err != nil {
			fmt.Fprintf(stderr, "mcptui: %v\n", err)
			return 2, true
		}
		fmt.Fprint(stdout, script)
		return 0, true
	case "man":
		if len(args) != 1 {
			fmt.Fprintf(stderr, "mcptui: man takes no arguments (got %q)\n", args[1:])
			return 2, true
		}
		fmt.Fprint(stdout, cli.ManPage(version()))
		return 0, true
	case cli.ServersWord:
		// Completion must never print an error into the command line.
		found, _, err := hostServers(&cli.Config{})
		if err != nil {
			return 0, true
		}
		seen := map[string]bool{}
		for _, s := range found.Servers {
			if !seen[s.Name] {
				seen[s.Name] = true
				fmt.Fprintln(stdout, s.Name)
			}
		}
		return 0, true
	}
	return 0, false
}

// versionText is what --version prints: the module version, the commit
// and its date, the Go version and the protocol revisions, from the build
// information go build and go install embed.
func versionText(info *debug.BuildInfo, ok bool) string {
	v, commit, date, goVersion, modified := "dev", "unknown", "unknown", "unknown", false
	if ok {
		if info.Main.Version != "" && info.Main.Version != "(devel)" {
			v = info.Main.Version
		}
		goVersion = info.GoVersion
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.time":
				date = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if modified {
		commit += " (modified)"
	}
	return fmt.Sprintf("mcptui %s\ncommit:    %s\ndate:      %s\ngo:        %s\nprotocols: %s\n",
		v, commit, date, goVersion, strings.Join(cli.KnownProtocols(), ", "))
}
