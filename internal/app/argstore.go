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

// openArgStore opens the remembered arguments under the XDG state
// directory; without one, nothing is remembered.
func openArgStore() *argstore.Store {
	path, err := argstore.DefaultPath()
	if err != nil {
		return nil
	}
	s, err := argstore.Open(path)
	if err != nil {
		return nil
	}
	return s
}
