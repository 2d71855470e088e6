package app

import (
	"strings"

	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/ui/catalog/argstore"
)

// serverKey is the key the catalog's remembered arguments are filed
// under: the server's command line (the demo's under one name).
func serverKey(cfg *cli.Config, command string, args []string) string {
	if cfg.Mode == cli.ModeDemo {
		return "mcptui demo-server"
	}
	return strings.Join(append([]string{command}, args...), " ")
}

// openArgStore is the remembered arguments under the XDG state
// directory, read when a form first asks for them, not at start; without
// the directory, or with a file that cannot be read, nothing is
// remembered.
func openArgStore() *argstore.Store {
	path, err := argstore.DefaultPath()
	if err != nil {
		return nil
	}
	return argstore.Deferred(path)
}
