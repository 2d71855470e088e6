package app

import (
	"strings"

	"github.com/mcptui/mcptui/internal/cli"
	"github.com/mcptui/mcptui/mcp"
	"github.com/mcptui/mcptui/ui/explorer"
	"github.com/mcptui/mcptui/ui/explorer/argstore"
)

// explorerWiring prepares the explorer's side of the connection: a hub
// that receives the server notifications nothing else claims (log
// messages, task status), results of the tasks extension returned as
// results, and the key its remembered arguments are filed under.
func explorerWiring(cfg *cli.Config, command string, args []string, opts *mcp.Options) (*explorer.Hub, string) {
	hub := explorer.NewHub(0)
	if user := opts.OnNotification; user != nil {
		opts.OnNotification = func(n mcp.Notification) { user(n); hub.Push(n) }
	} else {
		opts.OnNotification = hub.Push
	}
	opts.ExtraResultTypes = append(opts.ExtraResultTypes, "task")
	key := strings.Join(append([]string{command}, args...), " ")
	if cfg.Mode == cli.ModeDemo {
		key = "mcptui demo-server"
	}
	return hub, key
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
